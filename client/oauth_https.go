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
// to https whatever the MCP server's scheme, and allows plain http only on
// a loopback host (a development server; OAuth 2.1 §1.5 excepts loopback
// interface redirects too) and only for a plain-http MCP server: an https
// server's authorization server is https. No other scheme is ever used.

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

// checkAuthorizationServerURL returns an error unless raw, an
// authorization server URL named what, passes checkSchemeAgainst ref
// (named refName) and, when plain http, is on a loopback host: an http
// authorization server on the network is refused whatever ref's scheme.
func checkAuthorizationServerURL(ref *url.URL, refName, what, raw string) error {
	if err := checkSchemeAgainst(ref, refName, what, raw); err != nil {
		return err
	}
	if u, _ := url.Parse(raw); strings.EqualFold(u.Scheme, "http") && !isLoopback(u.Hostname()) {
		return fmt.Errorf("client: the %s %s is plain http on a host that is not loopback; authorization server endpoints must be https (OAuth 2.1 §1.5); not used",
			what, u.Redacted())
	}
	return nil
}

// checkServerEndpoints checks the endpoints of as that the flow may use
// (checkAuthorizationServerURL against the MCP server).
func checkServerEndpoints(server *url.URL, as *serverMetadata) error {
	for _, ep := range []struct{ name, url string }{
		{"token_endpoint", as.TokenEndpoint},
		{"authorization_endpoint", as.AuthorizationEndpoint},
		{"registration_endpoint", as.RegistrationEndpoint},
	} {
		if ep.url == "" {
			continue
		}
		if err := checkAuthorizationServerURL(server, "the MCP server "+originOf(server), as.Issuer+"'s "+ep.name, ep.url); err != nil {
			return err
		}
	}
	return nil
}

// checkIdPEndpoint holds the enterprise IdP's token endpoint, which is
// sent the user's ID token and the client's secret, to https, or plain
// http on a loopback host, which never leaves the machine, whatever the
// authorization server's scheme (checkAuthorizationServerURL).
func checkIdPEndpoint(endpoint string) error {
	if u, err := url.Parse(endpoint); err == nil && strings.EqualFold(u.Scheme, "http") && isLoopback(u.Hostname()) {
		return nil
	}
	return checkAuthorizationServerURL(&url.URL{Scheme: "https"}, "an identity provider", "enterprise IdP token endpoint", endpoint)
}

// clipURL shortens a hostile value for an error message.
func clipURL(s string) string { return string(clipBytes([]byte(s), 100)) }
