package oauth

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/client"
	"github.com/mcpgen/mcpgen/server"
)

// stepUpFixture is a protected server with a tool needing files:write
// (ScopesSupported "mcp"), its client_credentials authorization server
// (no refresh tokens), and a connected client; expire makes every token
// issued so far invalid.
func stepUpFixture(t *testing.T) (call func() error, expire func()) {
	var gen atomic.Int64
	mux := http.NewServeMux()
	as := httptest.NewServer(mux)
	t.Cleanup(as.Close)
	mux.HandleFunc("/.well-known/oauth-authorization-server", func(w http.ResponseWriter, r *http.Request) {
		_ = json.NewEncoder(w).Encode(map[string]any{"issuer": as.URL, "token_endpoint": as.URL + "/token",
			"response_types_supported": []string{"code"}, "token_endpoint_auth_methods_supported": []string{"client_secret_basic"}})
	})
	mux.HandleFunc("/token", func(w http.ResponseWriter, r *http.Request) {
		_ = r.ParseForm()
		tok := base64.RawURLEncoding.EncodeToString([]byte(fmt.Sprint(gen.Load()) + "|" + r.PostForm.Get("scope")))
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{"access_token": tok, "token_type": "Bearer", "expires_in": 300, "scope": r.PostForm.Get("scope")})
	})
	s, err := server.New(server.Options{Name: "p", Version: "1",
		Tools: []server.Tool{server.NewTool(server.ToolInfo{Name: "write", Scopes: []string{"files:write"}}, func(ctx context.Context, _ struct{}) (string, error) {
			return "written", nil
		})}})
	if err != nil {
		t.Fatal(err)
	}
	rmux := http.NewServeMux()
	rs := httptest.NewServer(rmux)
	t.Cleanup(rs.Close)
	auth, err := server.NewAuth(server.AuthOptions{Resource: rs.URL + "/mcp", AuthorizationServers: []string{as.URL}, ScopesSupported: []string{"mcp"},
		Verifier: server.TokenVerifierFunc(func(ctx context.Context, tok string) (*server.TokenInfo, error) {
			raw, err := base64.RawURLEncoding.DecodeString(tok)
			g, scope, ok := strings.Cut(string(raw), "|")
			if err != nil || !ok || g != fmt.Sprint(gen.Load()) {
				return nil, server.ErrInvalidToken // expired
			}
			return &server.TokenInfo{Subject: "svc", Scopes: strings.Fields(scope)}, nil
		})})
	if err != nil {
		t.Fatal(err)
	}
	auth.Mount(rmux)
	rmux.Handle("/mcp", s.HTTPHandler(server.HTTPOptions{Auth: auth}))

	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	t.Cleanup(cancel)
	c, err := client.Connect(ctx, client.OAuthHTTP(rs.URL+"/mcp", &client.OAuth{ClientID: "svc", ClientSecret: "s", ClientCredentials: true}), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	call = func() error {
		_, err := c.Call(ctx, "tools/call", map[string]any{"name": "write", "arguments": map[string]any{}})
		return err
	}
	return call, func() { gen.Add(1) }
}

// TestAttackStepUpCounterNeverResets: a client_credentials client (no
// refresh token, as usual for that grant) whose tokens expire from time to
// time. Each time, the 401 re-login asks for the challenge's scope ("mcp")
// and the next call of the tool needing "files:write" steps up to
// "mcp files:write" — successfully, every time. But the client counts
// step-ups per scope set for its whole life and never forgets a
// successful one: from the third expiry on, the step-up is refused with
// ErrInsufficientScope without asking the authorization server, though
// it would grant the scopes as it did before. README/oauth.go:
// "ErrInsufficientScope is returned (wrapped) when a step-up cannot help:
// the server still refuses after re-authorization" — here it helped each
// time. basic/authorization/ (Step-Up Authorization Flow): the retry limit
// is per operation ("Retry the original request with the new
// authorization no more than a few times"), "to avoid repeated failures
// for the same resource and operation combination" — not successes.
func TestAttackStepUpCounterNeverResets(t *testing.T) {
	call, expire := stepUpFixture(t)
	for cycle := range 4 {
		// The first call after an expiry may fail (the re-login asked for
		// the challenge's scopes only); the next one steps up.
		if err := call(); err != nil {
			if err := call(); err != nil {
				t.Fatalf("token lifetime %d: the step-up to files:write, granted in every earlier lifetime, is refused: %v", cycle+1, err)
			}
		}
		expire()
	}
}

// TestAttackReloginDropsGrantedScopes: the client stepped up to
// "mcp files:write"; its token expires (no refresh token); the next call
// of the files:write tool gets 401, the client re-authorizes with the
// 401 challenge's scope "mcp" only, the retried call gets 403 and fails —
// a call that needed no user decision fails after every token lifetime.
// basic/authorization/ (Scope Selection Strategy): "When re-authorizing,
// clients SHOULD include these scopes alongside any previously granted
// scopes to avoid losing permissions needed for other operations"; the
// client keeps the union for 403 step-ups (oauth.go) but not for the 401
// re-login.
func TestAttackReloginDropsGrantedScopes(t *testing.T) {
	call, expire := stepUpFixture(t)
	if err := call(); err != nil {
		t.Fatalf("first step-up: %v", err)
	}
	expire()
	if err := call(); err != nil {
		t.Fatalf("after the token expired, the client re-authorized without the files:write it had been granted: %v", err)
	}
}
