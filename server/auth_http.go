package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/mcpgen/mcpgen/internal/httpwire"
	"github.com/mcpgen/mcpgen/jsonrpc"
)

// AuthOptions configure a protected Streamable HTTP endpoint (an OAuth 2.1
// resource server, basic/authorization/).
type AuthOptions struct {
	// Verifier checks every request's bearer token. Required.
	Verifier TokenVerifier
	// Resource is the server's canonical URI (RFC 8707, RFC 9728
	// "resource"): the MCP endpoint's absolute URL, e.g.
	// "https://mcp.example.com/mcp", with no fragment. Tokens must be
	// issued for it. Required.
	Resource string
	// AuthorizationServers are the issuer URLs of the authorization
	// servers whose tokens are accepted (RFC 9728
	// "authorization_servers"). At least one is required.
	AuthorizationServers []string
	// ScopesSupported are the scopes a client should ask for up front:
	// the Protected Resource Metadata "scopes_supported" and, unless
	// RequiredScopes is set, the scope of 401 challenges. More scopes are
	// asked for per operation (tool, prompt and resource scopes) by 403
	// challenges, the step-up flow.
	ScopesSupported []string
	// RequiredScopes are needed by every request; a token without them
	// gets 403 insufficient_scope.
	RequiredScopes []string
	// ScopeImplies declares scope hierarchies: a granted key scope also
	// grants the listed scopes (transitively), e.g. {"files:write":
	// {"files:read"}}.
	ScopeImplies map[string][]string
	// HideForbidden leaves the tools, prompts, resources and resource
	// templates the caller lacks scopes for out of the list results
	// (which are then per-caller, cacheScope "private" by default).
	HideForbidden bool
	// ResourceName and ResourceDocumentation fill the metadata document's
	// "resource_name" and "resource_documentation".
	ResourceName, ResourceDocumentation string
}

// Auth is a validated AuthOptions: pass it as HTTPOptions.Auth, and serve
// its Protected Resource Metadata with Mount or MetadataHandler.
type Auth struct {
	opts        AuthOptions
	metadataURL string
	host        string // the resource's host, which Mount serves its document to
	paths       []string
	metadata    []byte
	challenge   []string // the scope of 401 challenges
}

// wellKnownPRM is the RFC 9728 well-known URI suffix.
const wellKnownPRM = "/.well-known/oauth-protected-resource"

// NewAuth checks opts and prepares the metadata document.
func NewAuth(opts AuthOptions) (*Auth, error) {
	var errs []error
	if opts.Verifier == nil {
		errs = append(errs, errors.New("server: AuthOptions.Verifier is required"))
	}
	u, err := canonicalResource(opts.Resource)
	if err != nil {
		errs = append(errs, err)
	}
	if len(opts.AuthorizationServers) == 0 {
		errs = append(errs, errors.New("server: AuthOptions.AuthorizationServers needs at least one issuer URL"))
	}
	for i, as := range opts.AuthorizationServers {
		if p, err := url.Parse(as); err != nil || !p.IsAbs() || p.Host == "" || p.Fragment != "" || p.RawQuery != "" {
			errs = append(errs, fmt.Errorf("server: AuthOptions.AuthorizationServers[%d] %q is not an absolute issuer URL without query or fragment", i, as))
		}
	}
	for _, list := range [][]string{opts.ScopesSupported, opts.RequiredScopes} {
		for _, sc := range list {
			if !validScope(sc) {
				errs = append(errs, fmt.Errorf("server: scope %q is not a valid OAuth scope token", sc))
			}
		}
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	a := &Auth{opts: opts}
	a.opts.ScopeImplies = cloneImplies(opts.ScopeImplies)
	path := strings.TrimSuffix(u.EscapedPath(), "/")
	a.metadataURL = u.Scheme + "://" + u.Host + wellKnownPRM + path
	a.host = u.Host
	a.paths = []string{wellKnownPRM + path}
	if path != "" {
		a.paths = append(a.paths, wellKnownPRM)
	}
	a.challenge = opts.RequiredScopes
	if len(a.challenge) == 0 {
		a.challenge = opts.ScopesSupported
	}
	a.metadata, err = json.Marshal(protectedResourceMetadata{
		Resource:               opts.Resource,
		AuthorizationServers:   opts.AuthorizationServers,
		ScopesSupported:        opts.ScopesSupported,
		BearerMethodsSupported: []string{"header"},
		ResourceName:           opts.ResourceName,
		ResourceDocumentation:  opts.ResourceDocumentation,
	})
	if err != nil {
		return nil, err
	}
	return a, nil
}

func cloneImplies(m map[string][]string) map[string][]string {
	if m == nil {
		return nil
	}
	out := make(map[string][]string, len(m))
	for k, v := range m {
		out[k] = slices.Clone(v)
	}
	return out
}

// canonicalResource parses a canonical server URI: absolute http(s), a
// host, no fragment (basic/authorization/, "Canonical Server URI").
func canonicalResource(s string) (*url.URL, error) {
	u, err := url.Parse(s)
	if err != nil || s == "" {
		return nil, fmt.Errorf("server: AuthOptions.Resource %q is not a URL", s)
	}
	scheme := strings.ToLower(u.Scheme)
	if (scheme != "https" && scheme != "http") || u.Host == "" || u.Fragment != "" || strings.Contains(s, "#") {
		return nil, fmt.Errorf("server: AuthOptions.Resource %q must be an absolute http(s) URL with a host and no fragment, e.g. https://mcp.example.com/mcp", s)
	}
	return u, nil
}

// validScope reports whether s is an RFC 6749 scope-token: one or more of
// %x21 / %x23-5B / %x5D-7E.
func validScope(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x21 || c > 0x7e || c == '"' || c == '\\' {
			return false
		}
	}
	return true
}

