package oauth

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/server"
)

// TestScopeWithOtherWhitespaceRefusesToken: RFC 6749 §3.3: scope is
// "scope-token *( SP scope-token )", a list of space-delimited (%x20)
// strings, and a scope-token has no whitespace at all. The verifiers split
// "scope" with strings.Fields, which also splits on tab, NBSP, EM SPACE and
// every other Unicode space, so a scope string the authorization server
// meant as two tokens "mcp" and "read\u2003files:write" (or a single
// malformed token it let through) granted the principal "files:write", a
// scope it was never given, and the write_file tool (scopes=files:write)
// ran. Such a scope string is malformed: the token is now refused, 401
// invalid_token (not 403 insufficient_scope: the token is not read
// at all, rather than read one way here and another at the authorization
// server), by the JWT and the introspection verifier alike; the tool never
// runs. Spaces alone still separate, repeated ones too.
func TestScopeWithOtherWhitespaceRefusesToken(t *testing.T) {
	as := newJWKSAS(t)
	m := startMCP(t, as.verifier(t), testIssuer)
	malformed := []string{"mcp read\u2003files:write", "mcp read\tfiles:write", "mcp read\u00a0files:write"}
	for _, scope := range malformed {
		tok := as.sign(t, m.url, map[string]any{"scope": scope})
		before := m.runs.Load()
		status, challenge, body := m.call(t, "Bearer "+tok, "write_file")
		if status != http.StatusUnauthorized || !strings.Contains(challenge, "invalid_token") || m.runs.Load() != before {
			t.Errorf("scope %q: write_file (needs files:write) answered %d %q %v, handler ran %d time(s); want 401 invalid_token",
				scope, status, challenge, text(body), m.runs.Load()-before)
		}
	}
	tok := as.sign(t, m.url, map[string]any{"scope": " mcp  files:write "})
	if status, _, body := m.call(t, "Bearer "+tok, "write_file"); status != http.StatusOK {
		t.Errorf("scope %q: write_file answered %d %v, want 200", " mcp  files:write ", status, text(body))
	}

	// The introspection verifier reads the scope the same way.
	const aud = "https://mcp.example.test/mcp"
	for _, scope := range malformed {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			_ = json.NewEncoder(w).Encode(map[string]any{"active": true, "iss": testIssuer, "aud": aud, "sub": "alice",
				"scope": scope, "exp": time.Now().Add(time.Hour).Unix()})
		}))
		v, err := NewIntrospectionVerifier(context.Background(), IntrospectionConfig{Issuer: testIssuer, Audience: aud,
			ClientID: "rs", ClientSecret: "s", IntrospectionURL: srv.URL + "/introspect", TokenURL: srv.URL + "/token", CacheTTL: -1})
		if err != nil {
			t.Fatal(err)
		}
		info, err := v.VerifyToken(context.Background(), "opaque-token")
		if !errors.Is(err, server.ErrInvalidToken) {
			t.Errorf("introspected scope %q: err %v, scopes %q; want server.ErrInvalidToken", scope, err, scopesOf(info))
		}
		srv.Close()
	}
}

func scopesOf(info *server.TokenInfo) []string {
	if info == nil {
		return nil
	}
	return info.Scopes
}
