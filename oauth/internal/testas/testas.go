// Package testas runs a real OAuth 2.1 / OpenID authorization server for
// tests, in process on 127.0.0.1: the OpenID Provider of
// github.com/zitadel/oidc/v3/pkg/op over that module's in-memory example
// storage, plus what MCP clients need and the library leaves to its users:
// RFC 8414 metadata, RFC 7591 dynamic client registration, RFC 8707
// resource indicators (the token's audience is the resource the client
// asked for), a "scope" claim in JWT access tokens, and a login page that
// approves the demo user at once (the browser of a headless test).
//
// Knobs for bad tokens: Options.Lifetime (negative: tokens are born
// expired), Options.NotBeforeSkew (tokens not valid yet), a shared
// signing key (two servers with different issuers sign alike), RotateKey.
package testas

import (
	"context"
	"crypto/rand"
	"crypto/rsa"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"

	jose "github.com/go-jose/go-jose/v4"
	"github.com/zitadel/oidc/v3/example/server/storage"
	"github.com/zitadel/oidc/v3/pkg/oidc"
	"github.com/zitadel/oidc/v3/pkg/op"
)

// Options configure a test authorization server.
type Options struct {
	// Opaque makes access tokens opaque (introspection only) instead of
	// JWTs.
	Opaque bool
	// Lifetime of access tokens (default 5 minutes); negative issues
	// tokens that expired that long ago.
	Lifetime time.Duration
	// NotBeforeSkew moves nbf (and iat) that far into the future.
	NotBeforeSkew time.Duration
	// Key signs tokens (nil: a new RSA key). Two servers given one key and
	// KeyID sign alike under different issuers.
	Key   *rsa.PrivateKey
	KeyID string
	// DefaultAudience is the audience of a token whose request named no
	// resource (default: the client ID, as OpenID providers do).
	DefaultAudience string
}

// DemoUser is the subject of the user the login page signs in (the
// example storage's user "test-user@<issuer host>").
const DemoUser = "id1"

// Server is a running authorization server.
type Server struct {
	// Issuer is the issuer URL (http://127.0.0.1:PORT).
	Issuer string

	opts     Options
	srv      *http.Server
	ln       net.Listener
	provider *op.Provider
	store    *asStorage
}

// Start runs a server on a free 127.0.0.1 port.
func Start(opts Options) (*Server, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	issuer := "http://" + ln.Addr().String()
	if opts.Lifetime == 0 {
		opts.Lifetime = 5 * time.Minute
	}
	if opts.Key == nil {
		if opts.Key, err = rsa.GenerateKey(rand.Reader, 2048); err != nil {
			return nil, err
		}
	}
	if opts.KeyID == "" {
		opts.KeyID = randomID()
	}
	st := &asStorage{
		Storage: storage.NewStorageWithClients(storage.NewUserStore(issuer), map[string]*storage.Client{}),
		opts:    opts,
		clients: map[string]*client{},
		tokens:  map[string]tokenRecord{},
		keys:    []signingKey{{id: opts.KeyID, key: opts.Key}},
	}
	var cryptoKey [32]byte
	if _, err := rand.Read(cryptoKey[:]); err != nil {
		return nil, err
	}
	provider, err := op.NewProvider(&op.Config{
		CryptoKey:             cryptoKey,
		CodeMethodS256:        true,
		AuthMethodPost:        true,
		GrantTypeRefreshToken: true,
	}, st, op.StaticIssuer(issuer), op.WithAllowInsecure())
	if err != nil {
		return nil, err
	}
	s := &Server{Issuer: issuer, opts: opts, ln: ln, provider: provider, store: st}
	mux := http.NewServeMux()
	interceptor := op.NewIssuerInterceptor(provider.IssuerFromRequest)
	mux.Handle("/login", interceptor.HandlerFunc(s.login))
	mux.HandleFunc("/register", s.register)
	mux.Handle("/.well-known/oauth-authorization-server", interceptor.HandlerFunc(s.metadata))
	mux.Handle("/", withResource(provider))
	s.srv = &http.Server{Handler: mux, ReadHeaderTimeout: 5 * time.Second}
	go func() { _ = s.srv.Serve(ln) }()
	return s, nil
}

// Close stops the server.
func (s *Server) Close() { _ = s.srv.Close() }

// RotateKey signs from now on with a new key (kid); the old one stays in
// the JWKS, as a rotating server keeps it for tokens already issued.
func (s *Server) RotateKey() error {
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		return err
	}
	s.store.mu.Lock()
	s.store.keys = append([]signingKey{{id: randomID(), key: key}}, s.store.keys...)
	s.store.mu.Unlock()
	return nil
}

// JWKSFetches counts the requests for the key set (caching tests).
func (s *Server) JWKSFetches() int {
	s.store.mu.Lock()
	defer s.store.mu.Unlock()
	return s.store.keySetCalls
}