// protectedResourceMetadata is the RFC 9728 document.
type protectedResourceMetadata struct {
	Resource               string   `json:"resource"`
	AuthorizationServers   []string `json:"authorization_servers"`
	ScopesSupported        []string `json:"scopes_supported,omitempty"`
	BearerMethodsSupported []string `json:"bearer_methods_supported"`
	ResourceName           string   `json:"resource_name,omitempty"`
	ResourceDocumentation  string   `json:"resource_documentation,omitempty"`
}

// MetadataURL is the absolute URL of the Protected Resource Metadata
// document, sent as resource_metadata in every challenge: the well-known
// suffix inserted between the resource's host and path (RFC 9728 §3.1).
func (a *Auth) MetadataURL() string { return a.metadataURL }

// MetadataPaths are the paths the metadata document is served at: the
// path-inserted well-known URI and, when the resource has a path, the root
// one (authorization-server-discovery.mdx lists both).
func (a *Auth) MetadataPaths() []string { return slices.Clone(a.paths) }

// MetadataHandler serves the Protected Resource Metadata document to GET
// and HEAD (readable cross-origin; no token needed).
func (a *Auth) MetadataHandler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Access-Control-Allow-Origin", "*")
		switch r.Method {
		case http.MethodGet, http.MethodHead:
		case http.MethodOptions:
			w.Header().Set("Access-Control-Allow-Methods", "GET, HEAD, OPTIONS")
			w.WriteHeader(http.StatusNoContent)
			return
		default:
			w.Header().Set("Allow", "GET, HEAD, OPTIONS")
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Cache-Control", "max-age=300")
		if r.Method == http.MethodGet {
			_, _ = w.Write(a.metadata)
		}
	})
}

// grants reports whether info grants every scope of need, directly or
// through ScopeImplies.
func (a *Auth) grants(info *TokenInfo, need []string) bool {
	if len(need) == 0 {
		return true
	}
	if info == nil {
		return false
	}
	have := make(map[string]bool, len(info.Scopes))
	queue := slices.Clone(info.Scopes)
	for len(queue) > 0 {
		sc := queue[len(queue)-1]
		queue = queue[:len(queue)-1]
		if have[sc] {
			continue
		}
		have[sc] = true
		queue = append(queue, a.opts.ScopeImplies[sc]...)
	}
	for _, sc := range need {
		if !have[sc] {
			return false
		}
	}
	return true
}

// challengeScopes are the scopes a 403 names for an operation that needs
// need: every scope the operation requires, the server-wide ones included,
// in one challenge (basic/authorization/, "Scope Challenge Handling").
func (a *Auth) challengeScopes(need []string) []string {
	out := slices.Clone(a.opts.RequiredScopes)
	for _, sc := range need {
		if !slices.Contains(out, sc) {
			out = append(out, sc)
		}
	}
	return out
}

// insufficientScopePrefix begins the message of every insufficientScope error.
const insufficientScopePrefix = "Forbidden: insufficient scope; this operation needs "

