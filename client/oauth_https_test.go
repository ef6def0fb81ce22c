package client

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
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
