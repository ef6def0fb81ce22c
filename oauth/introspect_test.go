package oauth

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/server"
)

// TestIntrospectionRefusesTokenBeforeNotBefore: the introspection
// response says the token is active, for this audience, unexpired, but
// not to be used before an hour from now (RFC 7662 §2.2 "nbf"). It is
// refused with server.ErrInvalidToken, as the JWT verifier refuses such a
// token: server.TokenVerifier's contract (server/auth.go) "MUST check
// that the token is valid now (signature or introspection, expiry,
// not-before)".
func TestIntrospectionRefusesTokenBeforeNotBefore(t *testing.T) {
	const iss, aud = "https://as.example", "https://mcp.example/mcp"
	now := time.Now()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{"active": true, "iss": iss, "aud": aud, "sub": "alice",
			"scope": "mcp", "exp": now.Add(2 * time.Hour).Unix(), "nbf": now.Add(time.Hour).Unix()})
	}))
	defer srv.Close()
	v, err := NewIntrospectionVerifier(context.Background(), IntrospectionConfig{Issuer: iss, Audience: aud,
		ClientID: "rs", ClientSecret: "s", IntrospectionURL: srv.URL + "/introspect", TokenURL: srv.URL + "/token", CacheTTL: -1})
	if err != nil {
		t.Fatal(err)
	}
	info, err := v.VerifyToken(context.Background(), "opaque-token")
	if err == nil {
		t.Fatalf("a token not valid before %s accepted now (subject %q)", now.Add(time.Hour).Format(time.RFC3339), info.Subject)
	}
	if !errors.Is(err, server.ErrInvalidToken) {
		t.Fatalf("err = %v, want one wrapping server.ErrInvalidToken", err)
	}
}
