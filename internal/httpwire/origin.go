package httpwire

import (
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
)

// OriginPolicy guards the MCP endpoint against DNS rebinding and foreign
// web pages ("Security & Endpoint": servers MUST validate the Origin header
// on all incoming connections; a present and invalid Origin MUST get 403).
//
// The zero policy accepts requests without an Origin header (non-browser
// clients) and rejects every request that carries one; it does not check
// Host. net/http's CrossOriginProtection is no substitute: it accepts an
// Origin whose host equals the Host header, which is exactly what a
// DNS-rebinding page sends (Origin and Host both name the attacker's domain).
type OriginPolicy struct {
	// AllowedOrigins lists the accepted Origin header values. An entry with
	// a scheme ("https://app.example.com", "http://localhost:5173") matches
	// that exact origin (scheme and host case-insensitive, default ports
	// implied); an entry without one ("localhost", "::1") matches that host
	// on any scheme and port; "*" matches any origin; "null" matches the
	// opaque origin "null".
	AllowedOrigins []string
	// AllowedHosts lists the accepted host names of the Host header (port
	// ignored, IPv6 without brackets, case-insensitive); "*" matches any.
	// Empty means the Host header is not checked.
	AllowedHosts []string
}

// loopbackNames are the host names a loopback-bound server answers to.
var loopbackNames = []string{"localhost", "127.0.0.1", "::1"}

// LoopbackPolicy is the policy for a server bound to a loopback address:
// Host must be localhost, 127.0.0.1 or [::1] (any port), and an Origin, when
// present, must have one of those hosts (any scheme and port). This is what
// the conformance scenario dns-rebinding-protection probes: Host
// evil.example.com + Origin http://evil.example.com must get a 4xx, and the
// server's own host:port in both must be served.
func LoopbackPolicy() OriginPolicy {
	return OriginPolicy{AllowedOrigins: append([]string(nil), loopbackNames...), AllowedHosts: append([]string(nil), loopbackNames...)}
}

// Check validates the Host and Origin headers of r and returns nil to
// accept or a 403 Forbidden rejection whose JSON-RPC error (-32600) must be
// written without an id (the body MAY be such an error).
func (p OriginPolicy) Check(r *http.Request) *Rejection {
	if len(p.AllowedHosts) > 0 && !p.hostAllowed(r.Host) {
		return forbidden("Forbidden: Host header %s is not allowed", clip(r.Host))
	}
	origins := r.Header.Values("Origin")
	switch len(origins) {
	case 0:
		return nil
	case 1:
	default:
		return forbidden("Forbidden: more than one Origin header")
	}
	origin := strings.TrimSpace(origins[0])
	if !p.originAllowed(origin) {
		return forbidden("Forbidden: Origin %s is not allowed", clip(origin))
	}
	return nil
}

func (p OriginPolicy) hostAllowed(hostport string) bool {
	host := hostOnly(hostport)
	if host == "" {
		return false
	}
	for _, a := range p.AllowedHosts {
		if a == "*" || strings.EqualFold(strings.Trim(a, "[]"), host) {
			return true
		}
	}
	return false
}

func (p OriginPolicy) originAllowed(origin string) bool {
	scheme, host, port, ok := parseOrigin(origin)
	for _, a := range p.AllowedOrigins {
		switch {
		case a == "*":
			return true
		case a == "null" || origin == "null":
			if a == origin {
				return true
			}
		case !ok:
		case strings.Contains(a, "://"):
			as, ah, ap, aok := parseOrigin(a)
			if aok && as == scheme && ah == host && ap == port {
				return true
			}
		case strings.EqualFold(strings.Trim(a, "[]"), host):
			return true
		}
	}
	return false
}

// parseOrigin splits a serialized origin "scheme://host[:port]" into
// lower-case scheme and host (IPv6 without brackets) and the port, with the
// scheme's default port filled in. A path, query, fragment or user info
// makes it invalid.
func parseOrigin(s string) (scheme, host, port string, ok bool) {
	u, err := url.Parse(s)
	if err != nil || u.Scheme == "" || u.Host == "" || u.User != nil ||
		(u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.Fragment != "" || u.Opaque != "" {
		return "", "", "", false
	}
	scheme = strings.ToLower(u.Scheme)
	host = strings.ToLower(u.Hostname())
	port = u.Port()
	if port == "" {
		switch scheme {
		case "http":
			port = "80"
		case "https":
			port = "443"
		}
	}
	return scheme, host, port, host != ""
}

// hostOnly returns the lower-case host name of a Host header value,
// without port or IPv6 brackets.
func hostOnly(hostport string) string {
	hostport = strings.TrimSpace(hostport)
	if host, _, err := net.SplitHostPort(hostport); err == nil {
		return strings.ToLower(host)
	}
	return strings.ToLower(strings.Trim(hostport, "[]"))
}

func forbidden(format string, args ...any) *Rejection {
	return &Rejection{Status: http.StatusForbidden, Code: CodeInvalidRequest, Message: fmt.Sprintf(format, args...)}
}
