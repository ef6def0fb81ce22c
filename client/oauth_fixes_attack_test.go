package client

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"

	"golang.org/x/net/idna"
)

// Attacks on the fixes to the Go client's OAuth support (oauth_resource.go,
// oauth_challenge.go).

// TestAttackMetadataForFinalSigmaHostIsAnotherResource: the MCP server is
// https://σ.example/mcp (Greek small sigma). Its protected resource
// metadata names https://ς.example/mcp (Greek small FINAL sigma). These
// are two hosts: IDNA 2008 / UTS #46 non-transitional processing, which
// net/http uses to dial (idna.Lookup), keeps ς distinct from σ
// (xn--3xa vs xn--4xa). strings.EqualFold folds them together, so
// metadataNamesServer takes the other host's identifier for the server's
// own. README: "resource metadata is used only when its `resource` is
// `url` itself — scheme and host in any case" (case, not Unicode case
// folding of distinct DNS names); RFC 9728 §3.3: identical, else MUST NOT
// be used (§7.3 impersonation: the client would request, and present to
// σ, a token issued for ς).
func TestAttackMetadataForFinalSigmaHostIsAnotherResource(t *testing.T) {
	const server, other = "https://σ.example/mcp", "https://ς.example/mcp"
	su, _ := url.Parse(server)
	ou, _ := url.Parse(other)
	a, err1 := idna.Lookup.ToASCII(su.Hostname())
	b, err2 := idna.Lookup.ToASCII(ou.Hostname())
	if err1 != nil || err2 != nil || a == b {
		t.Fatalf("precondition: %q and %q should be distinct DNS names (%q %v, %q %v)", su.Hostname(), ou.Hostname(), a, err1, b, err2)
	}
	for _, fromRoot := range []bool{false, true} {
		if metadataNamesServer(other, su, fromRoot) {
			t.Errorf("metadata whose resource is %s (host %s) was taken to name the MCP server %s (host %s) (from the root well-known URL: %v)",
				other, b, server, a, fromRoot)
		}
	}
}

// TestAttackTokenNotSentToFinalSigmaHost: as above, for the token itself:
// the client logged in to https://σ.example/mcp, and a redirect leads a
// request to https://ς.example/…, another host (it is dialled as
// xn--3xa.example). README: "a token goes only to its resource's origin,
// not along a redirect to another"; OAuthHTTP doc: "a redirect to another
// origin is followed without it".
func TestAttackTokenNotSentToFinalSigmaHost(t *testing.T) {
	o := &OAuth{Store: &MemoryStore{}}
	o.Store.SaveToken("https://as.example", "https://σ.example/mcp", &Token{AccessToken: "tok", TokenType: "Bearer"})
	o.setSession("https://as.example", "https://σ.example/mcp")
	own, _ := url.Parse("https://σ.example/mcp")
	if o.tokenFor(own) == nil {
		t.Fatal("precondition: no token for the resource's own origin")
	}
	target, _ := url.Parse("https://ς.example/collect")
	if tok := o.tokenFor(target); tok != nil {
		t.Fatalf("the token for https://σ.example/mcp would be sent to %s (dialled as another host)", target)
	}
}

