package server

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
)

// corsServer serves Run's mux (so /mcp gets Options.HTTP as Run gives it)
// with the weather tool, CORS for https://app.example and, when auth, the
// table verifier.
func corsServer(t *testing.T, cors CORSOptions, auth bool) (*httptest.Server, string) {
	t.Helper()
	mux := http.NewServeMux()
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	opts := Options{Name: "cors", Version: "1", Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), Tools: []Tool{weatherTool()}}
	opts.HTTP.CORS = cors
	if auth {
		a, err := NewAuth(AuthOptions{Verifier: authTokens, Resource: srv.URL + "/mcp", AuthorizationServers: []string{"https://as.test"}, RequiredScopes: []string{"mcp"}})
		if err != nil {
			t.Fatal(err)
		}
		opts.HTTP.Auth = a
	}
	s, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Shutdown(context.Background()) })
	mux.Handle("/", s.runMux())
	return srv, srv.URL + "/mcp"
}

// preflight sends what a browser sends before a cross-origin POST.
func preflight(t *testing.T, url, origin, method, headers string, extra ...string) *http.Response {
	t.Helper()
	req, err := http.NewRequest(http.MethodOptions, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Origin", origin)
	req.Header.Set("Access-Control-Request-Method", method)
	if headers != "" {
		req.Header.Set("Access-Control-Request-Headers", headers)
	}
	for i := 0; i+1 < len(extra); i += 2 {
		if extra[i] == "Host" {
			req.Host = extra[i+1]
		}
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp
}

// browserAccepts is the Fetch standard's CORS check of a preflight answer
// (§4.8 CORS-preflight fetch, with no credentials mode): an ok status,
// Access-Control-Allow-Origin naming origin (or *), the method in
// Access-Control-Allow-Methods unless it is a CORS-safelisted method, and
// every requested header in Access-Control-Allow-Headers (names compared
// case-insensitively; * covers all but Authorization).
func browserAccepts(resp *http.Response, origin, method, headers string) (bool, string) {
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return false, "status " + resp.Status
	}
	if a := resp.Header.Get("Access-Control-Allow-Origin"); a != origin && a != "*" {
		return false, "Access-Control-Allow-Origin " + a
	}
	list := func(name string) []string {
		var out []string
		for _, v := range resp.Header.Values(name) {
			for f := range strings.SplitSeq(v, ",") {
				if f = strings.TrimSpace(f); f != "" {
					out = append(out, strings.ToLower(f))
				}
			}
		}
		return out
	}
	if m := list("Access-Control-Allow-Methods"); method != "GET" && method != "HEAD" && method != "POST" && !slices.Contains(m, strings.ToLower(method)) && !slices.Contains(m, "*") {
		return false, "method " + method + " not in " + strings.Join(m, ",")
	}
	allowed := list("Access-Control-Allow-Headers")
	for h := range strings.SplitSeq(headers, ",") {
		h = strings.ToLower(strings.TrimSpace(h))
		if h == "" || slices.Contains(allowed, h) || (slices.Contains(allowed, "*") && h != "authorization") {
			continue
		}
		return false, "header " + h + " not in " + strings.Join(allowed, ",")
	}
	return true, ""
}

// mcpRequestHeaders is what a browser MCP client asks for before a
// tools/call whose tool mirrors an argument in a header.
const mcpRequestHeaders = "authorization, content-type, mcp-method, mcp-name, mcp-param-region, mcp-protocol-version"

// TestCORSPreflight: a browser's preflight from an allowed origin is
// answered before authentication with everything an MCP request needs; the
// requests that follow carry the CORS headers, a 401 included, so the page
// can read the challenge.
func TestCORSPreflight(t *testing.T) {
	const origin = "https://app.example"
	_, url := corsServer(t, CORSOptions{AllowedOrigins: []string{origin}, AllowHeaders: []string{"X-Request-ID"}}, true)
	resp := preflight(t, url, origin, "POST", mcpRequestHeaders)
	if resp.StatusCode != http.StatusNoContent {
		t.Fatalf("preflight: %s", resp.Status)
	}
	if ok, why := browserAccepts(resp, origin, "POST", mcpRequestHeaders); !ok {
		t.Fatalf("a browser refuses the preflight answer: %s (%v)", why, resp.Header)
	}
	if got := resp.Header.Get("Access-Control-Max-Age"); got != "7200" {
		t.Errorf("Access-Control-Max-Age %q, want 7200", got)
	}
	if v := strings.Join(resp.Header.Values("Vary"), ","); !strings.Contains(v, "Origin") || !strings.Contains(v, "Access-Control-Request-Headers") {
		t.Errorf("Vary %q", v)
	}
	for _, legacy := range []string{"mcp-session-id, last-event-id", "x-request-id"} {
		if ok, why := browserAccepts(preflight(t, url, origin, "GET", legacy), origin, "GET", legacy); !ok {
			t.Errorf("preflight for %s: %s", legacy, why)
		}
	}
	if ok, why := browserAccepts(preflight(t, url, origin, "DELETE", "mcp-session-id"), origin, "DELETE", "mcp-session-id"); !ok {
		t.Errorf("preflight for DELETE: %s", why)
	}
	// A header MCP does not send is not allowed.
	if ok, _ := browserAccepts(preflight(t, url, origin, "POST", "content-type, x-evil"), origin, "POST", "content-type, x-evil"); ok {
		t.Error("a preflight asking for X-Evil is accepted")
	}

	body := faultCall("1", "weather_current", `{"location":"Paris"}`, defaultMeta)
	for _, c := range []struct {
		token  string
		status int
	}{{"alice-read", 200}, {"", 401}} {
		hdrs := stdHeaders("tools/call", "weather_current", "Origin", origin)
		if c.token != "" {
			hdrs = append(hdrs, bearer(c.token)...)
		}
		resp, err := http.DefaultClient.Do(newPost(t, url, body, hdrs))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		expose := strings.ToLower(resp.Header.Get("Access-Control-Expose-Headers"))
		if resp.StatusCode != c.status || resp.Header.Get("Access-Control-Allow-Origin") != origin {
			t.Fatalf("POST (token %q): %s, Access-Control-Allow-Origin %q", c.token, resp.Status, resp.Header.Get("Access-Control-Allow-Origin"))
		}
		for _, h := range []string{"mcp-session-id", "www-authenticate", "retry-after"} {
			if !strings.Contains(expose, h) {
				t.Errorf("POST (token %q): Access-Control-Expose-Headers %q lacks %s", c.token, expose, h)
			}
		}
	}
}

// TestCORSRefusals: an origin CORS does not list gets 403 (preflight
// included) and no CORS headers; a preflight for a Host the server does not
// answer to is 403 too; a request without Origin gets no CORS headers.
func TestCORSRefusals(t *testing.T) {
	_, url := corsServer(t, CORSOptions{AllowedOrigins: []string{"https://app.example"}}, false)
	for _, origin := range []string{"https://evil.example", "http://app.example", "https://app.example:8443", "null"} {
		resp := preflight(t, url, origin, "POST", mcpRequestHeaders)
		if resp.StatusCode != http.StatusForbidden || resp.Header.Get("Access-Control-Allow-Origin") != "" {
			t.Errorf("preflight from %s: %s, Access-Control-Allow-Origin %q; want 403 and none", origin, resp.Status, resp.Header.Get("Access-Control-Allow-Origin"))
		}
		post, err := http.DefaultClient.Do(newPost(t, url, faultCall("1", "weather_current", `{"location":"Paris"}`, defaultMeta),
			stdHeaders("tools/call", "weather_current", "Origin", origin)))
		if err != nil {
			t.Fatal(err)
		}
		post.Body.Close()
		if post.StatusCode != http.StatusForbidden || post.Header.Get("Access-Control-Allow-Origin") != "" {
			t.Errorf("POST from %s: %s", origin, post.Status)
		}
	}
	if resp := preflight(t, url, "https://app.example", "POST", mcpRequestHeaders, "Host", "evil.example"); resp.StatusCode != http.StatusForbidden {
		t.Errorf("preflight for Host evil.example: %s, want 403", resp.Status)
	}
	resp, err := http.DefaultClient.Do(newPost(t, url, faultCall("1", "weather_current", `{"location":"Paris"}`, defaultMeta), stdHeaders("tools/call", "weather_current")))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 || resp.Header.Get("Access-Control-Allow-Origin") != "" || resp.Header.Get("Access-Control-Expose-Headers") != "" {
		t.Errorf("no Origin: %s %v", resp.Status, resp.Header)
	}
}

// TestCORSOffByDefault: without CORSOptions a preflight is what any
// OPTIONS is (405), with no CORS headers, even from an origin the Origin
// check accepts.
func TestCORSOffByDefault(t *testing.T) {
	_, url := corsServer(t, CORSOptions{}, false)
	resp := preflight(t, url, "http://localhost:5173", "POST", mcpRequestHeaders)
	if resp.StatusCode != http.StatusMethodNotAllowed {
		t.Errorf("preflight without CORS: %s, want 405", resp.Status)
	}
	for name := range resp.Header {
		if strings.HasPrefix(name, "Access-Control-") {
			t.Errorf("CORS header %s without CORS", name)
		}
	}
}

// TestCORSAnyOrigin: "*" answers any origin with that origin (never a
// literal *, which would not cover Authorization), and MaxAge < 0 sends no
// Access-Control-Max-Age.
func TestCORSAnyOrigin(t *testing.T) {
	_, url := corsServer(t, CORSOptions{AllowedOrigins: []string{"*"}, MaxAge: -1}, false)
	resp := preflight(t, url, "https://anywhere.example", "POST", mcpRequestHeaders)
	if ok, why := browserAccepts(resp, "https://anywhere.example", "POST", mcpRequestHeaders); !ok {
		t.Fatalf("preflight: %s", why)
	}
	if resp.Header.Get("Access-Control-Allow-Origin") != "https://anywhere.example" || resp.Header.Get("Access-Control-Max-Age") != "" {
		t.Errorf("headers %v", resp.Header)
	}
}

// TestCORSParamHeaders: Mcp-Param-* names are allowed by their prefix, as
// the preflight spells them; malformed names and the bare prefix are not.
func TestCORSParamHeaders(t *testing.T) {
	c := newCORSPolicy(CORSOptions{AllowedOrigins: []string{"*"}})
	got := c.allowedHeaders([]string{"Mcp-Param-Region, mcp-param-tenant-id", "mcp-param-, mcp-param-a b, mcp-param-(x)"})
	for _, want := range []string{"Mcp-Param-Region", "mcp-param-tenant-id"} {
		if !strings.Contains(got, want) {
			t.Errorf("%q lacks %s", got, want)
		}
	}
	for _, bad := range []string{"mcp-param-,", "a b", "(x)"} {
		if strings.Contains(got, bad) {
			t.Errorf("%q allows %q", got, bad)
		}
	}
}
