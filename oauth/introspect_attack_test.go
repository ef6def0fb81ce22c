package oauth

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/server"
)

// TestAttackIntrospectionNullResponse: the introspection endpoint answers
// 200 with the JSON body "null" (a broken or hostile endpoint; RFC 7662
// §2.2 requires a JSON object with "active"). VerifyToken must refuse the
// token with an error; it panics with a nil pointer dereference instead
// (rs.Introspect[*oidc.IntrospectionResponse] decodes "null" into a nil
// *IntrospectionResponse without error, and introspect reads resp.Active).
// Behind server.Auth the panic kills the request (net/http's recovery
// drops the connection: no 401, no challenge). README: a token the
// verifier refuses is 401 invalid_token; the preamble's "never a panic".
func TestAttackIntrospectionNullResponse(t *testing.T) {
	const aud = "https://mcp.attack.test/mcp"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`null`))
	}))
	defer srv.Close()
	v, err := NewIntrospectionVerifier(context.Background(), IntrospectionConfig{Issuer: atkIssuer, Audience: aud,
		ClientID: "rs", ClientSecret: "s", IntrospectionURL: srv.URL + "/introspect", TokenURL: srv.URL + "/token"})
	if err != nil {
		t.Fatal(err)
	}
	var verr error
	func() {
		defer func() {
			if r := recover(); r != nil {
				t.Fatalf("VerifyToken panicked on an introspection response of null: %v", r)
			}
		}()
		_, verr = v.VerifyToken(context.Background(), "opaque-token")
	}()
	if verr == nil {
		t.Fatal("a token accepted on an introspection response of null")
	}
	_ = errors.Is(verr, server.ErrInvalidToken) // a failed call need not wrap it (README: "returned as it is (also answered 401)")
}

// TestAttackIntrospectionNullResponseOverHTTP: the same null answer behind
// server.Auth. README: a token the verifier refuses is 401 invalid_token
// with a WWW-Authenticate challenge (IntrospectionVerifier.VerifyToken: "a
// failed call to the endpoint is returned as it is (also answered 401)").
// The panic instead aborts the request: the client gets no response at
// all.
func TestAttackIntrospectionNullResponseOverHTTP(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`null`))
	}))
	defer srv.Close()
	var m *mcpServer
	m = startMCP(t, func(resource string) server.TokenVerifier {
		v, err := NewIntrospectionVerifier(context.Background(), IntrospectionConfig{Issuer: atkIssuer, Audience: resource,
			ClientID: "rs", ClientSecret: "s", IntrospectionURL: srv.URL + "/introspect", TokenURL: srv.URL + "/token"})
		if err != nil {
			t.Fatal(err)
		}
		return v
	}, atkIssuer)
	req, _ := http.NewRequest(http.MethodPost, m.url, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{}}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("MCP-Protocol-Version", "2026-07-28")
	req.Header.Set("Mcp-Method", "tools/list")
	req.Header.Set("Authorization", "Bearer opaque-token")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("no response to a request whose token the introspection endpoint answered null: %v", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized || !strings.Contains(resp.Header.Get("WWW-Authenticate"), "invalid_token") {
		t.Fatalf("status %d, WWW-Authenticate %q; want 401 invalid_token", resp.StatusCode, resp.Header.Get("WWW-Authenticate"))
	}
}