// TestAttackChallengeSplitAcrossFieldLines: RFC 9110 §5.3: a field sent
// as several field lines means the same as one line of their values
// joined by ", " (a recipient or intermediary MAY combine them, and
// WWW-Authenticate is a list-based field, §11.6.1). A Bearer challenge
// whose parameters are split across lines — `Bearer
// error="insufficient_scope"` then `scope="admin"` — is read with its
// scope when the lines are joined and without it when they are not: two
// readings of one message (preamble: no disagreement between two parsers
// of one message). Without the scope the step-up asks for the old scope
// set again (and ends in ErrInsufficientScope); without resource_metadata
// discovery ignores the URL the server named (authorization-server-
// discovery.mdx: clients MUST use it when present); without DPoP's error
// the use_dpop_nonce retry is skipped.
func TestAttackChallengeSplitAcrossFieldLines(t *testing.T) {
	for _, lines := range [][]string{
		{`Bearer error="insufficient_scope"`, `scope="admin"`},
		{`Bearer realm="mcp"`, `resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource/mcp"`},
		{`Basic realm="x"`, `Bearer`, `scope="admin"`},
		{`DPoP algs="ES256"`, `error="use_dpop_nonce"`},
	} {
		split := parseChallenge(lines)
		joined := parseChallenge([]string{strings.Join(lines, ", ")})
		if split.scheme != joined.scheme || len(split.params) != len(joined.params) {
			t.Errorf("field lines %q read as %s %v; the same field on one line as %s %v", lines, split.scheme, split.params, joined.scheme, joined.params)
			continue
		}
		for k, v := range joined.params {
			if split.params[k] != v {
				t.Errorf("field lines %q: %s=%q, on one line %q", lines, k, split.params[k], v)
			}
		}
	}
}

// TestAttackResourceWithEmptyFragmentIsNotTheServer: a "resource" of
// https://mcp.example.com/mcp# carries a fragment component, an empty one
// (RFC 3986 §3.5: "#" starts it). RFC 9728 §2: the resource identifier
// has no fragment component; RFC 8707 §2: it "MUST NOT include a
// fragment component"; the spec's Canonical Server URI lists a URI with a
// fragment as invalid; RFC 9728 §3.3: identical to the server's URL, else
// not used. The check refuses "#f" but takes "#", and the login then asks
// the authorization server for a token for `…/mcp#` (the resource
// parameter is the metadata's string) instead of failing with the
// client's own "metadata … is for …" error.
func TestAttackResourceWithEmptyFragmentIsNotTheServer(t *testing.T) {
	su, _ := url.Parse("https://mcp.example.com/mcp")
	for _, fromRoot := range []bool{false, true} {
		for _, r := range []string{"https://mcp.example.com/mcp#", "https://mcp.example.com#"} {
			if metadataNamesServer(r, su, fromRoot) {
				t.Errorf("resource %q (with a fragment component) taken to name %s (from the root well-known URL: %v)", r, su, fromRoot)
			}
		}
	}
}

// TestAttackTokenFollowsRedirectToFinalSigmaHost: end to end, the leak
// TestAttackTokenNotSentToFinalSigmaHost shows. The MCP server is
// http://σ.test:PORT/mcp; after the login it redirects the request to
// http://ς.test:PORT/mcp, another host (net/http dials and names it
// xn--3xa.test, the server xn--4xa.test). README: "a token goes only to
// its resource's origin, not along a redirect to another".
func TestAttackTokenFollowsRedirectToFinalSigmaHost(t *testing.T) {
	a := newHostileAS(t)
	port := a.srv.Listener.Addr().(*net.TCPAddr).Port
	server := fmt.Sprintf("http://σ.test:%d/mcp", port)
	other := fmt.Sprintf("http://ς.test:%d/mcp", port)
	a.prm = func() map[string]any {
		return map[string]any{"resource": server, "authorization_servers": []string{a.srv.URL}}
	}
	var mu sync.Mutex
	var leaked, hosts []string
	a.mcp = func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		hosts = append(hosts, r.Host)
		mu.Unlock()
		switch {
		case strings.HasPrefix(r.Host, "xn--3xa.test"): // ς.test
			mu.Lock()
			leaked = append(leaked, r.Header.Get("Authorization"))
			mu.Unlock()
			a.ok(w)
		case r.Header.Get("Authorization") == "":
			a.challenge401(w)
		default:
			w.Header().Set("Location", other)
			w.WriteHeader(http.StatusTemporaryRedirect)
		}
	}
	tr := OAuthHTTP(server, a.oauth())
	b := tr.Client.Transport.(*bearer)
	addr := a.srv.Listener.Addr().String()
	b.base = &http.Transport{DialContext: func(ctx context.Context, network, _ string) (net.Conn, error) {
		var d net.Dialer
		return d.DialContext(ctx, network, addr) // every host name is this test server
	}}
	err := hostileCall(tr)
	mu.Lock()
	defer mu.Unlock()
	if len(leaked) == 0 {
		t.Fatalf("precondition: the redirect target was not reached (hosts %q, call error %v)", hosts, err)
	}
	for _, h := range leaked {
		if h != "" {
			t.Fatalf("the token for %s went along a redirect to %s (hosts seen %q): Authorization %q", server, other, hosts, h)
		}
	}
}

