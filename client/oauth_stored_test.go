package client

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestStoredTokenIsPresentedBeforeReauthorizing: the TokenStore (a
// persistent one, as OAuth.DPoPKey's doc describes: "A Store that keeps
// DPoP tokens across processes") holds a registration and a valid access
// token for the server's authorization server and resource, from an
// earlier run. The first request goes without a token (the issuer is
// known only after discovery); on its 401 the client presents the stored
// token rather than sending the user through the authorization flow
// again. README: "registrations and tokens live in a pluggable TokenStore".
func TestStoredTokenIsPresentedBeforeReauthorizing(t *testing.T) {
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

// TestStaleStoredTokenFallsBackToLogin: the stored token from an earlier
// run is unexpired by its Expiry but the server refuses it (revoked). The
// request that tried it is challenged once more and the client logs in
// as if the store held none: Connect succeeds with a new token.
func TestStaleStoredTokenFallsBackToLogin(t *testing.T) {
	var tokenRequests atomic.Int32
	mux := http.NewServeMux()
	srv := httptest.NewServer(mux)
	defer srv.Close()
	mux.HandleFunc("/mcp", func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer fresh-token" {
			w.Header().Set("WWW-Authenticate", `Bearer resource_metadata="`+srv.URL+`/.well-known/oauth-protected-resource/mcp"`)
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		http.Error(w, "logged in", http.StatusTeapot)
	})
	mux.HandleFunc("/.well-known/oauth-protected-resource/mcp", func(w http.ResponseWriter, r *http.Request) {
		_ = json.NewEncoder(w).Encode(map[string]any{"resource": srv.URL + "/mcp", "authorization_servers": []string{srv.URL}})
	})
	mux.HandleFunc("/.well-known/oauth-authorization-server", func(w http.ResponseWriter, r *http.Request) {
		_ = json.NewEncoder(w).Encode(map[string]any{"issuer": srv.URL, "token_endpoint": srv.URL + "/token", "response_types_supported": []string{"code"}})
	})
	mux.HandleFunc("/token", func(w http.ResponseWriter, r *http.Request) {
		tokenRequests.Add(1)
		_ = json.NewEncoder(w).Encode(map[string]any{"access_token": "fresh-token", "token_type": "Bearer"})
	})
	store := &MemoryStore{}
	store.SaveToken(srv.URL, srv.URL+"/mcp", &Token{AccessToken: "revoked-token", TokenType: "Bearer", Expiry: time.Now().Add(time.Hour)})
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	o := &OAuth{ClientID: "svc", ClientSecret: "s", ClientCredentials: true, Store: store}
	tr := OAuthHTTP(srv.URL+"/mcp", o)
	_, err := Connect(ctx, tr, nil)
	if tokenRequests.Load() != 1 {
		t.Fatalf("%d token requests after the stored token was refused, want 1 (connect: %v)", tokenRequests.Load(), err)
	}
	if tok := store.Token(srv.URL, srv.URL+"/mcp"); tok == nil || tok.AccessToken != "fresh-token" {
		t.Fatalf("stored token after the login: %+v", tok)
	}
	if err == nil || !strings.Contains(err.Error(), "418") {
		t.Fatalf("connect: %v (want the logged-in request's answer, HTTP 418)", err)
	}
}

// TestStoredTokenWithoutTypeIsNotPresented: the store holds an unexpired
// token with no token_type, as one kept by an earlier build or a store
// that does not persist TokenType. It may be a DPoP-bound token (RFC
// 9449), and the client sent it as "Bearer <token>", with no proof: a
// sender-constrained token used as a bearer one, accepted by any resource
// server that does not check the binding. RFC 6749 §7.1: a client MUST
// NOT use a token whose type it does not understand. The token is never
// presented: the client refreshes it (whose answer names the type) when it
// can, else logs in.
func TestStoredTokenWithoutTypeIsNotPresented(t *testing.T) {
	for _, refreshToken := range []string{"", "refresh-1"} {
		t.Run("refresh_token="+refreshToken, func(t *testing.T) {
			a := newHostileAS(t)
			var presented sync.Map
			a.mcp = func(w http.ResponseWriter, r *http.Request) {
				if auth := r.Header.Get("Authorization"); auth != "" {
					presented.Store(auth, true)
				}
				if r.Header.Get("Authorization") != "Bearer tok-1" {
					a.challenge401(w)
					return
				}
				a.ok(w)
			}
			o := a.oauth()
			o.Store = &MemoryStore{}
			o.Store.SaveRegistration(a.srv.URL, &Registration{ClientID: "c1", AuthMethod: "none"})
			o.Store.SaveToken(a.srv.URL, a.srv.URL+"/mcp", &Token{AccessToken: "untyped-token", RefreshToken: refreshToken,
				Expiry: time.Now().Add(time.Hour)})
			if err := hostileCall(OAuthHTTP(a.srv.URL+"/mcp", o)); err != nil {
				t.Fatalf("call: %v", err)
			}
			presented.Range(func(k, _ any) bool {
				if strings.Contains(k.(string), "untyped-token") {
					t.Errorf("the stored token without a token_type was presented as %q", k)
				}
				return true
			})
			a.mu.Lock()
			defer a.mu.Unlock()
			if refreshToken != "" && (len(a.tokenReqs) != 1 || a.tokenReqs[0].Get("grant_type") != "refresh_token") {
				t.Errorf("token requests %v, want one refresh", a.tokenReqs)
			}
		})
	}
}