// AddClient registers a confidential client that may use the
// client_credentials grant and authenticate with client_secret_basic or
// client_secret_post (a resource server introspecting tokens is one).
func (s *Server) AddClient(id, secret string) {
	s.store.mu.Lock()
	defer s.store.mu.Unlock()
	s.store.clients[id] = &client{id: id, secret: secret, opaque: s.opts.Opaque,
		grants: []oidc.GrantType{oidc.GrantTypeClientCredentials}, authMethod: oidc.AuthMethodBasic,
		skew: -s.opts.NotBeforeSkew}
}

// ClientCredentialsToken gets an access token for a client registered
// with AddClient, for resource (RFC 8707; "" names none) and scopes.
func (s *Server) ClientCredentialsToken(ctx context.Context, id, secret, resource string, scopes ...string) (string, error) {
	form := url.Values{"grant_type": {"client_credentials"}, "scope": {strings.Join(scopes, " ")}}
	if resource != "" {
		form.Set("resource", resource)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, s.Issuer+"/oauth/token", strings.NewReader(form.Encode()))
	if err != nil {
		return "", err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.SetBasicAuth(url.QueryEscape(id), url.QueryEscape(secret))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	var out struct {
		AccessToken string `json:"access_token"`
		Error       string `json:"error"`
		Description string `json:"error_description"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		return "", fmt.Errorf("token endpoint: %d: %w", resp.StatusCode, err)
	}
	if out.AccessToken == "" {
		return "", fmt.Errorf("token endpoint: %d %s: %s", resp.StatusCode, out.Error, out.Description)
	}
	return out.AccessToken, nil
}

// login signs the demo user in for an authorization request and returns
// to the provider's callback, which redirects to the client with a code.
func (s *Server) login(w http.ResponseWriter, r *http.Request) {
	id := r.URL.Query().Get("authRequestID")
	user := "test-user@" + strings.TrimPrefix(strings.Split(s.Issuer, ":")[1], "//")
	if err := s.store.CheckUsernamePassword(user, "verysecure", id); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	http.Redirect(w, r, op.AuthCallbackURL(s.provider)(r.Context(), id), http.StatusFound)
}

// metadata serves RFC 8414 authorization server metadata: the provider's
// discovery document plus the registration endpoint.
func (s *Server) metadata(w http.ResponseWriter, r *http.Request) {
	doc := op.CreateDiscoveryConfig(r.Context(), s.provider, s.store)
	b, err := json.Marshal(doc)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	var m map[string]any
	_ = json.Unmarshal(b, &m)
	m["registration_endpoint"] = s.Issuer + "/register"
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(m)
}

// register is RFC 7591 dynamic client registration: public clients
// (token_endpoint_auth_method none, PKCE) or confidential ones
// (client_secret_basic / client_secret_post).
func (s *Server) register(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		http.Error(w, "POST only", http.StatusMethodNotAllowed)
		return
	}
	var req struct {
		RedirectURIs []string `json:"redirect_uris"`
		AuthMethod   string   `json:"token_endpoint_auth_method"`
		GrantTypes   []string `json:"grant_types"`
		ClientName   string   `json:"client_name"`
		Scope        string   `json:"scope"`
	}
	if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 1<<16)).Decode(&req); err != nil || len(req.RedirectURIs) == 0 {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusBadRequest)
		_, _ = w.Write([]byte(`{"error":"invalid_client_metadata","error_description":"redirect_uris is required"}`))
		return
	}
	c := &client{id: randomID(), redirects: req.RedirectURIs, opaque: s.opts.Opaque, skew: -s.opts.NotBeforeSkew,
		grants: []oidc.GrantType{oidc.GrantTypeCode, oidc.GrantTypeRefreshToken}}
	switch req.AuthMethod {
	case "", "client_secret_basic":
		c.authMethod, c.secret = oidc.AuthMethodBasic, randomID()
	case "client_secret_post":
		c.authMethod, c.secret = oidc.AuthMethodPost, randomID()
	case "none":
		c.authMethod = oidc.AuthMethodNone
	default:
		http.Error(w, `{"error":"invalid_client_metadata"}`, http.StatusBadRequest)
		return
	}
	s.store.mu.Lock()
	s.store.clients[c.id] = c
	s.store.mu.Unlock()
	resp := map[string]any{
		"client_id": c.id, "client_id_issued_at": time.Now().Unix(), "redirect_uris": c.redirects,
		"token_endpoint_auth_method": string(c.authMethod), "grant_types": []string{"authorization_code", "refresh_token"},
		"response_types": []string{"code"}, "client_name": req.ClientName,
	}
	if c.secret != "" {
		resp["client_secret"] = c.secret
		resp["client_secret_expires_at"] = 0
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusCreated)
	_ = json.NewEncoder(w).Encode(resp)
}

// resourceKey carries the RFC 8707 resource of a token request.
type resourceKey struct{}

// withResource puts the token request's resource parameter in its
// context, where the storage makes it the token's audience.
func withResource(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost && r.URL.Path == "/oauth/token" {
			r.Body = http.MaxBytesReader(w, r.Body, 1<<16)
			if err := r.ParseForm(); err == nil {
				if res := r.PostForm.Get("resource"); res != "" {
					r = r.WithContext(context.WithValue(r.Context(), resourceKey{}, res))
				}
			}
		}
		next.ServeHTTP(w, r)
	})
}

func randomID() string {
	var b [12]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// tokenRecord is what introspection answers about an access token.
type tokenRecord struct {
	subject, clientID string
	audience, scopes  []string
	expiry            time.Time
}

type signingKey struct {
	id  string
	key *rsa.PrivateKey
}

// asStorage is the example storage with the additions above.
type asStorage struct {
	*storage.Storage
	opts Options

	mu          sync.Mutex
	clients     map[string]*client
	tokens      map[string]tokenRecord
	keys        []signingKey // keys[0] signs
	keySetCalls int
}

func (st *asStorage) audience(ctx context.Context, clientID string) []string {
	if res, ok := ctx.Value(resourceKey{}).(string); ok {
		return []string{res}
	}
	if st.opts.DefaultAudience != "" {
		return []string{st.opts.DefaultAudience}
	}
	return []string{clientID}
}

// authRequest and refreshRequest give a request the resource audience.
type authRequest struct {
	op.AuthRequest
	aud []string
}

func (a *authRequest) GetAudience() []string { return a.aud }

type refreshRequest struct {
	op.RefreshTokenRequest
	aud []string
}

func (a *refreshRequest) GetAudience() []string { return a.aud }

func unwrap(req op.TokenRequest) op.TokenRequest {
	switch r := req.(type) {
	case *authRequest:
		return r.AuthRequest
	case *refreshRequest:
		return r.RefreshTokenRequest
	}
	return req
}

func (st *asStorage) AuthRequestByCode(ctx context.Context, code string) (op.AuthRequest, error) {
	ar, err := st.Storage.AuthRequestByCode(ctx, code)
	if err != nil {
		return nil, err
	}
	return &authRequest{AuthRequest: ar, aud: st.audience(ctx, ar.GetClientID())}, nil
}

func (st *asStorage) TokenRequestByRefreshToken(ctx context.Context, token string) (op.RefreshTokenRequest, error) {
	rr, err := st.Storage.TokenRequestByRefreshToken(ctx, token)
	if err != nil {
		return nil, err
	}
	return &refreshRequest{RefreshTokenRequest: rr, aud: st.audience(ctx, rr.GetClientID())}, nil
}

func clientOf(req op.TokenRequest) string {
	if c, ok := req.(interface{ GetClientID() string }); ok {
		return c.GetClientID()
	}
	return req.GetSubject()
}

func (st *asStorage) record(id string, req op.TokenRequest) time.Time {
	exp := time.Now().Add(st.opts.Lifetime)
	st.mu.Lock()
	st.tokens[id] = tokenRecord{subject: req.GetSubject(), clientID: clientOf(req), audience: req.GetAudience(),
		scopes: req.GetScopes(), expiry: exp}
	st.mu.Unlock()
	return exp
}

func (st *asStorage) CreateAccessToken(ctx context.Context, req op.TokenRequest) (string, time.Time, error) {
	id, _, err := st.Storage.CreateAccessToken(ctx, unwrap(req))
	if err != nil {
		return "", time.Time{}, err
	}
	return id, st.record(id, req), nil
}

func (st *asStorage) CreateAccessAndRefreshTokens(ctx context.Context, req op.TokenRequest, current string) (string, string, time.Time, error) {
	id, refresh, _, err := st.Storage.CreateAccessAndRefreshTokens(ctx, unwrap(req), current)
	if err != nil {
		return "", "", time.Time{}, err
	}
	return id, refresh, st.record(id, req), nil
}

func (st *asStorage) SetIntrospectionFromToken(ctx context.Context, in *oidc.IntrospectionResponse, tokenID, subject, clientID string) error {
	st.mu.Lock()
	rec, ok := st.tokens[tokenID]
	st.mu.Unlock()
	if !ok || time.Now().After(rec.expiry) {
		return errors.New("token is not active")
	}
	in.Subject, in.ClientID, in.Audience, in.Scope = rec.subject, rec.clientID, rec.audience, rec.scopes
	in.Expiration = oidc.FromTime(rec.expiry)
	in.Issuer = op.IssuerFromContext(ctx)
	in.TokenType = "Bearer"
	return nil
}

// GetPrivateClaimsFromScopes adds the granted scopes to JWT access tokens
// (RFC 9068 "scope").
func (st *asStorage) GetPrivateClaimsFromScopes(ctx context.Context, userID, clientID string, scopes []string) (map[string]any, error) {
	return map[string]any{"scope": strings.Join(scopes, " ")}, nil
}

func (st *asStorage) GetClientByClientID(ctx context.Context, id string) (op.Client, error) {
	st.mu.Lock()
	c, ok := st.clients[id]
	st.mu.Unlock()
	if ok {
		return c, nil
	}
	return nil, errors.New("unknown client")
}

func (st *asStorage) AuthorizeClientIDSecret(ctx context.Context, id, secret string) error {
	st.mu.Lock()
	c, ok := st.clients[id]
	st.mu.Unlock()
	if !ok || c.secret == "" || c.secret != secret {
		return errors.New("invalid client credentials")
	}
	return nil
}

func (st *asStorage) ClientCredentials(ctx context.Context, id, secret string) (op.Client, error) {
	if err := st.AuthorizeClientIDSecret(ctx, id, secret); err != nil {
		return nil, err
	}
	c, _ := st.GetClientByClientID(ctx, id)
	if !slices.Contains(c.GrantTypes(), oidc.GrantTypeClientCredentials) {
		return nil, errors.New("client may not use client_credentials")
	}
	return c, nil
}

func (st *asStorage) ClientCredentialsTokenRequest(ctx context.Context, id string, scopes []string) (op.TokenRequest, error) {
	return &oidc.JWTTokenRequest{Subject: id, Audience: st.audience(ctx, id), Scopes: scopes}, nil
}

func (st *asStorage) SigningKey(ctx context.Context) (op.SigningKey, error) {
	st.mu.Lock()
	defer st.mu.Unlock()
	return opKey(st.keys[0]), nil
}

func (st *asStorage) SignatureAlgorithms(context.Context) ([]jose.SignatureAlgorithm, error) {
	return []jose.SignatureAlgorithm{jose.RS256}, nil
}

func (st *asStorage) KeySet(ctx context.Context) ([]op.Key, error) {
	st.mu.Lock()
	defer st.mu.Unlock()
	st.keySetCalls++
	out := make([]op.Key, len(st.keys))
	for i, k := range st.keys {
		out[i] = publicKey(k)
	}
	return out, nil
}

// opKey is a signing key as op.SigningKey and op.Key.
type opKey signingKey

func (k opKey) SignatureAlgorithm() jose.SignatureAlgorithm { return jose.RS256 }
func (k opKey) ID() string                                  { return k.id }

// Key is the private key: opKey is what SigningKey returns.
func (k opKey) Key() any { return k.key }

// publicKey is a key as KeySet publishes it in the JWKS.
type publicKey signingKey

func (k publicKey) Algorithm() jose.SignatureAlgorithm { return jose.RS256 }
func (k publicKey) Use() string                        { return "sig" }
func (k publicKey) ID() string                         { return k.id }
func (k publicKey) Key() any                           { return &k.key.PublicKey }

// client is a registered OAuth client.
type client struct {
	id, secret string
	redirects  []string
	authMethod oidc.AuthMethod
	grants     []oidc.GrantType
	opaque     bool
	skew       time.Duration
}

func (c *client) GetID() string                    { return c.id }
func (c *client) RedirectURIs() []string           { return c.redirects }
func (c *client) PostLogoutRedirectURIs() []string { return nil }
func (c *client) ApplicationType() op.ApplicationType {
	if c.authMethod == oidc.AuthMethodNone {
		return op.ApplicationTypeNative
	}
	return op.ApplicationTypeWeb
}
func (c *client) AuthMethod() oidc.AuthMethod { return c.authMethod }
func (c *client) ResponseTypes() []oidc.ResponseType {
	return []oidc.ResponseType{oidc.ResponseTypeCode}
}
func (c *client) GrantTypes() []oidc.GrantType         { return c.grants }
func (c *client) LoginURL(id string) string            { return "/login?authRequestID=" + url.QueryEscape(id) }
func (c *client) IDTokenLifetime() time.Duration       { return 5 * time.Minute }
func (c *client) DevMode() bool                        { return true }
func (c *client) IsScopeAllowed(string) bool           { return true }
func (c *client) IDTokenUserinfoClaimsAssertion() bool { return false }
func (c *client) ClockSkew() time.Duration             { return c.skew }
func (c *client) AccessTokenType() op.AccessTokenType {
	if c.opaque {
		return op.AccessTokenTypeBearer
	}
	return op.AccessTokenTypeJWT
}
func (c *client) RestrictAdditionalIdTokenScopes() func([]string) []string {
	return func(s []string) []string { return s }
}
func (c *client) RestrictAdditionalAccessTokenScopes() func([]string) []string {
	return func(s []string) []string { return s }
}