// TestAttackChallengeFromFinalSigmaHostStartsLogin: the fix of
// TestChallengeFromRedirectTargetIsNotFollowed, bypassed. The MCP server
// http://σ.test:PORT/mcp redirects to http://ς.test:PORT/collect, another
// host (xn--3xa.test). Its 401 names its own resource metadata, which
// copies the MCP server's URL and names its own authorization server.
// challengeFromServer takes ς.test for the server's origin (Unicode case
// folding), and the client logs in there, sending the pre-registered
// client secret to that host's token endpoint. README: "Only the
// server's own origin can start a login: a 401 or 403
// `insufficient_scope` from a host a redirect led to is an error, not a
// login or step-up (RFC 9728 §7.3)".
func TestAttackChallengeFromFinalSigmaHostStartsLogin(t *testing.T) {
	a := newHostileAS(t)
	port := a.srv.Listener.Addr().(*net.TCPAddr).Port
	server := fmt.Sprintf("http://σ.test:%d/mcp", port)
	evil := fmt.Sprintf("http://ς.test:%d", port)
	var mu sync.Mutex
	var leaked []string
	a.mcp = func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Location", evil+"/collect")
		w.WriteHeader(http.StatusTemporaryRedirect)
	}
	a.mux.HandleFunc("/collect", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("WWW-Authenticate", `Bearer resource_metadata="`+evil+`/evil-prm"`)
		w.WriteHeader(http.StatusUnauthorized)
	})
	a.mux.HandleFunc("/evil-prm", func(w http.ResponseWriter, r *http.Request) {
		_ = json.NewEncoder(w).Encode(map[string]any{"resource": server, "authorization_servers": []string{evil + "/evil"}})
	})
	a.mux.HandleFunc("/.well-known/oauth-authorization-server/evil", func(w http.ResponseWriter, r *http.Request) {
		_ = json.NewEncoder(w).Encode(map[string]any{"issuer": evil + "/evil", "token_endpoint": evil + "/evil-token",
			"response_types_supported": []string{"code"}})
	})
	a.mux.HandleFunc("/evil-token", func(w http.ResponseWriter, r *http.Request) {
		_ = r.ParseForm()
		mu.Lock()
		leaked = append(leaked, r.Host+" "+r.Header.Get("Authorization")+" "+r.PostForm.Get("client_secret"))
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{"access_token": "evil-token", "token_type": "Bearer"})
	})
	o := &OAuth{ClientID: "svc", ClientSecret: "secret-for-the-real-as", ClientCredentials: true}
	tr := OAuthHTTP(server, o)
	addr := a.srv.Listener.Addr().String()
	dial := func(ctx context.Context, network, _ string) (net.Conn, error) {
		var d net.Dialer
		return d.DialContext(ctx, network, addr) // every host name is this test server
	}
	tr.Client.Transport.(*bearer).base = &http.Transport{DialContext: dial}
	o.HTTPClient = &http.Client{Transport: &http.Transport{DialContext: dial}}
	err := hostileCall(tr)
	mu.Lock()
	defer mu.Unlock()
	if len(leaked) > 0 {
		t.Fatalf("a 401 from %s (reached by a redirect from %s) started a login at the authorization server it named: token request(s) %q (call error %v)",
			evil, server, leaked, err)
	}
	if err == nil {
		t.Fatal("a 401 from a redirect target gave no error")
	}
}
