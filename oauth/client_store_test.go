package oauth

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/client"
	"github.com/mcpgen/mcpgen/server"
)

// tokFor is the token audienceAS issues for resource.
func tokFor(resource string) string {
	return "tok." + base64.RawURLEncoding.EncodeToString([]byte(resource))
}

// audienceAS is a client_credentials authorization server whose tokens
// name the RFC 8707 resource they were asked for (tokFor).
func audienceAS(t *testing.T) *httptest.Server {
	mux := http.NewServeMux()
	as := httptest.NewServer(mux)
	t.Cleanup(as.Close)
	mux.HandleFunc("/.well-known/oauth-authorization-server", func(w http.ResponseWriter, r *http.Request) {
		_ = json.NewEncoder(w).Encode(map[string]any{"issuer": as.URL, "token_endpoint": as.URL + "/token",
			"response_types_supported": []string{"code"}, "token_endpoint_auth_methods_supported": []string{"client_secret_basic"}})
	})
	mux.HandleFunc("/token", func(w http.ResponseWriter, r *http.Request) {
		_ = r.ParseForm()
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{"access_token": tokFor(r.PostForm.Get("resource")), "token_type": "Bearer", "expires_in": 300})
	})
	return as
}

// audienceServer is an mcpgen server at <url>/mcp that accepts only
// tokens for itself and records every token it was shown.
func audienceServer(t *testing.T, as string) (url string, seen func() []string) {
	s, err := server.New(server.Options{Name: "p", Version: "1",
		Tools: []server.Tool{server.NewTool(server.ToolInfo{Name: "whoami"}, func(ctx context.Context, _ struct{}) (string, error) {
			return server.Principal(ctx).Subject, nil
		})}})
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	hs := httptest.NewServer(mux)
	t.Cleanup(hs.Close)
	url = hs.URL + "/mcp"
	var mu sync.Mutex
	var tokens []string
	auth, err := server.NewAuth(server.AuthOptions{Resource: url, AuthorizationServers: []string{as},
		Verifier: server.TokenVerifierFunc(func(ctx context.Context, tok string) (*server.TokenInfo, error) {
			mu.Lock()
			tokens = append(tokens, tok)
			mu.Unlock()
			if tok != tokFor(url) {
				return nil, server.ErrInvalidToken
			}
			return &server.TokenInfo{Subject: "svc", Expiry: time.Now().Add(time.Minute)}, nil
		})})
	if err != nil {
		t.Fatal(err)
	}
	auth.Mount(mux)
	mux.Handle("/mcp", s.HTTPHandler(server.HTTPOptions{Auth: auth}))
	return url, func() []string {
		mu.Lock()
		defer mu.Unlock()
		return append([]string(nil), tokens...)
	}
}

// TestSharedStoreShowsEachServerOnlyItsOwnToken: two MCP servers behind one
// authorization server (a company IdP), and one TokenStore for both
// clients (a persistent store, as OAuth.DPoPKey's doc has in mind). The
// store keys tokens by issuer and resource, so server A is never shown
// the token issued for server B (RFC 8707; security-considerations "Token
// Audience Binding and Validation": a server given another's token could
// replay it there).
func TestSharedStoreShowsEachServerOnlyItsOwnToken(t *testing.T) {
	as := audienceAS(t)
	urlA, seenA := audienceServer(t, as.URL)
	urlB, _ := audienceServer(t, as.URL)
	store := &client.MemoryStore{}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	connect := func(url string) *client.Client {
		c, err := client.Connect(ctx, client.OAuthHTTP(url, &client.OAuth{ClientID: "svc", ClientSecret: "s", ClientCredentials: true, Store: store}), nil)
		if err != nil {
			t.Fatalf("connect %s: %v", url, err)
		}
		t.Cleanup(func() { c.Close() })
		return c
	}
	ca := connect(urlA)
	connect(urlB)
	_, _ = ca.Call(ctx, "tools/call", map[string]any{"name": "whoami", "arguments": map[string]any{}})
	for _, tok := range seenA() {
		if tok == tokFor(urlB) {
			t.Fatalf("server A (%s) was shown the access token issued for server B (%s): %q", urlA, urlB, tok)
		}
	}
}
