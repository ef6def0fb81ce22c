package client

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sync/atomic"
	"testing"
	"time"
)

// TestAttackStoredTokenNeverUsed: the TokenStore (a persistent one, as
// OAuth.DPoPKey's doc describes: "A Store that keeps DPoP tokens across
// processes") holds a registration and a valid access token for the
// server's authorization server, from an earlier run. The new OAuth sends
// its first request without any token (it presents a token only once it
// has logged in itself), and on the 401 it never looks at the stored
// access token: with no refresh token it sends the user through the
// authorization flow again. README: "registrations and tokens live in a
// pluggable TokenStore, per issuer" — a stored, valid token should be
// presented before the user is asked to authorize again.
func TestAttackStoredTokenNeverUsed(t *testing.T) {
	mux := http.NewServeMux()
	srv := httptest.NewServer(mux)
	defer srv.Close()
	mux.HandleFunc("/mcp", func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer stored-token" {
			w.Header().Set("WWW-Authenticate", `Bearer resource_metadata="`+srv.URL+`/.well-known/oauth-protected-resource/mcp"`)
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		// Logged in: this test only cares that the stored token was presented.
		w.Header().Set("Content-Type", "application/json")
		http.Error(w, `{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"no"}}`, http.StatusNotFound)
	})
	mux.HandleFunc("/.well-known/oauth-protected-resource/mcp", func(w http.ResponseWriter, r *http.Request) {
		_ = json.NewEncoder(w).Encode(map[string]any{"resource": srv.URL + "/mcp", "authorization_servers": []string{srv.URL}})
	})
	mux.HandleFunc("/.well-known/oauth-authorization-server", func(w http.ResponseWriter, r *http.Request) {
		_ = json.NewEncoder(w).Encode(map[string]any{"issuer": srv.URL, "authorization_endpoint": srv.URL + "/authorize",
			"token_endpoint": srv.URL + "/token", "response_types_supported": []string{"code"}, "code_challenge_methods_supported": []string{"S256"}})
	})
	store := &MemoryStore{}
	store.SaveRegistration(srv.URL, &Registration{ClientID: "c1", AuthMethod: "none"})
	store.SaveToken(srv.URL, srv.URL+"/mcp", &Token{AccessToken: "stored-token", TokenType: "Bearer", Expiry: time.Now().Add(time.Hour)})
	var authorizations atomic.Int32
	o := &OAuth{RedirectURL: "http://127.0.0.1:1/cb", Store: store,
		Authorize: func(ctx context.Context, u string) (*url.URL, error) {
			authorizations.Add(1)
			return nil, errors.New("the user is not here")
		}}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	c, err := Connect(ctx, OAuthHTTP(srv.URL+"/mcp", o), nil)
	if err == nil {
		c.Close()
	}
	if n := authorizations.Load(); n > 0 {
		t.Fatalf("the user was sent to authorize %d time(s) though the store holds a valid token for %s (connect: %v)", n, srv.URL, err)
	}
}
