package server

import (
	"encoding/json"
	"strings"
	"testing"
)

// legacy_ask.go: "What a revision can carry is converted; what it cannot is
// refused with -32603 naming the part and the revision ... (nothing the
// client cannot read is sent)". A sampling message whose content is an
// empty array (2026-07-28's SamplingMessage.content allows any array of
// blocks) cannot be carried by 2025-06-18 and earlier (one block per
// message). It is neither converted nor refused: the message silently
// disappears from the request, and the client samples a different
// conversation than the handler asked for.
func TestAttackLegacySamplingEmptyContentMessageNotDropped(t *testing.T) {
	for _, version := range []string{"2024-11-05", "2025-03-26", "2025-06-18"} {
		params := map[string]json.RawMessage{
			"messages":  json.RawMessage(`[{"role":"user","content":[]},{"role":"assistant","content":{"type":"text","text":"hi"}}]`),
			"maxTokens": json.RawMessage(`10`),
		}
		err := legacySamplingParams(params, version)
		if err != nil {
			continue // refused: fine
		}
		if !strings.Contains(string(params["messages"]), `"user"`) {
			t.Errorf("%s: messages sent as %s: the user message is gone, without an error", version, params["messages"])
		}
	}
}
