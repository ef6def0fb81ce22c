package client

import (
	"context"
	"crypto"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"
)

// OAuth logs the client in to a protected MCP server (basic/authorization/,
// the client's side of OAuth 2.1): on a 401 it discovers the server's
// authorization server through its Protected Resource Metadata (RFC 9728)
// and that server's metadata (RFC 8414 or OpenID discovery, in the spec's
// order, issuer checked), registers (pre-registered credentials, a Client
// ID Metadata Document, or dynamic registration, in that order), runs the
// authorization code flow with PKCE S256 and the RFC 8707 resource, checks
// the authorization response's iss (RFC 9207), gets the token and retries
// the request with it. A 403 insufficient_scope re-authorizes with the
// union of the scopes asked so far and the challenged ones (step-up), for
// one scope set at most maxStepUps times in a row (until a request sent
// again after a step-up is answered other than 401 or 403; a 401 and its
// new login between do not start a new count); a 401 with a
// refresh token refreshes first, and a 401 re-authorization keeps the
// scopes asked before at the same authorization server and resource.
//
// Use it through OAuthHTTP. The zero value needs only Authorize (and
// RedirectURL); everything else is optional.
//
// A login stays bound to the MCP server: only challenges from its own
// origin start one, only resource metadata naming the server itself is
// used (RFC 9728 §3.3), the authorization server's issuer and endpoints
// must be https, or plain http on a loopback host for a plain-http MCP
// server (so only an http(s) URL reaches Authorize), and a token is used only if it is a Bearer
// token, or a DPoP one with DPoP (RFC 6749 §7.1).
type OAuth struct {
	// RedirectURL is the redirect URI (a loopback http URL or https).
	RedirectURL string
	// Authorize sends the user to authorizationURL (a browser) and returns
	// the URL the authorization server redirected back to, with its code,
	// state and iss. FollowRedirects is one for servers that approve
	// without a user interface (tests, conformance).
	Authorize func(ctx context.Context, authorizationURL string) (*url.URL, error)
	// ClientID and ClientSecret are pre-registered credentials for the
	// authorization server ClientIssuer; they are used before anything
	// else. Credentials belong to one authorization server
	// (client-registration.mdx, Authorization Server Binding): with
	// ClientIssuer empty they are bound to the first one they are used
	// with, a binding kept in Store (so it outlives the process with a
	// persistent store), and when the resource's metadata later names
	// another, that one is never shown them: the client registers there
	// another way (Client ID Metadata Document, dynamic registration) if
	// it offers one, else the login fails with an error. Setting
	// ClientIssuer overrides a stored binding.
	ClientID, ClientSecret, ClientIssuer string
	// ClientKey, with ClientID, authenticates the client at the token
	// endpoint with a signed JWT instead of a secret (private_key_jwt,
	// RFC 7523 §2.2): iss and sub are ClientID, aud the authorization
	// server's issuer. The algorithm follows the key (ES256/384/512 by
	// curve, RS256 or PS256, EdDSA); ClientKeyID is its "kid", if any.
	ClientKey   crypto.Signer
	ClientKeyID string
	// ClientCredentials makes the client act on its own behalf: tokens come
	// from the client_credentials grant with ClientID and ClientSecret or
	// ClientKey (the OAuth client credentials extension), with no user and
	// no Authorize.
	ClientCredentials bool
	// Assertion, when set, makes tokens come from the JWT bearer grant
	// (RFC 7523 §2.1), with no user and no Authorize: it returns the JWT
	// to present for target — a workload identity token (workload
	// identity federation), or an identity assertion grant from the
	// enterprise's identity provider (EnterpriseIdP.Assertion). The
	// client authenticates as its registration says (ClientID with
	// ClientSecret or ClientKey; ClientID alone; or not at all). A
	// refused assertion is an error: it is not retried, and no other
	// grant is tried.
	Assertion func(ctx context.Context, target AssertionTarget) (string, error)
	// DPoP asks for sender-constrained tokens (RFC 9449) from
	// authorization servers that offer them (dpop_signing_alg_values_
	// supported): token requests and every request carrying a DPoP
	// token get a fresh proof signed with DPoPKey, and use_dpop_nonce
	// challenges (of the authorization server and of the MCP server) are
	// answered with the nonce given.
	DPoP bool
	// DPoPKey is the proof key (default: a P-256 key made when first
	// needed, for the life of this OAuth). A Store that keeps DPoP tokens
	// across processes needs the same key given here.
	DPoPKey crypto.Signer
	// ClientMetadataURL is the HTTPS URL of this client's Client ID Metadata
	// Document, used as client_id where the authorization server supports
	// such documents.
	ClientMetadataURL string
	// ClientName is the client_name of dynamic registrations.
	ClientName string
	// Scopes are asked for when neither the challenge nor the resource's
	// metadata names any.
	Scopes []string
	// Store keeps registrations, per authorization server, and tokens,
	// per authorization server and resource (default: in memory).
	Store TokenStore
	// HTTPClient talks to the authorization server and fetches metadata
	// (default: a client with a 30 second timeout that follows no
	// redirects to other origins, and at most 10 on one). Whatever its
	// CheckRedirect, a redirect from https to plain http, or from
	// loopback to plain http on the network, is not followed.
	HTTPClient *http.Client

	loginMu   sync.Mutex // one login at a time
	mu        sync.Mutex
	requested []string  // the scopes of the last authorization (kept on re-authorization)
	issuer    string    // the authorization server in use
	boundTo   string    // the issuer ClientID is bound to (Store.BindClient), when ClientIssuer is empty
	resource  string    // the resource its token is for (RFC 8707)
	stepUps   stepUpRun // step-ups in a row for one scope set, until one worked (oauth_scopes.go)
	tentative string    // the Authorization of a stored token in use, not yet refused
	dpop      dpopState
}

