package server

import (
	"context"
	"encoding/json"
	"testing"
)

// meta2026 is the per-request _meta of a 2026-07-28 request.
const meta2026 = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}`

// rpcAt2026 sends method with params (members without braces, _meta added)
// and returns the decoded response.
func rpcAt2026(t *testing.T, s *Server, method, params string) (result map[string]any, code int64, body string) {
	t.Helper()
	p := "{" + meta2026
	if params != "" {
		p += "," + params
	}
	p += "}"
	resp := s.HandleBytes(context.Background(), []byte(`{"jsonrpc":"2.0","id":1,"method":"`+method+`","params":`+p+`}`), nil)
	var r struct {
		Result map[string]any `json:"result"`
		Error  *struct {
			Code int64 `json:"code"`
		} `json:"error"`
	}
	if err := json.Unmarshal(resp.Body, &r); err != nil {
		t.Fatalf("%s: %v", resp.Body, err)
	}
	if r.Error != nil {
		return nil, r.Error.Code, string(resp.Body)
	}
	return r.Result, 0, string(resp.Body)
}
