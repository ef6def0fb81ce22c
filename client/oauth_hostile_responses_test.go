package client

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/jsonrpc"
)

// TestStepUpNamingNoScopeIsBounded: the server answers every request
// carrying a token with 403 `Bearer error="insufficient_scope"`, naming
// no scope (and nothing else names one: no scopes_supported, no
// OAuth.Scopes), or naming one it never accepts. The step-up asks for the
// same set each time, the empty one too, and is counted: README "a scope
// set the server keeps refusing is asked for at most twice in a row, then
// ErrInsufficientScope"; basic/authorization/ Step-Up: "Clients SHOULD
// implement retry limits".
func TestStepUpNamingNoScopeIsBounded(t *testing.T) {
	for _, scope := range []string{"", "files:read"} {
		t.Run("scope="+scope, func(t *testing.T) {
			a := newAttackAS(t)
			a.mcp = func(w http.ResponseWriter, r *http.Request) {
				if r.Header.Get("Authorization") == "" {
					a.challenge401(w)
					return
				}
				ch := `Bearer error="insufficient_scope"`
				if scope != "" {
					ch += `, scope="` + scope + `"`
				}
				w.Header().Set("WWW-Authenticate", ch)
				w.WriteHeader(http.StatusForbidden)
			}
			tr := OAuthHTTP(a.srv.URL+"/mcp", a.oauth())
			var err error
			for i := 0; i < 6; i++ {
				if err = attackCall(tr); errors.Is(err, ErrInsufficientScope) {
					break
				}
			}
			// One login on the 401, then at most maxStepUps step-ups.
			if n := a.authz.Load(); n > 1+maxStepUps || !errors.Is(err, ErrInsufficientScope) {
				t.Fatalf("6 requests refused with insufficient_scope (scope %q): %d authorizations, last error %v; want at most %d and ErrInsufficientScope",
					scope, n, err, 1+maxStepUps)
			}
		})
	}
}

// TestStepUpCountsTheScopesAskedFor: as TestStepUpNamingNoScopeIsBounded,
// with an authorization server that lists offline_access in
// scopes_supported, and a first login that asked for no scope. Every
// step-up asks for "files:read offline_access", and the run is counted
// under that set, the one actually asked for: at most twice in a row,
// then ErrInsufficientScope (README).
func TestStepUpCountsTheScopesAskedFor(t *testing.T) {
	a := newAttackAS(t)
	meta := a.meta
	a.meta = func() map[string]any {
		m := meta()
		m["scopes_supported"] = []string{"files:read", "offline_access"}
		return m
	}
	a.mcp = func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") == "" {
			a.challenge401(w)
			return
		}
		w.Header().Set("WWW-Authenticate", `Bearer error="insufficient_scope", scope="files:read"`)
		w.WriteHeader(http.StatusForbidden)
	}
	tr := OAuthHTTP(a.srv.URL+"/mcp", a.oauth())
	var err error
	for i := 0; i < 6 && !errors.Is(err, ErrInsufficientScope); i++ {
		err = attackCall(tr)
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	same := 0
	var asked []string
	for _, u := range a.authzURLs {
		s := u.Query().Get("scope")
		asked = append(asked, s)
		if s == "files:read offline_access" {
			same++
		}
	}
	if same > maxStepUps || !errors.Is(err, ErrInsufficientScope) {
		t.Fatalf("scopes asked for, in order: %q; %d step-ups for one refused set (last error %v); want at most %d, then ErrInsufficientScope",
			asked, same, err, maxStepUps)
	}
}

// TestMetadataRedirectLoopStopsAfterTenRedirects: the resource metadata
// URL redirects to itself (same origin) forever. OAuth's default HTTP
// client refuses other origins with its own CheckRedirect, which replaces
// net/http's stop after 10 redirects: it keeps that bound itself, and the
// login fails at once with "stopped after 10 redirects", not at the
// caller's deadline after thousands of requests.
func TestMetadataRedirectLoopStopsAfterTenRedirects(t *testing.T) {
	a := newAttackAS(t)
	var hops atomic.Int32
	a.mux.HandleFunc("/loop", func(w http.ResponseWriter, r *http.Request) {
		hops.Add(1)
		http.Redirect(w, r, "/loop", http.StatusFound)
	})
	a.mcp = func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("WWW-Authenticate", `Bearer resource_metadata="`+a.srv.URL+`/loop"`)
		w.WriteHeader(http.StatusUnauthorized)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	start := time.Now()
	_, err := OAuthHTTP(a.srv.URL+"/mcp", a.oauth()).RoundTrip(ctx, &Request{ID: jsonrpc.IntID(1), Method: "tools/list", ProtocolVersion: "2026-07-28"})
	msg := ""
	if err != nil {
		msg = string(clipBytes([]byte(err.Error()), 300))
	}
	if n := hops.Load(); n > 20 || strings.Contains(msg, "deadline") {
		t.Fatalf("a same-origin redirect loop at the resource metadata URL was followed %d times in %v (error: %s); want it stopped after about 10",
			n, time.Since(start).Round(time.Millisecond), msg)
	}
}
