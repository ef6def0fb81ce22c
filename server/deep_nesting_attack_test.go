package server

import (
	"encoding/json"
	"strings"
	"testing"
)

// README "Limits and shutdown": "Tool arguments nest at most 512 levels
// ... beyond that the call gets the validation error as an isError result
// naming the value's JSON pointer." Arguments nested 600 deep get that
// result; nested 10001 deep (still valid JSON, well under the 4 MiB body
// limit) the whole message is answered -32700 Parse error without an id,
// although the request is valid JSON whose id is plainly readable
// (basic/index.mdx: error responses MUST include the same ID as the request,
// except where the ID could not be read due to a malformed request).
func TestAttackDeepArgumentsKeepIDAndIsError(t *testing.T) {
	f := newFixture(t)
	const d = 10001
	args := `{"text":"x","deep":` + strings.Repeat("[", d) + strings.Repeat("]", d) + `}`
	msg := `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":` + withMeta(`{"name":"echo","arguments":`+args+`}`, defaultMeta) + `}`
	_, resp := rawRPC(t, f.s, msg, nil)
	var r struct {
		ID     json.RawMessage `json:"id"`
		Result *struct {
			IsError bool `json:"isError"`
		} `json:"result"`
		Error *struct {
			Code int64 `json:"code"`
		} `json:"error"`
	}
	if err := json.Unmarshal(resp.Body, &r); err != nil {
		t.Fatalf("response %s: %v", resp.Body, err)
	}
	if string(r.ID) != "3" {
		t.Errorf("response to id 3 carries id %s: %s", r.ID, resp.Body)
	}
	if r.Result == nil || !r.Result.IsError {
		t.Errorf("arguments nested %d deep: want an isError result (README), got %s", d, resp.Body)
	}
}
