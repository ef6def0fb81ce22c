package oauth

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	jose "github.com/go-jose/go-jose/v4"
	"github.com/go-jose/go-jose/v4/jwt"
	"github.com/mcpgen/mcpgen/server"
)

// errInvalid is server.ErrInvalidToken: every refusal wraps it.
var errInvalid = server.ErrInvalidToken

// defaultLeeway is the clock skew both verifiers allow on exp, nbf and iat
// unless configured otherwise.
const defaultLeeway = time.Minute

// JWTConfig configures a JWTVerifier.
type JWTConfig struct {
	// Issuer is the authorization server's issuer URL; tokens must carry
	// it as "iss". Required.
	Issuer string
	// Audience is the protected server's canonical URI (the
	// server.AuthOptions.Resource); tokens must name it in "aud".
	// Required.
	Audience string
	// JWKSURL is the key set's URL; empty discovers it from the issuer's
	// metadata (Discover).
	JWKSURL string
	// Algorithms are the accepted signature algorithms (default RS256,
	// RS384, RS512, PS256, PS384, PS512, ES256, ES384, ES512, EdDSA).
	// "none" and HMAC algorithms are never accepted.
	Algorithms []jose.SignatureAlgorithm
	// Leeway is the clock skew allowed on exp, nbf and iat (default 1
	// minute). The TokenInfo.Expiry of an accepted token is its exp plus
	// Leeway, so the server, which refuses a token past its Expiry,
	// allows the same skew (the exp claim itself is in TokenInfo.Claims).
	Leeway time.Duration
	// MinRefresh is the shortest interval between two fetches of the JWKS
	// for a token the cached set cannot verify, one naming an unknown key
	// ID or one (say naming no key ID) that no cached key verifies
	// (default 30 seconds); MaxAge the age after which the set is fetched
	// again anyway (default 1 hour).
	MinRefresh, MaxAge time.Duration
	// HTTPClient fetches metadata and keys (default: a client with a 10
	// second timeout).
	HTTPClient *http.Client
	// RequireAccessTokenType accepts only tokens whose JOSE "typ" header
	// is "at+jwt" or "application/at+jwt" (RFC 9068 §2.1 and §4), so that
	// no other JWT the authorization server signs (an ID token, a logout
	// token, a security event token) can pass for an access token. By
	// default a "typ" of "JWT" (or "application/jwt") and a token without
	// "typ" are accepted too, as many authorization servers (Auth0, Okta,
	// Keycloak, Zitadel) issue their access tokens so (an ID token, often
	// typed "JWT" too, is then refused by its audience: the client, not
	// this resource); any other "typ" ("logout+jwt", "secevent+jwt",
	// "dpop+jwt", ...) is refused either way. Media type names are
	// compared case-insensitively (RFC 7515 §4.1.9).
	RequireAccessTokenType bool
}

// ErrTokenType is wrapped, along with server.ErrInvalidToken, by the
// refusal of a token whose JOSE "typ" header is not an access token's (see
// JWTConfig.RequireAccessTokenType).
var ErrTokenType = errors.New("not an access token type")

// JWTVerifier verifies JWT access tokens (RFC 9068) with the
// authorization server's keys: the "typ" header (an access token's, see
// JWTConfig.RequireAccessTokenType), signature (algorithm allow-list, key
// by "kid"), "iss", "aud" (RFC 8707 audience binding), "exp" (required),
// "nbf" and "iat"; a token typed "at+jwt" must also carry "sub" and
// "client_id" (RFC 9068 §2.2). A token typed "JWT" or not typed, as
// servers outside that profile issue, needs neither, but the server still
// refuses one naming no subject and no client ("client_id" or "azp"). A
// "scope" that is not a list of RFC 6749 scope tokens separated by spaces
// refuses the token too, and so does a header or claims set that names a
// member twice, before any of it is read. It implements
// server.TokenVerifier.
type JWTVerifier struct {
	cfg  JWTConfig
	keys *keySet
}

var defaultAlgorithms = []jose.SignatureAlgorithm{
	jose.RS256, jose.RS384, jose.RS512, jose.PS256, jose.PS384, jose.PS512,
	jose.ES256, jose.ES384, jose.ES512, jose.EdDSA,
}