// TokenStore keeps what OAuth learns: client registrations, keyed by the
// authorization server's issuer; tokens, keyed by the issuer and the
// resource (the MCP server's canonical URI, RFC 8707) they were issued
// for; and the authorization server each pre-registered client ID is
// bound to. One store may serve the clients of several servers: a token
// is only ever presented to the resource it is for.
type TokenStore interface {
	Registration(issuer string) *Registration
	SaveRegistration(issuer string, r *Registration)
	Token(issuer, resource string) *Token
	SaveToken(issuer, resource string, t *Token)
	// BindClient binds the pre-registered clientID to the authorization
	// server issuer unless it is bound already, and returns the issuer
	// it is bound to. A store that outlives the process must keep the
	// binding, or a restarted client would show the credentials to
	// whichever authorization server a resource names first
	// (client-registration.mdx, Authorization Server Binding).
	BindClient(clientID, issuer string) string
}

// Registration is a client's registration at one authorization server.
type Registration struct {
	ClientID, ClientSecret string
	// AuthMethod is the token endpoint authentication method: "none",
	// "client_secret_basic" or "client_secret_post".
	AuthMethod string
}

// Token is an access token and what came with it. A TokenStore must keep
// TokenType: a token stored without it is not presented (understood).
type Token struct {
	AccessToken, TokenType, RefreshToken string
	Scope                                string
	Expiry                               time.Time // zero: unknown
}

// dpopBound reports whether the token is a DPoP token (RFC 9449 §5:
// token_type "DPoP", compared case-insensitively).
func (t *Token) dpopBound() bool { return strings.EqualFold(t.TokenType, "DPoP") }

// understood reports whether t's type is one this client presents:
// Bearer, or DPoP (case-insensitive, RFC 6749 §5.1). A token without a
// type (kept by an earlier build, or a store that drops TokenType) may be
// sender-constrained: sent as a bearer token it would go without its
// proof, so it is not presented at all (RFC 6749 §7.1: a client MUST NOT
// use a token whose type it does not understand); the login refreshes it
// or authorizes anew.
func (t *Token) understood() bool {
	return strings.EqualFold(t.TokenType, "Bearer") || t.dpopBound()
}

// presents reports whether o presents t: a token it understands, and a
// DPoP one only with DPoP (a DPoP token a store kept from a run with
// DPoP would go with a proof of a key made up here, not its own).
func (o *OAuth) presents(t *Token) bool {
	return t.understood() && (o.DPoP || !t.dpopBound())
}

// authorization is the Authorization header value that presents t, a
// token that is understood.
func (t *Token) authorization() string {
	if t.dpopBound() {
		return "DPoP " + t.AccessToken
	}
	return "Bearer " + t.AccessToken
}

// MemoryStore is a TokenStore in memory.
type MemoryStore struct {
	mu       sync.Mutex
	regs     map[string]*Registration
	tokens   map[tokenKey]*Token
	bindings map[string]string // client ID → issuer
}

// tokenKey is what a token is stored under.
type tokenKey struct{ issuer, resource string }

func (m *MemoryStore) Registration(issuer string) *Registration {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.regs[issuer]
}

func (m *MemoryStore) SaveRegistration(issuer string, r *Registration) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.regs == nil {
		m.regs = map[string]*Registration{}
	}
	m.regs[issuer] = r
}

func (m *MemoryStore) Token(issuer, resource string) *Token {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.tokens[tokenKey{issuer, resource}]
}

