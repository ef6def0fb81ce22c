package server

import (
	"net/http"
	"net/textproto"
	"strconv"
	"strings"
	"time"

	"github.com/mcpgen/mcpgen/internal/httpwire"
)

// CORSOptions let web pages of other origins call the MCP endpoint from a
// browser (Cross-Origin Resource Sharing). It is off unless AllowedOrigins
// lists an origin.
//
// A request whose Origin matches AllowedOrigins (the matching rules of
// HTTPOptions.AllowedOrigins: an exact "scheme://host[:port]", a bare host
// name on any scheme and port, "*" for any origin) gets
// Access-Control-Allow-Origin with that origin (and Vary: Origin) and
// Access-Control-Expose-Headers naming the response headers a client
// needs: Mcp-Session-Id (initialize-era sessions), WWW-Authenticate (the
// 401/403 challenges of HTTPOptions.Auth), Retry-After (429, 503), plus
// ExposeHeaders. Its preflight (OPTIONS with Access-Control-Request-Method)
// is answered 204 before authentication, since a browser sends no
// Authorization header on a preflight, with the methods POST, GET and
// DELETE and the request headers an MCP client sends: Content-Type,
// Accept, Authorization, MCP-Protocol-Version, Mcp-Method, Mcp-Name, every
// Mcp-Param-* header the preflight asks for (their names depend on the
// tool), Mcp-Session-Id and Last-Event-ID (initialize-era sessions), plus
// AllowHeaders.
//
// The origins listed here pass the DNS-rebinding Origin check too (they are
// added to HTTPOptions.AllowedOrigins); the Host check still applies, to
// preflights as well. An Origin the check refuses gets 403 as before, its
// preflight included, and a request without Origin (not from a browser) is
// served without CORS headers. "*" lets every web page call the server
// (and turns the Origin check off): use it only with HTTPOptions.Auth.
// Credentialed requests (cookies) are not supported: MCP clients send
// bearer tokens in Authorization, which needs no credentials mode.
type CORSOptions struct {
	// AllowedOrigins are the origins of the web pages that may call the
	// endpoint; empty (the default) turns CORS off. An internationalized
	// host is written in its ASCII form, as browsers send it
	// ("https://xn--bcher-kva.example"; see HTTPOptions.AllowedOrigins).
	AllowedOrigins []string
	// AllowHeaders are request headers allowed besides the MCP ones.
	AllowHeaders []string
	// ExposeHeaders are response headers exposed besides the MCP ones.
	ExposeHeaders []string
	// MaxAge is how long a browser may cache a preflight's answer (default
	// 2 hours, Chromium's cap; a negative value sends none).
	MaxAge time.Duration
}

// MCP's request and response headers under CORS.
var (
	corsRequestHeaders = []string{"Content-Type", "Accept", "Authorization", httpwire.HeaderProtocolVersion,
		httpwire.HeaderMethod, httpwire.HeaderName, "Mcp-Session-Id", "Last-Event-ID"}
	corsResponseHeaders = []string{"Mcp-Session-Id", "WWW-Authenticate", "Retry-After"}
)

const (
	corsMethods       = "POST, GET, DELETE"
	defaultCORSMaxAge = 2 * time.Hour
)

// corsPolicy is CORSOptions ready to serve.
type corsPolicy struct {
	origins httpwire.OriginPolicy // AllowedOrigins only: Check matches the Origin header
	allow   map[string]bool       // canonical names of the allowed request headers
	extra   []string              // CORSOptions.AllowHeaders
	expose  string
	maxAge  string // "" for none
}

