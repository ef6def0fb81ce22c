package server

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/generated/mcp"
)

// A progressToken of 1e2 (or 1.0) is an integer by the schema's
// ProgressToken ("type": ["string","integer"]; JSON Schema counts any
// number with a zero fraction as an integer) and the generated
// mcp.ProgressToken decoder takes it (Value 100), as the README says
// integers are read everywhere ("an integer is any number with a zero
// fraction, `1.0` and `1e2` too, as in JSON Schema"). The core's _meta
// check refuses the whole request instead with -32602 "must be a string
// or an integer": two readers of one message disagree, and a client that
// asked for progress got no answer at all. Now both take it, and the
// progress notifications echo the token as the client wrote it.
func TestProgressTokenIntegerSpellingsAreIntegers(t *testing.T) {
	f := newFixture(t)
	for _, tok := range []string{`1e2`, `100.0`} {
		var p mcp.ProgressToken
		if err := json.Unmarshal([]byte(tok), &p); err != nil {
			t.Fatalf("precondition: the generated decoder refuses %s: %v", tok, err)
		}
		meta := `{"progressToken":` + tok + `,"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}`
		w := newRecorder()
		r, _ := rpcMeta(t, f.s, "tools/call", `{"name":"progress","arguments":{}}`, meta, w)
		if r.Error != nil {
			t.Errorf("progressToken %s: error %d %q; want the call answered with progress", tok, r.Error.Code, r.Error.Message)
			continue
		}
		w.mu.Lock()
		notes := w.notes
		w.mu.Unlock()
		if len(notes) == 0 {
			t.Errorf("progressToken %s: no progress notification", tok)
		}
		for _, n := range notes {
			if n.Method == "notifications/progress" && !strings.Contains(string(n.Params), `"progressToken":`+tok+`,`) {
				t.Errorf("progressToken %s: notification %s does not echo it unchanged", tok, n.Params)
			}
		}
	}
}
