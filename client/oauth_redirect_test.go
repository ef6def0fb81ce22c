package client

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// oauthxServer is a protected MCP server that is its own authorization
// server (client_credentials): /mcp answers 401 with resource_metadata
// until a request carries a token, then authed serves it.
func oauthxServer(t *testing.T, authed http.HandlerFunc) *httptest.Server {
	t.Helper()
	mux := http.NewServeMux()
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	mux.HandleFunc("/mcp", func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") == "" {
			w.Header().Set("WWW-Authenticate", `Bearer resource_metadata="`+srv.URL+`/.well-known/oauth-protected-resource/mcp"`)
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		authed(w, r)
	})
	mux.HandleFunc("/.well-known/oauth-protected-resource/mcp", func(w http.ResponseWriter, r *http.Request) {
		_ = json.NewEncoder(w).Encode(map[string]any{"resource": srv.URL + "/mcp", "authorization_servers": []string{srv.URL}})
	})
	mux.HandleFunc("/.well-known/oauth-authorization-server", func(w http.ResponseWriter, r *http.Request) {
		_ = json.NewEncoder(w).Encode(map[string]any{"issuer": srv.URL, "token_endpoint": srv.URL + "/token",
			"response_types_supported": []string{"code"}, "token_endpoint_auth_methods_supported": []string{"client_secret_basic"}})
	})
	mux.HandleFunc("/token", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{"access_token": "tok-for-this-server", "token_type": "Bearer", "expires_in": 300})
	})
	return srv
}

// TestOAuthTokenIsNotSentAcrossOriginRedirect: once logged in, the MCP
// server answers 307 with a Location on another host. Go's http.Client
// drops an Authorization header it was given on a redirect to another
// domain, but OAuthHTTP's round tripper sees every hop: it must add the
// token (issued for this server, RFC 8707) only on the origin of the
// resource it was issued for. basic/authorization/ (Token Requirements,
// RFC 6750 §5.3, token audience restriction); README: OAuthHTTP's
// requests carry the token for url, not wherever url points.
func TestOAuthTokenIsNotSentAcrossOriginRedirect(t *testing.T) {
	var mu sync.Mutex
	var leaked []string
	evil := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		if a := r.Header.Get("Authorization"); a != "" {
			leaked = append(leaked, r.Host+": "+a)
		}
		mu.Unlock()
		http.Error(w, "nothing here", http.StatusNotFound)
	}))
	defer evil.Close()
	srv := oauthxServer(t, func(w http.ResponseWriter, r *http.Request) {
		// Another host name, not only another port: localhost, not 127.0.0.1.
		http.Redirect(w, r, strings.Replace(evil.URL, "127.0.0.1", "localhost", 1)+"/collect", http.StatusTemporaryRedirect)
	})
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	o := &OAuth{ClientID: "svc", ClientSecret: "s", ClientCredentials: true}
	c, err := Connect(ctx, OAuthHTTP(srv.URL+"/mcp", o), nil)
	if err == nil {
		c.Close()
	}
	mu.Lock()
	defer mu.Unlock()
	for _, a := range leaked {
		if strings.Contains(a, "tok-for-this-server") {
			t.Fatalf("the access token for %s/mcp was sent to another host after a redirect: %s", srv.URL, a)
		}
	}
}
