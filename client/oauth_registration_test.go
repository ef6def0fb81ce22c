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
	loginAtAThenB(t, false)
}

// TestPreRegisteredSecretBindingSurvivesARestart: as
// TestPreRegisteredSecretIsNotSentToAnotherAuthorizationServer, but the
// client restarts between the two logins, keeping its TokenStore (which
// holds the registration of ClientID "svc" under authorization server A,
// and its binding to A). README: pre-registered ClientID is "bound to
// ClientIssuer or else to the first authorization server it is used with
// and never shown to another"; client-registration.mdx (Authorization
// Server Binding): "clients MUST NOT reuse client credentials from a
// different authorization server". A binding kept only in memory would
// let the first authorization server the (possibly hostile) resource
// metadata names after a restart get the secret.
func TestPreRegisteredSecretBindingSurvivesARestart(t *testing.T) {
	loginAtAThenB(t, true)
}

// loginAtAThenB logs a pre-registered client in through authorization
// server A, then (after a restart, with the same store, when restart is
// set) through B, which the resource's metadata now names, and fails t
// if B was shown the secret or the second login reported no error.
func loginAtAThenB(t *testing.T, restart bool) {
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
	store := &MemoryStore{} // stands for a TokenStore that outlives the process (a file, a keychain)
	run := func() *OAuth {
		return &OAuth{ClientID: "svc", ClientSecret: "secret-registered-at-A", ClientCredentials: true, Store: store}
	}
	o := run()
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
	if restart {
		o = run() // the client was restarted meanwhile: the same store, a new OAuth
	}
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

// TestMemoryStoreKeepsTheFirstBinding: BindClient binds a client ID once;
// a later issuer gets the first one back, and another client ID binds on
// its own.
func TestMemoryStoreKeepsTheFirstBinding(t *testing.T) {
	var m MemoryStore
	if got := m.BindClient("svc", "https://a.example"); got != "https://a.example" {
		t.Fatalf("first binding: got %q", got)
	}
	if got := m.BindClient("svc", "https://b.example"); got != "https://a.example" {
		t.Fatalf("a second issuer rebound the client ID: got %q, want the first, https://a.example", got)
	}
	if got := m.BindClient("other", "https://b.example"); got != "https://b.example" {
		t.Fatalf("another client ID: got %q", got)
	}
}

// TestClientIssuerOverridesAStoredBinding: ClientIssuer names the
// authorization server the credentials are for, whatever the store bound
// them to in an earlier run (OAuth.ClientIssuer's doc).
func TestClientIssuerOverridesAStoredBinding(t *testing.T) {
	store := &MemoryStore{}
	store.BindClient("svc", "https://a.example")
	o := &OAuth{ClientID: "svc", ClientIssuer: "https://b.example", Store: store}
	if !o.preRegisteredAt("https://b.example") || o.preRegisteredAt("https://a.example") {
		t.Fatal("with ClientIssuer set, the credentials are for it alone")
	}
	o = &OAuth{ClientID: "svc", Store: store}
	if o.preRegisteredAt("https://b.example") || !o.preRegisteredAt("https://a.example") {
		t.Fatal("without ClientIssuer, the stored binding holds")
	}
}
