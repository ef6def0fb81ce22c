package server

import (
	"strings"
	"testing"
)

// README "Limits and shutdown": "Tool arguments nest at most 512 levels
// ... beyond that the call gets the validation error as an isError result
// ... at any depth: a message nested past encoding/json's limit of 10 000
// levels is still one JSON value whose id is read". In a legacy
// (initialize-era) session the call is re-encoded by encoding/json
// (modernParamsGeneral, formerly with marshalRaw) and answered -32603 "Internal error:
// json: error calling MarshalJSON for type json.RawMessage: ... exceeded
// max depth" instead; the modern era gives the isError result
// (TestArgumentsNestedPastScannerLimitGetIsErrorWithID).
func TestLegacySessionArgumentsNestedPastScannerLimitGetIsError(t *testing.T) {
	_, p, next := startBatchSession(t)
	p.send(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"echo","arguments":{"text":"x","deep":` + deepValue(10001) + `}}}`)
	l := next("the deep call")
	if !strings.Contains(l, `"id":3`) || !strings.Contains(l, `"isError":true`) {
		t.Errorf("legacy session, arguments nested 10 001 deep: want the isError result (README), got %.300s", l)
	}
}
