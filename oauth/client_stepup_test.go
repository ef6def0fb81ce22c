package oauth

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/client"
	"github.com/mcpgen/mcpgen/server"
)

// TestConcurrentStepUpsReauthorizeOnce: three tools/call of a tool
// needing files:write run at once with a token granting "mcp"; all three
// get 403 insufficient_scope. The first steps up and gets a token with
// files:write; the others see that the token changed since they sent
// theirs (as on a 401) and retry with it rather than re-authorizing each
// (for a user: a browser prompt each) and running into maxStepUps.
// README/oauth.go: ErrInsufficientScope is "returned when a step-up cannot
// help"; basic/authorization/ Step-Up: "Retry the original request with
// the new authorization".
func TestConcurrentStepUpsReauthorizeOnce(t *testing.T) {
	const parallel = 3
	var lacking atomic.Int32 // verifications of a token without files:write, after connect
	var counting atomic.Bool
	var stepUps atomic.Int32
	mux := http.NewServeMux()
	as := httptest.NewServer(mux)
	defer as.Close()
	mux.HandleFunc("/.well-known/oauth-authorization-server", func(w http.ResponseWriter, r *http.Request) {
		_ = json.NewEncoder(w).Encode(map[string]any{"issuer": as.URL, "token_endpoint": as.URL + "/token",
			"response_types_supported": []string{"code"}, "token_endpoint_auth_methods_supported": []string{"client_secret_basic"}})
	})
	var seq atomic.Int32
	mux.HandleFunc("/token", func(w http.ResponseWriter, r *http.Request) {
		_ = r.ParseForm()
		scope := r.PostForm.Get("scope")
		if strings.Contains(scope, "files:write") {
			stepUps.Add(1)
			// Let all the concurrent calls be refused with the old token first.
			for deadline := time.Now().Add(3 * time.Second); lacking.Load() < parallel && time.Now().Before(deadline); {
				time.Sleep(5 * time.Millisecond)
			}
		}
		tok := base64.RawURLEncoding.EncodeToString([]byte(fmt.Sprint(seq.Add(1)) + "|" + scope))
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{"access_token": tok, "token_type": "Bearer", "expires_in": 300, "scope": scope})
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
	defer rs.Close()
	auth, err := server.NewAuth(server.AuthOptions{Resource: rs.URL + "/mcp", AuthorizationServers: []string{as.URL}, ScopesSupported: []string{"mcp"},
		Verifier: server.TokenVerifierFunc(func(ctx context.Context, tok string) (*server.TokenInfo, error) {
			raw, err := base64.RawURLEncoding.DecodeString(tok)
			_, scope, ok := strings.Cut(string(raw), "|")
			if err != nil || !ok {
				return nil, server.ErrInvalidToken
			}
			scopes := strings.Fields(scope)
			if counting.Load() && !slices.Contains(scopes, "files:write") {
				lacking.Add(1)
			}
			return &server.TokenInfo{Subject: "svc", Scopes: scopes}, nil
		})})
	if err != nil {
		t.Fatal(err)
	}
	auth.Mount(rmux)
	rmux.Handle("/mcp", s.HTTPHandler(server.HTTPOptions{Auth: auth}))

	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c, err := client.Connect(ctx, client.OAuthHTTP(rs.URL+"/mcp", &client.OAuth{ClientID: "svc", ClientSecret: "s", ClientCredentials: true}), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	counting.Store(true)
	errs := make([]error, parallel)
	var wg sync.WaitGroup
	for i := range parallel {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, errs[i] = c.Call(ctx, "tools/call", map[string]any{"name": "write", "arguments": map[string]any{}})
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("call %d: %v", i, err)
		}
	}
	if t.Failed() || stepUps.Load() > 1 {
		t.Fatalf("%d concurrent calls needing files:write: %d step-up authorizations (want 1: the others retry with the new token)", parallel, stepUps.Load())
	}
}

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

// TestStepUpLimitCountsOnlyOneTokenLifetime: a client_credentials client
// (no refresh token, as usual for that grant) whose tokens expire from
// time to time; after each expiry the tool needing "files:write" works
// again (by a step-up, or by a re-login that kept the scope), every time:
// the step-up limit counts repeated refusals of one operation, not the
// step-ups that helped over the client's whole life. README/oauth.go:
// "ErrInsufficientScope is returned (wrapped) when a step-up cannot help";
// basic/authorization/ (Step-Up Authorization Flow): the limit exists "to
// avoid repeated failures for the same resource and operation
// combination".
func TestStepUpLimitCountsOnlyOneTokenLifetime(t *testing.T) {
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

// TestReloginKeepsGrantedScopes: the client stepped up to
// "mcp files:write"; its token expires (no refresh token); the next call
// of the files:write tool gets 401 and the client re-authorizes asking
// for the challenge's "mcp" and the "files:write" granted before, so the
// retried call succeeds. basic/authorization/ (Scope Selection Strategy):
// "When re-authorizing, clients SHOULD include these scopes alongside any
// previously granted scopes to avoid losing permissions needed for other
// operations".
func TestReloginKeepsGrantedScopes(t *testing.T) {
	call, expire := stepUpFixture(t)
	if err := call(); err != nil {
		t.Fatalf("first step-up: %v", err)
	}
	expire()
	if err := call(); err != nil {
		t.Fatalf("after the token expired, the client re-authorized without the files:write it had been granted: %v", err)
	}
}
