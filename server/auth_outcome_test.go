package server

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
)

// HTTP answers 403 insufficient_scope for a request that ended with an
// insufficient-scope error, not for one whose handler merely tried a
// scope and carried on.

// protectedServer is a protected server with the given tools and verifier.
func protectedServer(t *testing.T, verifier TokenVerifier, tools []Tool) *httptest.Server {
	t.Helper()
	s, err := New(Options{Name: "authsrv", Version: "1", Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), Tools: tools})
	if err != nil {
		t.Fatal(err)
	}
	return protect(t, s, verifier)
}

// protect serves s behind an Auth with verifier.
func protect(t *testing.T, s *Server, verifier TokenVerifier) *httptest.Server {
	t.Helper()
	t.Cleanup(func() { _ = s.Shutdown(context.Background()) })
	mux := http.NewServeMux()
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	a, err := NewAuth(AuthOptions{Verifier: verifier, Resource: srv.URL + "/mcp", AuthorizationServers: []string{"https://as.test"}})
	if err != nil {
		t.Fatal(err)
	}
	a.Mount(mux)
	mux.Handle("/mcp", s.HTTPHandler(HTTPOptions{Auth: a}))
	return srv
}

// postWithToken posts a modern request with token and decodes the answer.
func postWithToken(t *testing.T, srv *httptest.Server, body, method, name, token string) (*http.Response, map[string]any) {
	t.Helper()
	resp, err := srv.Client().Do(newPost(t, srv.URL+"/mcp", body, stdHeaders(method, name, bearer(token)...)))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	var out map[string]any
	if err := json.Unmarshal(raw, &out); err != nil {
		t.Fatalf("response body %q: %v", raw, err)
	}
	return resp, out
}

// reportTool shows admins the full report and everyone else a summary.
func reportTool(runs *atomic.Int32) Tool {
	return NewTool(ToolInfo{Name: "report"}, func(ctx context.Context, _ struct{}) (string, error) {
		runs.Add(1)
		if RequireScopes(ctx, "admin") == nil {
			return "full report", nil
		}
		return "summary report", nil
	})
}

// TestFailedScopeTestKeepsResult: a handler that uses RequireScopes as a
// test and carries on gets its result sent (200), not a 403 that loses it
// and has a stepping-up client run the tool again.
func TestFailedScopeTestKeepsResult(t *testing.T) {
	var runs atomic.Int32
	srv := protectedServer(t, authTokens, []Tool{reportTool(&runs)})
	resp, body := postWithToken(t, srv, callBody("1", "report", "{}"), "tools/call", "report", "alice-read")
	if runs.Load() != 1 {
		t.Fatalf("the tool ran %d times, want 1", runs.Load())
	}
	if resp.StatusCode != http.StatusOK || body["result"] == nil {
		t.Fatalf("the handler returned \"summary report\", but the client got HTTP %d WWW-Authenticate %q body %v",
			resp.StatusCode, resp.Header.Get("WWW-Authenticate"), body)
	}
	if got := firstText(t, body); got != "summary report" {
		t.Errorf("result text %q, want \"summary report\"", got)
	}
}

// TestFailedScopeTestKeepsResultInLegacySession: the same in an
// initialize-era session.
func TestFailedScopeTestKeepsResultInLegacySession(t *testing.T) {
	var runs atomic.Int32
	srv := protectedServer(t, authTokens, []Tool{reportTool(&runs)})
	sess := &lgHTTP{t: t, url: srv.URL + "/mcp"}
	resp := sess.post(lgBody("1", "initialize", `{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}`), bearer("alice-read")...)
	resp.Body.Close()
	if sess.sid = resp.Header.Get("Mcp-Session-Id"); resp.StatusCode != 200 || sess.sid == "" {
		t.Fatalf("initialize: %d sid %q", resp.StatusCode, sess.sid)
	}
	resp = sess.post(lgBody("2", "tools/call", `{"name":"report","arguments":{}}`), bearer("alice-read")...)
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(b), "summary report") {
		t.Fatalf("the handler returned \"summary report\", but the client got HTTP %d WWW-Authenticate %q body %s",
			resp.StatusCode, resp.Header.Get("WWW-Authenticate"), b)
	}
}

