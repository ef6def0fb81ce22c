package client

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/jsonrpc"
)

// hostileAS is a protected MCP server at /mcp that is also its own
// authorization server (authorization code flow, PKCE S256). Each part
// can be replaced by a test.
type hostileAS struct {
	srv *httptest.Server
	mux *http.ServeMux

	mu        sync.Mutex
	authzURLs []*url.URL   // authorization requests the client made
	tokenReqs []url.Values // token request forms
	authz     atomic.Int32

	noWellKnownPRM bool // the resource metadata only at the resource_metadata URL

	mcp   http.HandlerFunc
	prm   func() map[string]any
	meta  func() map[string]any
	token http.HandlerFunc
}

func newHostileAS(t *testing.T) *hostileAS {
	t.Helper()
	a := &hostileAS{mux: http.NewServeMux()}
	a.srv = httptest.NewServer(a.mux)
	t.Cleanup(a.srv.Close)
	a.prm = func() map[string]any {
		return map[string]any{"resource": a.srv.URL + "/mcp", "authorization_servers": []string{a.srv.URL}}
	}
	a.meta = func() map[string]any {
		return map[string]any{"issuer": a.srv.URL, "authorization_endpoint": a.srv.URL + "/authorize",
			"token_endpoint": a.srv.URL + "/token", "response_types_supported": []string{"code"},
			"code_challenge_methods_supported": []string{"S256"}}
	}
	a.token = func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{"access_token": "tok-1", "token_type": "Bearer", "expires_in": 300})
	}
	a.mcp = func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") == "" {
			a.challenge401(w)
			return
		}
		a.ok(w)
	}
	a.mux.HandleFunc("/mcp", func(w http.ResponseWriter, r *http.Request) { a.mcp(w, r) })
	a.mux.HandleFunc("/.well-known/oauth-protected-resource/mcp", func(w http.ResponseWriter, r *http.Request) {
		if a.noWellKnownPRM {
			http.NotFound(w, r)
			return
		}
		_ = json.NewEncoder(w).Encode(a.prm())
	})
	a.mux.HandleFunc("/.well-known/oauth-authorization-server", func(w http.ResponseWriter, r *http.Request) {
		_ = json.NewEncoder(w).Encode(a.meta())
	})
	a.mux.HandleFunc("/token", func(w http.ResponseWriter, r *http.Request) {
		_ = r.ParseForm()
		a.mu.Lock()
		a.tokenReqs = append(a.tokenReqs, r.PostForm)
		a.mu.Unlock()
		a.token(w, r)
	})
	return a
}

func (a *hostileAS) challenge401(w http.ResponseWriter) {
	w.Header().Set("WWW-Authenticate", `Bearer resource_metadata="`+a.srv.URL+`/.well-known/oauth-protected-resource/mcp"`)
	w.WriteHeader(http.StatusUnauthorized)
}

func (a *hostileAS) ok(w http.ResponseWriter) {
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write([]byte(`{"jsonrpc":"2.0","id":1,"result":{"tools":[]}}`))
}

// oauth is a user-facing OAuth whose Authorize approves at once: it
// answers with a code, the request's state and the issuer.
func (a *hostileAS) oauth() *OAuth {
	return &OAuth{
		RedirectURL: "http://127.0.0.1:1/cb",
		ClientID:    "c1",
		Authorize: func(ctx context.Context, authorizationURL string) (*url.URL, error) {
			u, err := url.Parse(authorizationURL)
			if err != nil {
				return nil, err
			}
			a.authz.Add(1)
			a.mu.Lock()
			a.authzURLs = append(a.authzURLs, u)
			a.mu.Unlock()
			q := url.Values{"code": {"code-1"}, "state": {u.Query().Get("state")}, "iss": {a.srv.URL}}
			return url.Parse("http://127.0.0.1:1/cb?" + q.Encode())
		},
	}
}

// hostileCall sends one tools/list through tr.
func hostileCall(tr *HTTPTransport) error {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_, err := tr.RoundTrip(ctx, &Request{ID: jsonrpc.IntID(1), Method: "tools/list", ProtocolVersion: "2026-07-28"})
	return err
}

// issueNumberedTokens makes the authorization server's token endpoint
// issue Bearer tokens "tok-1", "tok-2", … in turn; the count is how many it
// issued.
func (a *hostileAS) issueNumberedTokens() *atomic.Int32 {
	issued := new(atomic.Int32)
	a.token = func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		n := issued.Add(1)
		_ = json.NewEncoder(w).Encode(map[string]any{"access_token": fmt.Sprintf("tok-%d", n), "token_type": "Bearer", "expires_in": 300})
	}
	return issued
}