func (m *MemoryStore) SaveToken(issuer, resource string, t *Token) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.tokens == nil {
		m.tokens = map[tokenKey]*Token{}
	}
	m.tokens[tokenKey{issuer, resource}] = t
}

func (m *MemoryStore) BindClient(clientID, issuer string) string {
	m.mu.Lock()
	defer m.mu.Unlock()
	if bound, ok := m.bindings[clientID]; ok {
		return bound
	}
	if m.bindings == nil {
		m.bindings = map[string]string{}
	}
	m.bindings[clientID] = issuer
	return issuer
}

// OAuthHTTP returns a Streamable HTTP transport for url that logs in with
// o: requests carry its bearer token, and 401 and 403 insufficient_scope
// responses of url's origin run the flow and retry once (those of
// another origin, which a redirect led to, are an error). The token goes
// only to the origin of the resource it was issued for: a redirect to
// another origin is followed without it.
func OAuthHTTP(url string, o *OAuth) *HTTPTransport {
	if o.Store == nil {
		o.Store = &MemoryStore{}
	}
	t := HTTP(url)
	t.Client = &http.Client{Transport: &bearer{o: o, base: http.DefaultTransport}}
	t.OnUnauthorized = func(ctx context.Context, resp *http.Response) (bool, error) {
		return o.challenged(ctx, url, resp)
	}
	t.challengeAgain = o.refusedTentative
	t.retried = o.retryAnswered
	return t
}

// bearer adds the current access token to MCP requests: as a bearer
// token, or as a DPoP token with a fresh proof (oauth_dpop.go).
type bearer struct {
	o    *OAuth
	base http.RoundTripper
}

func (b *bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	tok := b.o.tokenFor(r.URL)
	if tok == nil || !b.o.presents(tok) {
		return b.base.RoundTrip(r)
	}
	if !tok.dpopBound() {
		r = r.Clone(r.Context())
		r.Header.Set("Authorization", "Bearer "+tok.AccessToken)
		return b.base.RoundTrip(r)
	}
	return b.o.dpopRoundTrip(b.base, r, tok)
}

// tokenFor returns the current token when target is on the origin of the
// resource it was issued for (RFC 8707 audience binding), else nil: each
// hop of a redirect passes through the round tripper, and a hop to
// another origin must not carry the token.
func (o *OAuth) tokenFor(target *url.URL) *Token {
	o.mu.Lock()
	resource := o.resource
	o.mu.Unlock()
	ru, err := url.Parse(resource)
	if err != nil || !sameOrigin(ru, target) {
		return nil
	}
	return o.current()
}

// current returns the token in use: the stored one for the authorization
// server and resource of the last login.
func (o *OAuth) current() *Token {
	o.mu.Lock()
	issuer, resource := o.issuer, o.resource
	o.mu.Unlock()
	if issuer == "" {
		return nil
	}
	return o.Store.Token(issuer, resource)
}

func (o *OAuth) httpClient() *http.Client {
	if o.HTTPClient != nil {
		return holdRedirects(*o.HTTPClient)
	}
	return &http.Client{Timeout: 30 * time.Second, CheckRedirect: func(req *http.Request, via []*http.Request) error {
		if len(via) > 0 && !sameOrigin(req.URL, via[0].URL) { // an https → http downgrade too
			return http.ErrUseLastResponse
		}
		if len(via) >= maxMetadataRedirects { // net/http's own bound, which a CheckRedirect replaces
			return fmt.Errorf("stopped after %d redirects", maxMetadataRedirects)
		}
		return nil
	}}
}

// maxMetadataRedirects bounds the redirects the flow's HTTP clients
// follow (OAuth's default, holdRedirects'), as net/http's default client
// does.
const maxMetadataRedirects = 10

// ErrInsufficientScope is returned (wrapped) when a step-up cannot help:
// the server still refuses after re-authorization.
var ErrInsufficientScope = errors.New("client: the server needs scopes the authorization server did not grant")

