package server

import (
	"encoding/json"
	"strings"
	"testing"
	"time"
)

// README "Limits and shutdown": "Tool arguments nest at most 512 levels
// ... beyond that the call gets the validation error as an isError result
// naming the value's JSON pointer." That holds past encoding/json's nesting
// limit (jsonscan.MaxNesting, 10 000) too: the message is still one JSON
// value whose id is plainly readable (basic/index.mdx: error responses
// MUST include the same ID as the request, except where the ID could not be
// read), so it is no -32700 without an id — on every path alike.
func TestArgumentsNestedPastScannerLimitGetIsErrorWithID(t *testing.T) {
	f := newFixture(t)
	const d = 10001
	args := `{"text":"x","deep":` + strings.Repeat("[", d) + strings.Repeat("]", d) + `}`
	msg := `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":` + withMeta(`{"name":"echo","arguments":`+args+`}`, defaultMeta) + `}`
	check := func(path string, body []byte) {
		t.Helper()
		var r struct {
			ID     json.RawMessage `json:"id"`
			Result *struct {
				IsError bool `json:"isError"`
			} `json:"result"`
		}
		if err := json.Unmarshal(body, &r); err != nil {
			t.Fatalf("%s: response %.200s: %v", path, body, err)
		}
		if string(r.ID) != "3" {
			t.Errorf("%s: response to id 3 carries id %s: %.200s", path, r.ID, body)
		}
		if r.Result == nil || !r.Result.IsError {
			t.Errorf("%s: arguments nested %d deep: want an isError result (README), got %.200s", path, d, body)
		}
	}

	_, resp := rawRPC(t, f.s, msg, nil)
	check("HandleBytes", resp.Body)

	p := startStdio(t, f.s, 0)
	p.send(msg)
	select {
	case line := <-p.lines:
		check("stdio", []byte(line))
	case <-time.After(3 * time.Second):
		t.Fatal("stdio: no answer")
	}

	w := post(f.s.HTTPHandler(HTTPOptions{}), msg, "MCP-Protocol-Version", "2026-07-28", "Mcp-Method", "tools/call", "Mcp-Name", "echo")
	check("HTTP", w.Body.Bytes())
}
