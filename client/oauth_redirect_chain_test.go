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

// TestRedirectChainNeverStepsDownFromHTTPS: the enterprise IdP's token
// endpoint is plain http on loopback (allowed: a development IdP); it
// answers 307 to an https URL on the network, which answers 307 back to
// plain http. README: "whatever the HTTPClient given to OAuth or the IdP
// would follow, no redirect of the flow leads from https to plain http":
// the second hop is such a redirect, and posts the user's ID token again
// over plain http. Each hop is held to the one it came from as well as
// to the first.
func TestRedirectChainNeverStepsDownFromHTTPS(t *testing.T) {
	var downgraded atomic.Int32
	rt := roundTripper(func(r *http.Request) (*http.Response, error) {
		rec := httptest.NewRecorder()
		switch {
		case r.URL.Scheme == "http" && r.URL.Path == "/token":
			http.Redirect(rec, r, "https://idp.example/token", http.StatusTemporaryRedirect)
		case r.URL.Scheme == "https":
			http.Redirect(rec, r, "http://127.0.0.1/again", http.StatusTemporaryRedirect)
		default:
			downgraded.Add(1)
			return nil, errors.New("no network in this test")
		}
		resp := rec.Result()
		resp.Request = r
		return resp, nil
	})
	p := &EnterpriseIdP{TokenEndpoint: "http://127.0.0.1/token", ClientID: "c",
		IDToken:    func(context.Context) (string, error) { return "id-token", nil },
		HTTPClient: &http.Client{Transport: rt}}
	_, err := p.Assertion(context.Background(), AssertionTarget{Issuer: "https://as.example",
		TokenEndpoint: "https://as.example/token", Resource: "https://mcp.example/mcp"})
	if err == nil || downgraded.Load() != 0 {
		t.Fatalf("the redirect from https to plain http was followed (%d requests): %v", downgraded.Load(), err)
	}
	if !strings.Contains(err.Error(), "plain http") {
		t.Errorf("err = %v, want it to say the hop is plain http", err)
	}
}
