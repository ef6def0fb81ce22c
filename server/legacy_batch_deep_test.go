package server

import (
	"io"
	"strings"
	"testing"
)

// deepValue is an array nested d levels.
func deepValue(d int) string { return strings.Repeat("[", d) + strings.Repeat("]", d) }

// README "Limits and shutdown": "a message nested past encoding/json's
// limit of 10 000 levels is still one JSON value whose id is read ... not a
// -32700 without an id"; and a 2025-03-26 batch runs "each request through
// the limits like a request of its own" (README, legacy era). A ping whose
// params hold a value nested 10 001 deep is answered {} alone; inside a
// batch line the whole batch is refused with -32700 "the batch is not
// valid JSON" and no id (splitBatch's json.Unmarshal keeps encoding/json's
// nesting limit), so the ping's answer and the other request's are lost.
func TestStdioBatchedDeepRequestIsAnsweredWithItsID(t *testing.T) {
	_, p, next := startBatchSession(t)
	req := `{"jsonrpc":"2.0","id":3,"method":"ping","params":{"deep":` + deepValue(10001) + `}}`
	p.send(req)
	if l := next("the single deep ping"); !strings.Contains(l, `"id":3`) || !strings.Contains(l, `"result":{}`) {
		t.Fatalf("single deep ping: %.300s (the reference verdict changed)", l)
	}
	p.send(`[` + req + `,{"jsonrpc":"2.0","id":4,"method":"ping"}]`)
	l := next("the batch")
	if !strings.HasPrefix(l, "[") || !strings.Contains(l, `"id":3`) || !strings.Contains(l, `"id":4`) || strings.Contains(l, "-32700") {
		t.Errorf("a batch holding a request nested 10 001 deep: want each answered with its id as alone, got %.300s", l)
	}
}

// The same batch POSTed to a 2025-03-26 HTTP session: 400 -32700 for the
// whole POST, where the ping alone is answered {} with its id.
func TestLegacyHTTPBatchedDeepRequestIsAnsweredWithItsID(t *testing.T) {
	_, srv := startLegacyHTTP(t)
	c := openBatchSession(t, srv.URL, "2025-03-26")
	req := `{"jsonrpc":"2.0","id":3,"method":"ping","params":{"deep":` + deepValue(10001) + `}}`
	resp := c.post(req, "MCP-Protocol-Version", "2025-03-26")
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(string(b), `"id":3`) || !strings.Contains(string(b), `"result":{}`) {
		t.Fatalf("single deep ping: %d %.300s (the reference verdict changed)", resp.StatusCode, b)
	}
	resp = c.post(`[`+req+`,{"jsonrpc":"2.0","id":4,"method":"ping"}]`, "MCP-Protocol-Version", "2025-03-26")
	b, _ = io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(b), `"id":3`) || !strings.Contains(string(b), `"id":4`) {
		t.Errorf("HTTP batch holding a request nested 10 001 deep: want 200 and each answered with its id as alone, got %d %.300s", resp.StatusCode, b)
	}
}
