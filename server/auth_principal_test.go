package server

import (
	"context"
	"net/http"
	"testing"
)

// TestTokenNamingNoPrincipalIsRefused: a verified token whose TokenInfo
// names neither a subject nor a client (RFC 7662 makes both optional in an
// introspection answer) identifies no one: every such token would be one
// principal, sharing tasks, legacy sessions, requestState and limits. It
// is refused 401 invalid_token. Tokens naming only their clients are
// accepted, as distinct principals: one client's tasks and sessions are
// not another's.
func TestTokenNamingNoPrincipalIsRefused(t *testing.T) {
	v := tableVerifier{
		"token-of-nobody": {Issuer: "https://as.test", Scopes: []string{"mcp"}},
		"token-of-a":      {Issuer: "https://as.test", ClientID: "client-a", Scopes: []string{"mcp"}},
		"token-of-b":      {Issuer: "https://as.test", ClientID: "client-b", Scopes: []string{"mcp"}},
	}
	secret := NewTool(ToolInfo{Name: "secret", TaskSupport: TaskSupportRequired}, func(ctx context.Context, _ struct{}) (string, error) {
		return "A's secret", nil
	})
	srv := protectedServer(t, v, []Tool{secret})
	call := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"secret","arguments":{},"_meta":` + tasksMeta + `}}`
	resp, body := postWithToken(t, srv, call, "tools/call", "secret", "token-of-nobody")
	if resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("a token naming no principal: HTTP %d %v, want 401", resp.StatusCode, body)
	}
	if c := challenge(t, resp.Header.Get("WWW-Authenticate")); c["error"] != "invalid_token" {
		t.Errorf("challenge %v, want error=invalid_token", c)
	}

	_, body = postWithToken(t, srv, call, "tools/call", "secret", "token-of-a")
	res, _ := body["result"].(map[string]any)
	id, _ := res["taskId"].(string)
	if id == "" {
		t.Fatalf("no task: %v", body)
	}
	_, body = postWithToken(t, srv, `{"jsonrpc":"2.0","id":2,"method":"tasks/get","params":{"taskId":"`+id+`","_meta":`+tasksMeta+`}}`, "tasks/get", id, "token-of-b")
	if e, _ := body["error"].(map[string]any); e == nil || e["code"] != float64(-32602) {
		t.Errorf("client B's tasks/get of client A's task: %s, want -32602 (unknown task)", toJSON(body))
	}

	// A legacy session opened by client A is not client B's.
	sess := &lgHTTP{t: t, url: srv.URL + "/mcp"}
	hresp := sess.post(lgBody("1", "initialize", `{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}`), bearer("token-of-a")...)
	hresp.Body.Close()
	if sess.sid = hresp.Header.Get("Mcp-Session-Id"); hresp.StatusCode != 200 || sess.sid == "" {
		t.Fatalf("initialize: %d sid %q", hresp.StatusCode, sess.sid)
	}
	hresp = sess.post(lgBody("2", "tools/list", ""), bearer("token-of-b")...)
	hresp.Body.Close()
	if hresp.StatusCode != http.StatusForbidden {
		t.Errorf("client B in client A's legacy session: HTTP %d, want 403", hresp.StatusCode)
	}
}
