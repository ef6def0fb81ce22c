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

// The tests here compare hosts as net/http dials them (oauth_origin.go):
// σ.example and ς.example (Greek small sigma and final sigma) are equal
// under Unicode case folding but two DNS names, xn--4xa.example and
// xn--3xa.example, under the IDNA Lookup profile net/http uses.

// TestMetadataForIDNADistinctHostIsAnotherResource: the MCP server is
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
func TestMetadataForIDNADistinctHostIsAnotherResource(t *testing.T) {
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

// TestTokenNotSentToIDNADistinctHost: as above, for the token itself:
// the client logged in to https://σ.example/mcp, and a redirect leads a
// request to https://ς.example/…, another host (it is dialled as
// xn--3xa.example). README: "a token goes only to its resource's origin,
// not along a redirect to another"; OAuthHTTP doc: "a redirect to another
// origin is followed without it".
func TestTokenNotSentToIDNADistinctHost(t *testing.T) {
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

// TestTokenNotSentAlongRedirectToIDNADistinctHost: end to end, the leak
// TestTokenNotSentToIDNADistinctHost shows. The MCP server is
// http://σ.test:PORT/mcp; after the login it redirects the request to
// http://ς.test:PORT/mcp, another host (net/http dials and names it
// xn--3xa.test, the server xn--4xa.test). README: "a token goes only to
// its resource's origin, not along a redirect to another".
func TestTokenNotSentAlongRedirectToIDNADistinctHost(t *testing.T) {
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

// TestChallengeFromIDNADistinctHostStartsNoLogin: the fix of
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
func TestChallengeFromIDNADistinctHostStartsNoLogin(t *testing.T) {
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

// TestHostsCompareAsDialled: sameHost is true exactly when net/http
// dials the two hosts as one name: ASCII in any case; a Unicode name
// equal to its IDNA form (or to another spelling of it, Σ being mapped
// to σ); never for names the IDNA Lookup profile keeps apart, nor for a
// name it refuses.
func TestHostsCompareAsDialled(t *testing.T) {
	for _, c := range []struct {
		a, b string
		same bool
	}{
		{"mcp.example.com", "MCP.Example.COM", true},
		{"σ.example", "σ.example", true},
		{"σ.example", "Σ.example", true},
		{"σ.example", "XN--4XA.example", true},
		{"σ.example", "ς.example", false},
		{"ς.example", "xn--3xa.example", true},
		{"bücher.example", "xn--bcher-kva.example", true},
		{"bücher.example", "bucher.example", false},
		{"σ_x.example", "σ_x.example", false}, // refused by the STD3 rules
		{"my_host", "MY_HOST", true},          // ASCII is sent as it is
	} {
		if got := sameHost(c.a, c.b); got != c.same {
			t.Errorf("sameHost(%q, %q) = %v, want %v", c.a, c.b, got, c.same)
		}
	}
}

// TestSSEEndpointOnIDNADistinctHostIsRefused: the legacy HTTP+SSE
// endpoint event must name the stream's origin; ς.test is another host
// than σ.test (the endpoint would receive every message of the session).
func TestSSEEndpointOnIDNADistinctHostIsRefused(t *testing.T) {
	base, _ := url.Parse("http://σ.test:8080/sse")
	if _, err := sseEndpoint(base, "http://ς.test:8080/messages"); err == nil {
		t.Error("an endpoint on ς.test was taken for the origin of a stream from σ.test")
	}
	if _, err := sseEndpoint(base, "http://Σ.test:8080/messages"); err != nil {
		t.Errorf("an endpoint on Σ.test (dialled as σ.test) refused: %v", err)
	}
}