// challenged handles a 401 or 403 of the MCP server and reports whether
// the request should be sent again. A 401, or 403 insufficient_scope,
// from another origin, which a redirect led the request to, is an error.
func (o *OAuth) challenged(ctx context.Context, serverURL string, resp *http.Response) (bool, error) {
	ch := challengeOf(resp)
	stepUp := resp.StatusCode == http.StatusForbidden && ch.params["error"] == "insufficient_scope"
	if !stepUp && resp.StatusCode != http.StatusUnauthorized {
		return false, nil
	}
	if err := challengeFromServer(serverURL, resp); err != nil {
		return false, &loginError{err}
	}
	o.loginMu.Lock()
	defer o.loginMu.Unlock()
	sent := resp.Request.Header.Get("Authorization")
	if sent != "" {
		if tok := o.current(); tok != nil && o.presents(tok) && tok.authorization() != sent {
			return true, nil // another request logged in or stepped up meanwhile
		} // (a token it would not present, stored meanwhile, is refreshed or replaced: login)
	}
	switch {
	case stepUp:
		o.mu.Lock()
		scopes := unionScopes(o.requested, strings.Fields(ch.params["scope"]))
		o.mu.Unlock()
		if err := o.login(ctx, serverURL, ch, scopes, false, sent); err != nil {
			return false, &loginError{err}
		}
		return true, nil
	case resp.StatusCode == http.StatusUnauthorized:
		o.mu.Lock() // the step-up run goes on: a 401 is no sign a step-up worked
		if sent == o.tentative {
			o.tentative = "" // the stored token was refused: log in
		}
		o.mu.Unlock()
		if err := o.login(ctx, serverURL, ch, nil, true, sent); err != nil {
			return false, &loginError{err}
		}
		return true, nil
	}
	return false, nil
}

// loginError is a failed login after a 401 or 403: an answer about
// authorization, so the era probe does not take it for a legacy server
// (and log in, and fail, once more).
type loginError struct{ err error }

func (e *loginError) Error() string { return e.err.Error() }
func (e *loginError) Unwrap() error { return e.err }

func unionScopes(a, b []string) []string {
	out := slices.Clone(a)
	for _, s := range b {
		if !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}

// FollowRedirects returns an OAuth.Authorize for authorization servers
// that approve without a user interface: it follows the authorization
// URL's redirects with hc until one leads to redirectURL and returns that:
// a hop with redirectURL's origin and path, and its query's
// parameters among the hop's (RFC 6749 section 3.1.2: the client adds code
// and state to the redirect URI's own query), compared as parsed, not as a
// prefix of the text (`…/callback.evil` is another URL).
// Each hop, the authorization URL too, is held to https as the
// authorization server's endpoints are (checkAuthorizationServerURL):
// plain http only on a loopback host and only after a plain-http
// authorization URL; an https one's redirect to plain http, an http hop
// to a network host, or another scheme is refused, not fetched.
func FollowRedirects(hc *http.Client, redirectURL string) func(ctx context.Context, authorizationURL string) (*url.URL, error) {
	return func(ctx context.Context, authorizationURL string) (*url.URL, error) {
		c := *hc
		c.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
		start, err := url.Parse(authorizationURL)
		if err != nil {
			return nil, err
		}
		want, err := url.Parse(redirectURL)
		if err != nil {
			return nil, fmt.Errorf("client: redirect URL: %w", err)
		}
		next := start
		for hop := 0; hop < 10; hop++ {
			if isRedirectTo(next, want) {
				return next, nil
			}
			if err := checkAuthorizationServerURL(start, "the authorization URL", "authorization redirect", next.String()); err != nil {
				return nil, err
			}
			req, err := http.NewRequestWithContext(ctx, http.MethodGet, next.String(), nil)
			if err != nil {
				return nil, err
			}
			resp, err := c.Do(req)
			if err != nil {
				return nil, fmt.Errorf("client: authorization: %w", err)
			}
			_ = resp.Body.Close()
			loc := resp.Header.Get("Location")
			if loc == "" {
				return nil, fmt.Errorf("client: authorization stopped at %s with HTTP %d", next.Redacted(), resp.StatusCode)
			}
			if next, err = next.Parse(loc); err != nil {
				return nil, err
			}
		}
		return nil, errors.New("client: authorization: too many redirects")
	}
}

// isRedirectTo reports whether u is a redirect to the redirect URI want:
// the same origin (sameOrigin: hosts as net/http dials them) and path (an
// empty one "/", redirectPath), and every parameter
// of want's query present in u's with the same values.
func isRedirectTo(u, want *url.URL) bool {
	if !sameOrigin(u, want) || redirectPath(u) != redirectPath(want) || u.User != nil {
		return false
	}
	got := u.Query()
	for k, vs := range want.Query() {
		for _, v := range vs {
			if !slices.Contains(got[k], v) {
				return false
			}
		}
	}
	return true
}

// redirectPath is u's escaped path, "/" for the empty path of a URL with a
// host (RFC 3986 §6.2.3: http://127.0.0.1:8080 is http://127.0.0.1:8080/).
func redirectPath(u *url.URL) string {
	if p := u.EscapedPath(); p != "" || u.Host == "" {
		return p
	}
	return "/"
}