// NewJWTVerifier checks cfg and, without JWKSURL, discovers the key set's
// URL from the issuer's metadata. Keys are fetched at the first token.
func NewJWTVerifier(ctx context.Context, cfg JWTConfig) (*JWTVerifier, error) {
	if cfg.Issuer == "" || cfg.Audience == "" {
		return nil, errors.New("oauth: JWTConfig.Issuer and JWTConfig.Audience are required")
	}
	if len(cfg.Algorithms) == 0 {
		cfg.Algorithms = defaultAlgorithms
	}
	for _, a := range cfg.Algorithms {
		switch a {
		case jose.HS256, jose.HS384, jose.HS512, "none", "":
			return nil, fmt.Errorf("oauth: algorithm %q is not allowed for access tokens", a)
		}
	}
	if cfg.Leeway <= 0 {
		cfg.Leeway = defaultLeeway
	}
	if cfg.MinRefresh <= 0 {
		cfg.MinRefresh = 30 * time.Second
	}
	if cfg.MaxAge <= 0 {
		cfg.MaxAge = time.Hour
	}
	if cfg.HTTPClient == nil {
		cfg.HTTPClient = &http.Client{Timeout: 10 * time.Second}
	}
	if cfg.JWKSURL == "" {
		md, err := Discover(ctx, cfg.Issuer, cfg.HTTPClient)
		if err != nil {
			return nil, err
		}
		if md.JWKSURI == "" {
			return nil, fmt.Errorf("oauth: the metadata of %s has no jwks_uri", cfg.Issuer)
		}
		cfg.JWKSURL = md.JWKSURI
	}
	return &JWTVerifier{cfg: cfg, keys: &keySet{url: cfg.JWKSURL, hc: cfg.HTTPClient, minRefresh: cfg.MinRefresh, maxAge: cfg.MaxAge}}, nil
}

// VerifyToken implements server.TokenVerifier. Every refusal wraps
// server.ErrInvalidToken.
func (v *JWTVerifier) VerifyToken(ctx context.Context, token string) (*server.TokenInfo, error) {
	if err := refuseRepeatedMembers(token); err != nil {
		return nil, err
	}
	tok, err := jwt.ParseSigned(token, v.cfg.Algorithms)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", errInvalid, err)
	}
	if len(tok.Headers) != 1 {
		return nil, fmt.Errorf("%w: want exactly one signature", errInvalid)
	}
	h := tok.Headers[0]
	if err := v.checkType(h); err != nil {
		return nil, err
	}
	std, all, err := v.verifiedClaims(ctx, tok, h)
	if err != nil {
		return nil, err
	}
	if std.Expiry == nil {
		return nil, fmt.Errorf("%w: no exp claim", errInvalid)
	}
	if err := std.ValidateWithLeeway(jwt.Expected{Issuer: v.cfg.Issuer, Time: time.Now()}, v.cfg.Leeway); err != nil {
		return nil, fmt.Errorf("%w: %w", errInvalid, err)
	}
	if !audienceMatches(std.Audience, v.cfg.Audience) {
		return nil, fmt.Errorf("%w: %w: the token is for %v, not %s", errInvalid, jwt.ErrInvalidAudience, []string(std.Audience), v.cfg.Audience)
	}
	if typedAccessToken(h) {
		// RFC 9068 §2.2: an at+jwt names its subject and its client.
		if clientID, _ := all["client_id"].(string); std.Subject == "" || clientID == "" {
			return nil, fmt.Errorf("%w: an at+jwt access token needs sub and client_id (RFC 9068 §2.2)", errInvalid)
		}
	}
	info, err := tokenInfo(all)
	if err != nil {
		return nil, err
	}
	// The server refuses a token past TokenInfo.Expiry: that is when this
	// verifier stops accepting it, exp plus the leeway for clock skew.
	info.Expiry = info.Expiry.Add(v.cfg.Leeway)
	return info, nil
}

