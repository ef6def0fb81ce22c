package client

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
)

// TestFollowRedirectsRefusesDowngradeToPlainHTTP: an https authorization
// endpoint (checked against the MCP server's scheme, oauth_https.go)
// redirects the user agent to a plain-http URL that is not the redirect
// URI. FollowRedirects followed it, sending the authorization request's
// state in the clear; every other authorization server URL the client uses
// must be https unless the MCP server is plain http. The hop is refused
// and not fetched.
func TestFollowRedirectsRefusesDowngradeToPlainHTTP(t *testing.T) {
	var plainHits atomic.Int32
	plain := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		plainHits.Add(1)
		http.Redirect(w, r, "http://127.0.0.1:1/callback?code=c", http.StatusFound)
	}))
	defer plain.Close()
	as := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, plain.URL+"/login?"+r.URL.RawQuery, http.StatusFound)
	}))
	defer as.Close()
	authorize := FollowRedirects(as.Client(), "http://127.0.0.1:1/callback")
	got, err := authorize(context.Background(), as.URL+"/authorize?state=s")
	if err == nil || plainHits.Load() != 0 {
		t.Fatalf("an https authorization endpoint's redirect to plain http was followed (%d requests), result %v, err %v",
			plainHits.Load(), got, err)
	}
	if !strings.Contains(err.Error(), "plain http") {
		t.Errorf("err = %v, want it to say the hop is plain http", err)
	}
}

// TestEnterpriseIdPRefusesPlainHTTPTokenEndpoint: the enterprise IdP's
// token endpoint receives the user's ID token and the client's secret.
// A plain-http one on a network host was called for an https
// authorization server; it must be https, as the authorization server's
// endpoints are, unless the flow is plain http itself or the IdP is on a
// loopback host.
func TestEnterpriseIdPRefusesPlainHTTPTokenEndpoint(t *testing.T) {
	var calls atomic.Int32
	p := &EnterpriseIdP{TokenEndpoint: "http://idp.example/token", ClientID: "c", ClientSecret: "secret",
		IDToken: func(context.Context) (string, error) { return "id-token", nil },
		HTTPClient: &http.Client{Transport: roundTripper(func(*http.Request) (*http.Response, error) {
			calls.Add(1)
			return nil, errors.New("no network in this test")
		})}}
	target := AssertionTarget{Issuer: "https://as.example", TokenEndpoint: "https://as.example/token", Resource: "https://mcp.example/mcp"}
	_, err := p.Assertion(context.Background(), target)
	if err == nil || calls.Load() != 0 {
		t.Fatalf("a plain-http IdP token endpoint was called (%d requests) for an https authorization server: %v", calls.Load(), err)
	}
	if !strings.Contains(err.Error(), "plain http") {
		t.Errorf("err = %v, want it to say the endpoint is plain http", err)
	}
}

type roundTripper func(*http.Request) (*http.Response, error)

func (f roundTripper) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// TestPlainHTTPAuthorizationServerOffLoopbackIsRefused: a plain-http MCP
// server on a network host names a plain-http authorization server on a
// network host. The client held the authorization server only to the MCP
// server's scheme ("no weaker"), so it fetched the metadata and ran the
// flow in the clear. security-considerations.mdx: all authorization
// server endpoints MUST be served over HTTPS (OAuth 2.1 §1.5); plain http
// is accepted on loopback only. The login fails before the authorization
// server is asked anything.
func TestPlainHTTPAuthorizationServerOffLoopbackIsRefused(t *testing.T) {
	var asRequests, authorizations atomic.Int32
	rt := roundTripper(func(r *http.Request) (*http.Response, error) {
		rec := httptest.NewRecorder()
		switch {
		case r.URL.Host == "as.example":
			asRequests.Add(1)
			_ = json.NewEncoder(rec).Encode(map[string]any{"issuer": "http://as.example",
				"authorization_endpoint": "http://as.example/authorize", "token_endpoint": "http://as.example/token",
				"code_challenge_methods_supported": []string{"S256"}})
		case r.URL.Path == "/.well-known/oauth-protected-resource/mcp":
			_ = json.NewEncoder(rec).Encode(map[string]any{"resource": "http://mcp.example/mcp", "authorization_servers": []string{"http://as.example"}})
		default:
			rec.Header().Set("WWW-Authenticate", `Bearer resource_metadata="http://mcp.example/.well-known/oauth-protected-resource/mcp"`)
			rec.WriteHeader(http.StatusUnauthorized)
		}
		resp := rec.Result()
		resp.Request = r
		return resp, nil
	})
	o := &OAuth{RedirectURL: "http://127.0.0.1:1/cb", ClientID: "c1", HTTPClient: &http.Client{Transport: rt},
		Authorize: func(context.Context, string) (*url.URL, error) {
			authorizations.Add(1)
			return nil, errors.New("no user here")
		}}
	tr := OAuthHTTP("http://mcp.example/mcp", o)
	tr.Client = &http.Client{Transport: &bearer{o: o, base: rt}}
	err := hostileCall(tr)
	if err == nil || asRequests.Load() != 0 || authorizations.Load() != 0 {
		t.Fatalf("a plain-http authorization server on a network host was used (%d metadata requests, %d authorizations): %v",
			asRequests.Load(), authorizations.Load(), err)
	}
	if !strings.Contains(err.Error(), "plain http") || !strings.Contains(err.Error(), "http://as.example") {
		t.Errorf("err = %v, want it to name the plain-http authorization server", err)
	}
}

