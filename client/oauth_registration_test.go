package client

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestPreRegisteredSecretIsNotSentToAnotherAuthorizationServer: a client
// pre-registered (ClientID + ClientSecret, ClientIssuer empty) logs in
// through authorization server A. Then the server's Protected Resource
// Metadata names another authorization server, B (a migration — or
// metadata an attacker controls). The credentials are bound to A, the
// first server they were used with: B (which offers no registration) is
// never shown the secret, and the login fails with an error.
// client-registration.mdx (Authorization Server Binding): "clients MUST
// NOT reuse client credentials from a different authorization server" and
// "SHOULD surface an error rather than silently attempting to use
// mismatched credentials".
func TestPreRegisteredSecretIsNotSentToAnotherAuthorizationServer(t *testing.T) {
	newAS := func(secrets *[]string, mu *sync.Mutex) *httptest.Server {
		mux := http.NewServeMux()
		as := httptest.NewServer(mux)
		mux.HandleFunc("/.well-known/oauth-authorization-server", func(w http.ResponseWriter, r *http.Request) {
			_ = json.NewEncoder(w).Encode(map[string]any{"issuer": as.URL, "token_endpoint": as.URL + "/token",
				"response_types_supported": []string{"code"}, "token_endpoint_auth_methods_supported": []string{"client_secret_basic", "client_secret_post"}})
		})
		mux.HandleFunc("/token", func(w http.ResponseWriter, r *http.Request) {
			_ = r.ParseForm()
			_, secret, _ := r.BasicAuth()
			if secret == "" {
				secret = r.PostForm.Get("client_secret")
			}
			mu.Lock()
			*secrets = append(*secrets, secret)
			mu.Unlock()
			_ = json.NewEncoder(w).Encode(map[string]any{"access_token": "tok-" + strings.TrimPrefix(as.URL, "http://127.0.0.1:"), "token_type": "Bearer"})
		})
		return as
	}
	var mu sync.Mutex
	var atA, atB []string
	asA, asB := newAS(&atA, &mu), newAS(&atB, &mu)
	defer asA.Close()
	defer asB.Close()
	var current atomic.Pointer[string]
	a := asA.URL
	current.Store(&a)
	mux := http.NewServeMux()
	srv := httptest.NewServer(mux)
	defer srv.Close()
	mux.HandleFunc("/mcp", func(w http.ResponseWriter, r *http.Request) {
		want := "Bearer tok-" + strings.TrimPrefix(*current.Load(), "http://127.0.0.1:")
		if r.Header.Get("Authorization") != want {
			w.Header().Set("WWW-Authenticate", `Bearer resource_metadata="`+srv.URL+`/.well-known/oauth-protected-resource/mcp"`)
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		http.Error(w, "ok", http.StatusTeapot)
	})
	mux.HandleFunc("/.well-known/oauth-protected-resource/mcp", func(w http.ResponseWriter, r *http.Request) {
		_ = json.NewEncoder(w).Encode(map[string]any{"resource": srv.URL + "/mcp", "authorization_servers": []string{*current.Load()}})
	})
	o := &OAuth{ClientID: "svc", ClientSecret: "secret-registered-at-A", ClientCredentials: true}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	login := func() error {
		c, err := Connect(ctx, OAuthHTTP(srv.URL+"/mcp", o), nil)
		if err == nil {
			c.Close()
		}
		return err
	}
	_ = login()
	mu.Lock()
	nA := len(atA)
	mu.Unlock()
	if nA == 0 {
		t.Fatal("no login at A")
	}
	b := asB.URL
	current.Store(&b) // the resource now names B
	err := login()
	mu.Lock()
	defer mu.Unlock()
	for _, s := range atB {
		if s == "secret-registered-at-A" {
			t.Fatalf("the client secret pre-registered at %s was sent to the new authorization server %s (login: %v)", asA.URL, asB.URL, err)
		}
	}
	if err == nil {
		t.Fatalf("the login through %s, which the pre-registered credentials are not for, reported no error", asB.URL)
	}
}
