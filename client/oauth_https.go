package client

import (
	"fmt"
	"net/url"
	"strings"
)

// The authorization server's endpoints carry the client's credentials,
// codes and tokens, and the authorization endpoint is handed to
// OAuth.Authorize, which opens it (a browser, or whatever the OS runs for
// its scheme). security-considerations.mdx, Communication Security: all
// authorization server endpoints MUST be served over HTTPS (OAuth 2.1
// §1.5; RFC 8414 §2, the issuer is an https URL). The client holds them
// to the MCP server's own scheme: an https server's authorization server
// and metadata are https, and only a plain-http MCP server (one on the
// developer's machine, a test) may use plain-http ones. No other scheme
// is ever used.

// checkSecureURL returns an error unless raw, named what, is an absolute
// URL with a host, whose scheme is https, or http when the MCP server at
// server is plain http itself.
func checkSecureURL(server *url.URL, what, raw string) error {
	return checkSchemeAgainst(server, "the MCP server "+originOf(server), what, raw)
}

// checkSchemeAgainst is checkSecureURL against ref, named refName in the
// error: raw is https, or http when ref is plain http.
func checkSchemeAgainst(ref *url.URL, refName, what, raw string) error {
	u, err := url.Parse(raw)
	if err != nil || !u.IsAbs() || u.Host == "" {
		return fmt.Errorf("client: the %s %q is not an absolute http(s) URL; not used", what, clipURL(raw))
	}
	switch {
	case strings.EqualFold(u.Scheme, "https"):
		return nil
	case strings.EqualFold(u.Scheme, "http") && !strings.EqualFold(ref.Scheme, "https"):
		return nil
	case strings.EqualFold(u.Scheme, "http"):
		return fmt.Errorf("client: the %s %s is plain http while %s is https; not used", what, u.Redacted(), refName)
	}
	return fmt.Errorf("client: the %s %q is not an http(s) URL; not used", what, clipURL(raw))
}

// checkServerEndpoints checks the endpoints of as that the flow may use
// (checkSecureURL).
func checkServerEndpoints(server *url.URL, as *serverMetadata) error {
	for _, ep := range []struct{ name, url string }{
		{"token_endpoint", as.TokenEndpoint},
		{"authorization_endpoint", as.AuthorizationEndpoint},
		{"registration_endpoint", as.RegistrationEndpoint},
	} {
		if ep.url == "" {
			continue
		}
		if err := checkSecureURL(server, as.Issuer+"'s "+ep.name, ep.url); err != nil {
			return err
		}
	}
	return nil
}

// checkIdPEndpoint holds the enterprise IdP's token endpoint, which is
// sent the user's ID token and the client's secret, to checkSecureURL
// against the authorization server's token endpoint asEndpoint (itself
// held to the MCP server's scheme; an https one when unknown); plain http
// on a loopback host, which never leaves the machine, is allowed too.
func checkIdPEndpoint(endpoint, asEndpoint string) error {
	if u, err := url.Parse(endpoint); err == nil && strings.EqualFold(u.Scheme, "http") && isLoopback(u.Hostname()) {
		return nil
	}
	flow, err := url.Parse(asEndpoint)
	if err != nil || !flow.IsAbs() {
		flow = &url.URL{Scheme: "https"}
	}
	return checkSchemeAgainst(flow, "the authorization server's token endpoint", "enterprise IdP token endpoint", endpoint)
}

// clipURL shortens a hostile value for an error message.
func clipURL(s string) string { return string(clipBytes([]byte(s), 100)) }