// TestAuthorizationServerURLsAreHTTPSOffLoopback: an authorization
// server's URLs are https, or plain http on a loopback host for a
// plain-http MCP server; a plain-http MCP server on the network does not
// make a plain-http authorization server on the network acceptable.
func TestAuthorizationServerURLsAreHTTPSOffLoopback(t *testing.T) {
	secure, _ := url.Parse("https://mcp.example.com/mcp")
	local, _ := url.Parse("http://127.0.0.1:8080/mcp")
	plain, _ := url.Parse("http://mcp.example.com/mcp")
	for _, c := range []struct {
		server *url.URL
		raw    string
		ok     bool
	}{
		{secure, "https://as.example.com/token", true},
		{secure, "http://127.0.0.1:9000/token", false},
		{local, "http://127.0.0.1:9000/token", true},
		{local, "http://localhost:9000/token", true},
		{local, "http://[::1]:9000/token", true},
		{local, "http://as.example.com/token", false},
		{plain, "http://as.example.com/token", false},
		{plain, "http://10.0.0.1/token", false},
		{plain, "http://127.0.0.1:9000/token", true},
		{plain, "https://as.example.com/token", true},
	} {
		err := checkAuthorizationServerURL(c.server, "the MCP server", "token_endpoint", c.raw)
		if (err == nil) != c.ok {
			t.Errorf("%q for the MCP server %s: %v, want accepted %v", c.raw, c.server, err, c.ok)
		}
	}
}

// TestFollowRedirectsRefusesPlainHTTPOffLoopback: FollowRedirects held
// each hop only to the authorization URL's scheme, so a plain-http
// authorization URL on loopback could send the user agent (state and all)
// to a plain-http network host, and a plain-http network authorization
// URL was fetched. Both are refused, not fetched.
func TestFollowRedirectsRefusesPlainHTTPOffLoopback(t *testing.T) {
	for _, c := range []struct{ start, hop string }{
		{"http://127.0.0.1:9/authorize?state=s", "http://login.example/authorize?state=s"},
		{"http://as.example/authorize?state=s", "http://127.0.0.1:1/callback?code=c&state=s"},
	} {
		var network atomic.Int32
		hc := &http.Client{Transport: roundTripper(func(r *http.Request) (*http.Response, error) {
			if !isLoopback(r.URL.Hostname()) {
				network.Add(1)
			}
			rec := httptest.NewRecorder()
			http.Redirect(rec, r, c.hop, http.StatusFound)
			return rec.Result(), nil
		})}
		got, err := FollowRedirects(hc, "http://127.0.0.1:1/callback")(context.Background(), c.start)
		if err == nil || network.Load() != 0 {
			t.Errorf("%s → %s: %d plain-http requests to a network host, result %v, err %v; want it refused, not fetched",
				c.start, c.hop, network.Load(), got, err)
		} else if !strings.Contains(err.Error(), "plain http") {
			t.Errorf("%s → %s: err = %v, want it to say the hop is plain http", c.start, c.hop, err)
		}
	}
}

// TestEnterpriseIdPRefusesPlainHTTPEvenForPlainHTTPAuthorizationServer:
// the IdP's token endpoint was allowed plain http on a network host
// whenever the authorization server's token endpoint was plain http; it
// gets the user's ID token and the client's secret, and is held to https
// (or loopback) whatever the authorization server's scheme.
func TestEnterpriseIdPRefusesPlainHTTPEvenForPlainHTTPAuthorizationServer(t *testing.T) {
	var calls atomic.Int32
	p := &EnterpriseIdP{TokenEndpoint: "http://idp.example/token", ClientID: "c", ClientSecret: "secret",
		IDToken: func(context.Context) (string, error) { return "id-token", nil },
		HTTPClient: &http.Client{Transport: roundTripper(func(*http.Request) (*http.Response, error) {
			calls.Add(1)
			return nil, errors.New("no network in this test")
		})}}
	target := AssertionTarget{Issuer: "http://127.0.0.1:9", TokenEndpoint: "http://127.0.0.1:9/token", Resource: "http://127.0.0.1:8/mcp"}
	_, err := p.Assertion(context.Background(), target)
	if err == nil || calls.Load() != 0 {
		t.Fatalf("a plain-http IdP token endpoint on a network host was called (%d requests): %v", calls.Load(), err)
	}
	if !strings.Contains(err.Error(), "plain http") {
		t.Errorf("err = %v, want it to say the endpoint is plain http", err)
	}
}