// scopeRefusalData is the data of an insufficientScope error.
type scopeRefusalData struct {
	RequiredScopes []string `json:"requiredScopes"`
}

// insufficientScope is the JSON-RPC error of a denied operation (HTTP
// answers 403 with a challenge instead, when it still can).
func insufficientScope(scopes []string) *jsonrpc.Error {
	return jsonrpc.NewError(jsonrpc.CodeInvalidRequest, insufficientScopePrefix+strings.Join(scopes, " "),
		scopeRefusalData{RequiredScopes: scopes})
}

// refusedScopes returns the scopes of e when e is an insufficientScope
// error (as built by it, however a handler passed it on), false otherwise.
func refusedScopes(e *jsonrpc.Error) ([]string, bool) {
	if e.Code != jsonrpc.CodeInvalidRequest || !strings.HasPrefix(e.Message, insufficientScopePrefix) {
		return nil, false
	}
	var d scopeRefusalData
	if json.Unmarshal(e.Data, &d) != nil || len(d.RequiredScopes) == 0 ||
		e.Message != insufficientScopePrefix+strings.Join(d.RequiredScopes, " ") {
		return nil, false
	}
	for _, sc := range d.RequiredScopes {
		if !validScope(sc) {
			return nil, false
		}
	}
	return d.RequiredScopes, true
}

// admit checks Host/Origin and then the bearer token of r. It answers the request itself (and
// returns false) when the token is missing (401), malformed (400), invalid
// or naming neither a subject nor a client (401), or lacks RequiredScopes
// (403); otherwise it returns r with the principal in its context.
func (a *Auth) admit(w http.ResponseWriter, r *http.Request, policy httpwire.OriginPolicy, logger *slog.Logger) (*http.Request, bool) {
	// DNS-rebinding protection comes first: a foreign Origin learns
	// nothing, not even that a token is needed.
	if rej := policy.Check(r); rej != nil {
		_ = rej.Write(w, nil)
		return r, false
	}
	token, status, desc := bearerToken(r)
	if status != 0 {
		code := ""
		if status == http.StatusBadRequest {
			code = "invalid_request"
		}
		a.reject(w, status, code, desc, a.challenge, nil)
		return r, false
	}
	info, err := a.opts.Verifier.VerifyToken(r.Context(), token)
	if err == nil && info == nil {
		err = errors.New("the verifier returned no token information")
	}
	if err == nil && !info.Expiry.IsZero() && time.Now().After(info.Expiry) {
		err = ErrInvalidToken
	}
	if err == nil && info.Subject == "" && info.ClientID == "" {
		// Every such token would be one principal (TokenInfo.key):
		// sharing tasks, sessions, requestState and limits.
		err = fmt.Errorf("%w: the token names neither a subject nor a client", ErrInvalidToken)
	}
	if err != nil {
		if logger != nil {
			logger.Debug("bearer token rejected", "err", err)
		}
		a.reject(w, http.StatusUnauthorized, "invalid_token", "The access token is invalid, expired or not meant for this server", a.challenge, nil)
		return r, false
	}
	if !a.grants(info, a.opts.RequiredScopes) {
		a.reject(w, http.StatusForbidden, "insufficient_scope", "The access token lacks scopes every request needs", a.opts.RequiredScopes, nil)
		return r, false
	}
	return r.WithContext(withAuth(r.Context(), &authState{info: info, gate: a})), true
}

// bearerToken extracts the token of "Authorization: Bearer <token>" (RFC
// 6750 §2.1). A missing header or another scheme is 401 without an error
// code (§3.1: the client may not know it must authenticate); two headers, a
// token in the query (an access_token parameter, however the query is
// written: queryNamesAccessToken) or a token that is not a b64token is 400
// invalid_request.
func bearerToken(r *http.Request) (token string, status int, desc string) {
	if queryNamesAccessToken(r.URL.RawQuery) {
		return "", http.StatusBadRequest, "Access tokens must not be sent in the query string; use the Authorization header"
	}
	vals := r.Header.Values("Authorization")
	switch len(vals) {
	case 0:
		return "", http.StatusUnauthorized, "Authorization required: send Authorization: Bearer <access token>"
	case 1:
	default:
		return "", http.StatusBadRequest, "More than one Authorization header"
	}
	scheme, rest, _ := strings.Cut(vals[0], " ")
	if !strings.EqualFold(scheme, "Bearer") {
		return "", http.StatusUnauthorized, "Authorization required: only the Bearer scheme is accepted"
	}
	rest = strings.TrimLeft(rest, " ")
	if !isB64Token(rest) {
		return "", http.StatusBadRequest, "Malformed Authorization header: want Bearer followed by one token"
	}
	return rest, 0, ""
}

