package client

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
)

// An HTTP client a caller hands in (OAuth.HTTPClient,
// EnterpriseIdP.HTTPClient) follows redirects as its CheckRedirect says,
// net/http's default following any, plain http too: a 307 or 308 from a
// token endpoint posts the grant and the client's credentials (a Basic
// Authorization net/http keeps for the same host) again. The flow's
// clients hold every redirect to the URL the request started from first.

// holdRedirects returns a copy of c whose redirects are followed only to
// a URL no weaker than the first request's and the one redirecting
// (redirectNoWeaker: an http → https → http chain steps down from https
// too), then as c's own CheckRedirect says (none: net/http's bound of
// maxMetadataRedirects).
func holdRedirects(c http.Client) *http.Client {
	own := c.CheckRedirect
	c.CheckRedirect = func(req *http.Request, via []*http.Request) error {
		if len(via) > 0 {
			if err := redirectNoWeaker(via[0].URL, req.URL); err != nil {
				return err
			}
			if err := redirectNoWeaker(via[len(via)-1].URL, req.URL); err != nil {
				return err
			}
		}
		if own != nil {
			return own(req, via)
		}
		if len(via) >= maxMetadataRedirects { // net/http's own bound, which a CheckRedirect replaces
			return fmt.Errorf("stopped after %d redirects", maxMetadataRedirects)
		}
		return nil
	}
	return &c
}

// redirectNoWeaker returns an error unless hop, a redirect of a request
// that started at first, is https, or plain http where first was plain
// http and hop is on loopback or first was not: an https request is not
// led to plain http, nor a loopback one to plain http on the network.
func redirectNoWeaker(first, hop *url.URL) error {
	switch {
	case strings.EqualFold(hop.Scheme, "https"):
		return nil
	case !strings.EqualFold(hop.Scheme, "http"):
		return fmt.Errorf("client: a redirect from %s to %q, not an http(s) URL; not followed", first.Redacted(), clipURL(hop.String()))
	case strings.EqualFold(first.Scheme, "https"):
		return fmt.Errorf("client: a redirect from %s to %s, plain http; not followed", first.Redacted(), hop.Redacted())
	case isLoopback(first.Hostname()) && !isLoopback(hop.Hostname()):
		return fmt.Errorf("client: a redirect from %s on loopback to %s, plain http on the network; not followed", first.Redacted(), hop.Redacted())
	}
	return nil
}