func newCORSPolicy(o CORSOptions) *corsPolicy {
	if len(o.AllowedOrigins) == 0 {
		return nil
	}
	c := &corsPolicy{origins: httpwire.OriginPolicy{AllowedOrigins: o.AllowedOrigins}, allow: map[string]bool{}}
	for _, h := range append(append([]string(nil), corsRequestHeaders...), o.AllowHeaders...) {
		c.allow[textproto.CanonicalMIMEHeaderKey(strings.TrimSpace(h))] = true
	}
	for _, h := range o.AllowHeaders {
		if h = strings.TrimSpace(h); validToken(h) {
			c.extra = append(c.extra, h)
		}
	}
	c.expose = strings.Join(append(append([]string(nil), corsResponseHeaders...), o.ExposeHeaders...), ", ")
	switch {
	case o.MaxAge == 0:
		c.maxAge = strconv.Itoa(int(defaultCORSMaxAge.Seconds()))
	case o.MaxAge > 0:
		c.maxAge = strconv.FormatInt(int64(o.MaxAge.Seconds()), 10)
	}
	return c
}

// withCORS wraps h with the CORS headers and preflight answers of policy
// (nil: h itself).
func (h *httpHandler) withCORS(c *corsPolicy) http.Handler {
	if c == nil {
		return h
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if c.serve(w, r, h.policy) {
			return
		}
		h.ServeHTTP(w, r)
	})
}

// serve adds the CORS response headers for an allowed Origin and answers
// its preflight (true: answered). A request without Origin, or with one
// CORS does not allow, is left alone: the handler's Origin check answers
// it.
func (c *corsPolicy) serve(w http.ResponseWriter, r *http.Request, policy httpwire.OriginPolicy) bool {
	origins := r.Header.Values("Origin")
	if len(origins) != 1 || c.origins.Check(r) != nil {
		return false
	}
	preflight := r.Method == http.MethodOptions && r.Header.Get("Access-Control-Request-Method") != ""
	if preflight {
		if rej := policy.Check(r); rej != nil { // the Host check
			_ = rej.Write(w, nil)
			return true
		}
	}
	hd := w.Header()
	hd.Add("Vary", "Origin")
	hd.Set("Access-Control-Allow-Origin", strings.TrimSpace(origins[0]))
	if !preflight {
		hd.Set("Access-Control-Expose-Headers", c.expose)
		return false
	}
	hd.Add("Vary", "Access-Control-Request-Method, Access-Control-Request-Headers")
	hd.Set("Access-Control-Allow-Methods", corsMethods)
	if allowed := c.allowedHeaders(r.Header.Values("Access-Control-Request-Headers")); allowed != "" {
		hd.Set("Access-Control-Allow-Headers", allowed)
	}
	if c.maxAge != "" {
		hd.Set("Access-Control-Max-Age", c.maxAge)
	}
	w.WriteHeader(http.StatusNoContent)
	return true
}

// allowedHeaders lists the headers a preflight asked for that may be sent
// (a header it asks for and may not send is left out, so the browser
// refuses the request), then the MCP ones it did not ask for. Mcp-Param-*
// names depend on the tool, so each one asked for is allowed by its
// prefix.
func (c *corsPolicy) allowedHeaders(requested []string) string {
	var out []string
	seen := map[string]bool{}
	add := func(name string) {
		key := textproto.CanonicalMIMEHeaderKey(name)
		if !seen[key] {
			seen[key] = true
			out = append(out, name)
		}
	}
	for _, v := range requested {
		for name := range strings.SplitSeq(v, ",") {
			name = strings.TrimSpace(name)
			key := textproto.CanonicalMIMEHeaderKey(name)
			if name == "" || len(out) >= 64 {
				continue
			}
			if c.allow[key] || (strings.HasPrefix(key, httpwire.ParamHeaderPrefix) && len(key) > len(httpwire.ParamHeaderPrefix) && validToken(name)) {
				add(name)
			}
		}
	}
	for _, name := range corsRequestHeaders {
		add(name)
	}
	for _, name := range c.extra {
		add(name)
	}
	return strings.Join(out, ", ")
}

// validToken reports whether s is an HTTP token (RFC 9110 §5.6.2), the
// syntax of a header name.
func validToken(s string) bool {
	for i := 0; i < len(s); i++ {
		b := s[i]
		switch {
		case b >= 'a' && b <= 'z', b >= 'A' && b <= 'Z', b >= '0' && b <= '9':
		case strings.IndexByte("!#$%&'*+-.^_`|~", b) >= 0:
		default:
			return false
		}
	}
	return s != ""
}