// TestEnterpriseIdPRefusesARedirectToPlainHTTP: the IdP's https token
// endpoint answers 307 to a plain-http URL on a network host. The HTTP
// client followed it and posted the form again there, the user's ID token
// (subject_token) in the clear; every hop of the exchange is held to the
// token endpoint's rule (https, or plain http on loopback), whatever
// EnterpriseIdP.HTTPClient's own CheckRedirect allows.
func TestEnterpriseIdPRefusesARedirectToPlainHTTP(t *testing.T) {
	var plain atomic.Int32
	rt := roundTripper(func(r *http.Request) (*http.Response, error) {
		if r.URL.Scheme == "http" {
			plain.Add(1)
			return nil, errors.New("no network in this test")
		}
		rec := httptest.NewRecorder()
		http.Redirect(rec, r, "http://idp.example/token", http.StatusTemporaryRedirect)
		resp := rec.Result()
		resp.Request = r
		return resp, nil
	})
	p := &EnterpriseIdP{TokenEndpoint: "https://idp.example/token", ClientID: "c",
		IDToken:    func(context.Context) (string, error) { return "id-token", nil },
		HTTPClient: &http.Client{Transport: rt}}
	_, err := p.Assertion(context.Background(), AssertionTarget{Issuer: "https://as.example",
		TokenEndpoint: "https://as.example/token", Resource: "https://mcp.example/mcp"})
	if err == nil || plain.Load() != 0 {
		t.Fatalf("the redirect to plain http was followed (%d requests): %v", plain.Load(), err)
	}
	if !strings.Contains(err.Error(), "plain http") {
		t.Errorf("err = %v, want it to say the hop is plain http", err)
	}
}

// TestOAuthHTTPClientRefusesARedirectToPlainHTTP: with OAuth.HTTPClient
// set (its CheckRedirect net/http's default), the https token endpoint
// answers 307 to plain http on the same host. The client followed it and
// posted the client secret (Basic, kept by net/http for the same host)
// and the grant again in the clear. Every redirect of the flow is held to
// be no weaker than the URL it started from, whatever the HTTPClient.
func TestOAuthHTTPClientRefusesARedirectToPlainHTTP(t *testing.T) {
	var plain atomic.Int32
	rt := roundTripper(func(r *http.Request) (*http.Response, error) {
		if r.URL.Scheme == "http" {
			plain.Add(1)
			return nil, errors.New("no network in this test")
		}
		rec := httptest.NewRecorder()
		switch r.URL.Host + r.URL.Path {
		case "mcp.example/.well-known/oauth-protected-resource/mcp":
			_ = json.NewEncoder(rec).Encode(map[string]any{"resource": "https://mcp.example/mcp", "authorization_servers": []string{"https://as.example"}})
		case "as.example/.well-known/oauth-authorization-server":
			_ = json.NewEncoder(rec).Encode(map[string]any{"issuer": "https://as.example", "token_endpoint": "https://as.example/token"})
		case "as.example/token":
			http.Redirect(rec, r, "http://as.example/token", http.StatusTemporaryRedirect)
		default:
			rec.Header().Set("WWW-Authenticate", `Bearer resource_metadata="https://mcp.example/.well-known/oauth-protected-resource/mcp"`)
			rec.WriteHeader(http.StatusUnauthorized)
		}
		resp := rec.Result()
		resp.Request = r
		return resp, nil
	})
	o := &OAuth{ClientID: "svc", ClientSecret: "s3cret", ClientCredentials: true, HTTPClient: &http.Client{Transport: rt}}
	tr := OAuthHTTP("https://mcp.example/mcp", o)
	tr.Client = &http.Client{Transport: &bearer{o: o, base: rt}}
	err := hostileCall(tr)
	if err == nil || plain.Load() != 0 {
		t.Fatalf("the token endpoint's redirect to plain http was followed (%d requests): %v", plain.Load(), err)
	}
	if !strings.Contains(err.Error(), "plain http") {
		t.Errorf("err = %v, want it to say the hop is plain http", err)
	}
}
