package server

import (
	"io"
	"strings"
	"testing"
)

// Attack tests: tasks and legacy (initialize-era) HTTP sessions.

// TestAttackLegacy20250326SessionAcceptsBatch: a session that negotiated
// 2025-03-26 speaks that revision, whose JSONRPCMessage includes
// JSONRPCBatchRequest (schema/2025-03-26/schema.json, "A JSON-RPC batch
// request"; that revision's basic/index: implementations MUST support
// receiving batches). README (Compatibility): an initialize starts a
// session "at the version the client asks for among 2025-11-25,
// 2025-06-18, 2025-03-26, 2024-11-05". A batch of two requests in such a
// session is refused with 400 "batch requests are not supported".
func TestAttackLegacy20250326SessionAcceptsBatch(t *testing.T) {
	_, srv := startLegacyHTTP(t)
	c := &lgHTTP{t: t, url: srv.URL}
	resp := c.post(lgBody("1", "initialize", `{"protocolVersion":"2025-03-26","capabilities":{},"clientInfo":{"name":"old","version":"1"}}`),
		"MCP-Protocol-Version", "2025-03-26")
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(b), `"protocolVersion":"2025-03-26"`) {
		t.Fatalf("initialize 2025-03-26: %d %s", resp.StatusCode, b)
	}
	c.sid = resp.Header.Get("Mcp-Session-Id")
	r := c.post(`{"jsonrpc":"2.0","method":"notifications/initialized"}`, "MCP-Protocol-Version", "2025-03-26")
	r.Body.Close()
	resp = c.post(`[{"jsonrpc":"2.0","id":2,"method":"ping"},{"jsonrpc":"2.0","id":3,"method":"tools/list"}]`,
		"MCP-Protocol-Version", "2025-03-26")
	b, _ = io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(b), `"id":2`) || !strings.Contains(string(b), `"id":3`) || strings.Contains(string(b), `"error"`) {
		t.Errorf("batch of ping and tools/list in a 2025-03-26 session: %d %s; want both answered", resp.StatusCode, b)
	}
}