// isB64Token reports whether s is an RFC 6750 b64token:
// 1*( ALPHA / DIGIT / "-" / "." / "_" / "~" / "+" / "/" ) *"=".
func isB64Token(s string) bool {
	n := len(s)
	for n > 0 && s[n-1] == '=' {
		n--
	}
	if n == 0 {
		return false
	}
	for i := 0; i < n; i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' ||
			c == '-' || c == '.' || c == '_' || c == '~' || c == '+' || c == '/') {
			return false
		}
	}
	return true
}

// reject writes an auth error: the status, the WWW-Authenticate challenge
// and a JSON-RPC error body (like every other rejection of the transport).
func (a *Auth) reject(w http.ResponseWriter, status int, code, desc string, scopes []string, id json.RawMessage) {
	w.Header().Set("WWW-Authenticate", a.challengeHeader(code, desc, scopes))
	prefix := "Unauthorized: "
	switch status {
	case http.StatusForbidden:
		prefix = "Forbidden: "
	case http.StatusBadRequest:
		prefix = "Bad Request: "
	}
	_ = (&httpwire.Rejection{Status: status, Code: httpwire.CodeInvalidRequest, Message: prefix + desc}).Write(w, id)
}

// challengeHeader formats a Bearer challenge (RFC 6750 §3, RFC 9728 §5.1).
func (a *Auth) challengeHeader(code, desc string, scopes []string) string {
	var b strings.Builder
	b.WriteString("Bearer ")
	param := func(name, value string) {
		if b.Len() > len("Bearer ") {
			b.WriteString(", ")
		}
		b.WriteString(name)
		b.WriteString(`="`)
		b.WriteString(quoteEscape(value))
		b.WriteByte('"')
	}
	if code != "" {
		param("error", code)
	}
	if len(scopes) > 0 {
		param("scope", strings.Join(scopes, " "))
	}
	param("resource_metadata", a.metadataURL)
	if desc != "" && code != "" {
		param("error_description", desc)
	}
	return b.String()
}

// quoteEscape makes s safe inside a quoted-string: error_description may
// only hold %x20-21 / %x23-5B / %x5D-7E, so quotes, backslashes and
// non-printable bytes are dropped.
func quoteEscape(s string) string {
	return strings.Map(func(r rune) rune {
		if r < 0x20 || r > 0x7e || r == '"' || r == '\\' {
			return -1
		}
		return r
	}, s)
}

// finishDenied ends the response with 403 insufficient_scope, instead of
// the JSON-RPC error the core returned, when that error refused the request
// for want of scopes (noteRefusal) and nothing was streamed yet; it reports
// whether it did. Once an SSE stream is open the JSON-RPC error is sent on
// it instead.
func (st *httpStream) finishDenied(r *http.Request, id jsonrpc.ID) bool {
	as := authFrom(r.Context())
	if as == nil {
		return false
	}
	denied := as.denied.Load()
	if denied == nil {
		return false
	}
	st.mu.Lock()
	if st.sse != nil || st.done {
		st.mu.Unlock()
		return false
	}
	st.done = true // no SSE stream: no keep-alives to stop
	if !st.broken && st.ctx.Err() == nil {
		as.gate.reject(st.w, http.StatusForbidden, "insufficient_scope",
			"This operation needs the scopes "+strings.Join(*denied, " "), *denied, rawID(id))
	}
	st.mu.Unlock()
	return true
}

// logger returns the server's logger for the auth gate's diagnostics.
func (h *httpHandler) logger() *slog.Logger {
	if s, ok := h.core.(*Server); ok {
		return s.logger
	}
	return nil
}

// ownedBy reports whether the request's principal created the session: a
// session is bound to its creator, and another caller's token gets 403,
// never the session.
func (hs *legacyHTTPSession) ownedBy(ctx context.Context) bool {
	return hs.owner == principalKey(ctx)
}

func sessionForbidden(w http.ResponseWriter) {
	_ = (&httpwire.Rejection{Status: http.StatusForbidden, Code: httpwire.CodeInvalidRequest,
		Message: "Forbidden: this " + headerSessionID + " belongs to another principal"}).Write(w, nil)
}