// TestReturnedScopeErrorIsForbidden: a handler that returns RequireScopes'
// error, as it is or wrapped, has the request answered 403
// insufficient_scope with a challenge naming the scope, in both eras.
func TestReturnedScopeErrorIsForbidden(t *testing.T) {
	strict := func(wrap bool) Tool {
		name := map[bool]string{false: "strict", true: "strict_wrapped"}[wrap]
		return NewTool(ToolInfo{Name: name}, func(ctx context.Context, _ struct{}) (string, error) {
			if err := RequireScopes(ctx, "admin"); err != nil {
				if wrap {
					return "", fmt.Errorf("the report: %w", err)
				}
				return "", err
			}
			return "full report", nil
		})
	}
	srv := protectedServer(t, authTokens, []Tool{strict(false), strict(true)})
	for _, name := range []string{"strict", "strict_wrapped"} {
		resp, body := postWithToken(t, srv, callBody("1", name, "{}"), "tools/call", name, "alice-read")
		if resp.StatusCode != http.StatusForbidden {
			t.Fatalf("%s: HTTP %d %v, want 403", name, resp.StatusCode, body)
		}
		if c := challenge(t, resp.Header.Get("WWW-Authenticate")); c["error"] != "insufficient_scope" || c["scope"] != "admin" {
			t.Errorf("%s: challenge %v, want insufficient_scope for admin", name, c)
		}
		resp, body = postWithToken(t, srv, callBody("2", name, "{}"), "tools/call", name, "admin")
		if resp.StatusCode != http.StatusOK || firstText(t, body) != "full report" {
			t.Errorf("%s with admin: HTTP %d %v", name, resp.StatusCode, body)
		}
	}
	sess := &lgHTTP{t: t, url: srv.URL + "/mcp"}
	resp := sess.post(lgBody("1", "initialize", `{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}`), bearer("alice-read")...)
	resp.Body.Close()
	sess.sid = resp.Header.Get("Mcp-Session-Id")
	resp = sess.post(lgBody("2", "tools/call", `{"name":"strict_wrapped","arguments":{}}`), bearer("alice-read")...)
	resp.Body.Close()
	if c := challenge(t, resp.Header.Get("WWW-Authenticate")); resp.StatusCode != http.StatusForbidden || c["scope"] != "admin" {
		t.Errorf("legacy session: HTTP %d challenge %v, want 403 for admin", resp.StatusCode, c)
	}
}

// TestVisibleByRequireScopesListsTheRest: Options.Visible deciding by
// scope with RequireScopes (which honours AuthOptions.ScopeImplies) hides
// the item from a caller without the scope; the list of the rest is
// answered 200, not 403.
func TestVisibleByRequireScopesListsTheRest(t *testing.T) {
	noop := func(ctx context.Context, _ struct{}) (string, error) { return "ok", nil }
	s, err := New(Options{Name: "authsrv", Version: "1", Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
		Tools: []Tool{NewTool(ToolInfo{Name: "whoami"}, noop), NewTool(ToolInfo{Name: "admin_reset"}, noop)},
		Visible: func(ctx context.Context, it Item) bool {
			return it.Kind != ItemTool || it.Name != "admin_reset" || RequireScopes(ctx, "admin") == nil
		}})
	if err != nil {
		t.Fatal(err)
	}
	srv := protect(t, s, authTokens)
	resp, body := postWithToken(t, srv, reqBody("1", "tools/list", ""), "tools/list", "", "alice-read")
	if resp.StatusCode != http.StatusOK || body["result"] == nil {
		t.Fatalf("tools/list by a caller without admin: HTTP %d WWW-Authenticate %q body %v, want 200 listing whoami only",
			resp.StatusCode, resp.Header.Get("WWW-Authenticate"), body)
	}
	if js := toJSON(body); !strings.Contains(js, "whoami") || strings.Contains(js, "admin_reset") {
		t.Errorf("tools/list: %s, want whoami and not admin_reset", js)
	}
}
