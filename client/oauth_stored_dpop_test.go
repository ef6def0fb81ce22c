package client

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sync"
	"testing"
	"time"
)

// TestStoredDPoPTokenIsNotPresentedWithoutDPoP: the store holds an
// unexpired DPoP token (kept by a run that had OAuth.DPoP set, say), but
// this OAuth does not ask for DPoP. README: "A token is used only if its
// token_type is Bearer (in any case) or, with DPoP, DPoP"; OAuth's doc: "a
// token is used only if it is a Bearer token, or a DPoP one with DPoP". The
// stored token must not be presented (with a proof signed by a key made up
// on the spot, which is not the one it is bound to): the client logs in
// anew, as for a token of a type it does not use.
func TestStoredDPoPTokenIsNotPresentedWithoutDPoP(t *testing.T) {
	mux := http.NewServeMux()
	srv := httptest.NewServer(mux)
	defer srv.Close()
	var mu sync.Mutex
	var presented []string
	mux.HandleFunc("/mcp", func(w http.ResponseWriter, r *http.Request) {
		if a := r.Header.Get("Authorization"); a != "" || r.Header.Get("DPoP") != "" {
			mu.Lock()
			presented = append(presented, a)
			mu.Unlock()
		}
		w.Header().Set("WWW-Authenticate", `Bearer resource_metadata="`+srv.URL+`/.well-known/oauth-protected-resource/mcp"`)
		w.WriteHeader(http.StatusUnauthorized)
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
	store.SaveToken(srv.URL, srv.URL+"/mcp", &Token{AccessToken: "stored-dpop-token", TokenType: "DPoP", Expiry: time.Now().Add(time.Hour)})
	o := &OAuth{RedirectURL: "http://127.0.0.1:1/cb", Store: store, // DPoP not set
		Authorize: func(ctx context.Context, u string) (*url.URL, error) {
			return nil, errors.New("the user is not here")
		}}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if c, err := Connect(ctx, OAuthHTTP(srv.URL+"/mcp", o), nil); err == nil {
		c.Close()
	}
	mu.Lock()
	defer mu.Unlock()
	if len(presented) > 0 {
		t.Fatalf("without OAuth.DPoP the stored DPoP token was presented: Authorization %q", presented)
	}
}
