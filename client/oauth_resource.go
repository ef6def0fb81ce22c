package client

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
)

// A token is bound to one MCP server, the resource (RFC 8707) the client
// was configured with. Two things tie the login to that server: only
// the server's own challenges start a login (not those of a host a
// redirect led to), and only protected resource metadata naming the
// server itself is used (RFC 9728 §3.3), so the token is requested,
// stored and presented for that server and no other.

// challengeFromServer returns an error unless resp, a 401 or 403, comes
// from the MCP server's origin. A redirect may lead a request elsewhere
// (a proxy, an open redirect); that host's challenge names its own
// resource metadata and authorization server, and acting on it would
// hand it a login and the client's credentials (RFC 9728 §7.3).
func challengeFromServer(serverURL string, resp *http.Response) error {
	su, err := url.Parse(serverURL)
	if err != nil {
		return fmt.Errorf("client: MCP server URL: %w", err)
	}
	if resp.Request == nil || resp.Request.URL == nil || sameOrigin(resp.Request.URL, su) {
		return nil
	}
	return fmt.Errorf("client: HTTP %d from %s, which a redirect from the MCP server %s led to: its authentication challenge is not followed",
		resp.StatusCode, originOf(resp.Request.URL), originOf(su))
}

// originOf is u's scheme://host.
func originOf(u *url.URL) string { return u.Scheme + "://" + u.Host }

// metadataNamesServer reports whether resource, the "resource" of
// protected resource metadata, identifies the MCP server at su. RFC 9728
// §3.3: it must be identical to the resource identifier the well-known
// URL was built from, or for a URL from WWW-Authenticate to the URL the
// request went to; else the metadata must not be used. That identifier
// is the server's URL, and for the root well-known URL (fromRoot), built
// from the server's origin alone, also that origin. Scheme and host
// compare case-insensitively (basic/authorization/, Canonical Server
// URI; the host as it is dialled, sameHost), a default port equals its
// absence and an empty path equals "/" (RFC 3986 §6.2.3); the path and
// query otherwise compare exactly. A resource with a fragment names no
// resource (RFC 8707 §2). A
// resource above the server (a path prefix) is another resource: a token
// issued for it is not the server's.
func metadataNamesServer(resource string, su *url.URL, fromRoot bool) bool {
	r, err := url.Parse(resource)
	// A fragment, an empty one too ("…/mcp#", which url.URL does not
	// record), is not part of a resource identifier (RFC 9728 §2, RFC 8707
	// §2); url.Parse splits at the first "#", so any "#" starts one.
	if err != nil || !r.IsAbs() || r.Host == "" || strings.Contains(resource, "#") || r.User != nil {
		return false
	}
	if sameResource(r, su) {
		return true
	}
	return fromRoot && sameResource(r, &url.URL{Scheme: su.Scheme, Host: su.Host})
}

// sameResource reports whether a and b are one resource identifier:
// one origin, one path (empty being "/") and one query (an empty query,
// "…/mcp?", being one, unlike none: RFC 3986 §6.2.3).
func sameResource(a, b *url.URL) bool {
	return sameOrigin(a, b) && resourcePath(a) == resourcePath(b) &&
		a.RawQuery == b.RawQuery && a.ForceQuery == b.ForceQuery
}

func resourcePath(u *url.URL) string {
	if p := u.EscapedPath(); p != "" {
		return p
	}
	return "/"
}