// verifiedClaims checks the signature of tok, whose header is h, with the
// keys that may have signed it and returns its claims. When no cached key
// verifies it, the authorization server may have rotated its key without
// the token saying so (no "kid", or a "kid" reused): the key set is
// fetched again, under the same JWTConfig.MinRefresh limit as for an
// unknown "kid", and its keys tried.
func (v *JWTVerifier) verifiedClaims(ctx context.Context, tok *jwt.JSONWebToken, h jose.Header) (jwt.Claims, map[string]any, error) {
	keys, version, err := v.keys.lookup(ctx, h.KeyID, h.Algorithm)
	if err != nil {
		return jwt.Claims{}, nil, err
	}
	if std, all, ok := claimsVerifiedBy(tok, keys); ok {
		return std, all, nil
	}
	keys, err = v.keys.refetch(ctx, h.KeyID, h.Algorithm, version)
	switch {
	case errors.Is(err, errThrottled):
		return jwt.Claims{}, nil, fmt.Errorf("%w: bad signature (no key of the JWKS verifies it, and the JWKS was not fetched again: it was, less than MinRefresh ago)", errInvalid)
	case err != nil:
		return jwt.Claims{}, nil, fmt.Errorf("%w: bad signature (no cached key verifies it, and fetching the JWKS again failed: %v)", errInvalid, err)
	}
	if std, all, ok := claimsVerifiedBy(tok, keys); ok {
		return std, all, nil
	}
	return jwt.Claims{}, nil, fmt.Errorf("%w: bad signature (no key of the JWKS, fetched again, verifies it)", errInvalid)
}

// claimsVerifiedBy returns the claims of tok when one of keys verifies its
// signature.
func claimsVerifiedBy(tok *jwt.JSONWebToken, keys []jose.JSONWebKey) (std jwt.Claims, all map[string]any, ok bool) {
	for _, k := range keys {
		if tok.Claims(k.Key, &std, &all) == nil {
			return std, all, true
		}
	}
	return jwt.Claims{}, nil, false
}

// typedAccessToken reports whether the "typ" header says "at+jwt": the
// token claims the RFC 9068 profile.
func typedAccessToken(h jose.Header) bool {
	typ, _ := h.ExtraHeaders[jose.HeaderType].(string)
	return mediaType(typ) == "application/at+jwt"
}

// checkType refuses a "typ" header that is not an access token's: by
// default "at+jwt", "JWT" or none; with RequireAccessTokenType "at+jwt"
// only.
func (v *JWTVerifier) checkType(h jose.Header) error {
	raw, ok := h.ExtraHeaders[jose.HeaderType]
	if !ok { // absent (or null: go-jose drops it)
		if v.cfg.RequireAccessTokenType {
			return fmt.Errorf("%w: %w: no typ header, want %q", errInvalid, ErrTokenType, "at+jwt")
		}
		return nil
	}
	typ, isString := raw.(string)
	if !isString {
		return fmt.Errorf("%w: %w: typ header %v is not a string", errInvalid, ErrTokenType, raw)
	}
	switch mediaType(typ) {
	case "application/at+jwt":
		return nil
	case "application/jwt":
		if !v.cfg.RequireAccessTokenType {
			return nil
		}
	}
	want := `"at+jwt" or "JWT"`
	if v.cfg.RequireAccessTokenType {
		want = `"at+jwt"`
	}
	if len(typ) > 64 {
		typ = typ[:64] + "..."
	}
	return fmt.Errorf("%w: %w: typ %q, want %s", errInvalid, ErrTokenType, typ, want)
}

// mediaType is the full, lower-case media type a "typ" header names: the
// "application/" prefix is implied when the value has no "/" (RFC 7515
// §4.1.9), and media type names are ASCII case-insensitive (RFC 2045 §2,
// RFC 6838 §4.2); a value with non-ASCII bytes is kept as is, so it
// matches nothing (no Unicode case folding).
func mediaType(typ string) string {
	b := []byte(typ)
	for i, c := range b {
		switch {
		case c >= 0x80:
			return typ
		case 'A' <= c && c <= 'Z':
			b[i] = c + ('a' - 'A')
		}
	}
	if !bytes.ContainsRune(b, '/') {
		return "application/" + string(b)
	}
	return string(b)
}

var _ server.TokenVerifier = (*JWTVerifier)(nil)
