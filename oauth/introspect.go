package oauth

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/mcpgen/mcpgen/server"
	"github.com/zitadel/oidc/v3/pkg/client/rs"
)

// IntrospectionConfig configures an IntrospectionVerifier.
type IntrospectionConfig struct {
	// Issuer is the authorization server's issuer URL. Required.
	Issuer string
	// Audience is the protected server's canonical URI; the introspection
	// response's "aud" must name it. Required.
	Audience string
	// ClientID and ClientSecret authenticate the server at the
	// introspection endpoint (client_secret_basic). Required.
	ClientID, ClientSecret string
	// IntrospectionURL and TokenURL are the endpoints; empty discovers
	// them from the issuer's metadata.
	IntrospectionURL, TokenURL string
	// AllowMissingAudience accepts an active token whose response names
	// no audience (some servers omit it; the binding is then the
	// authorization server's). A response naming another audience is
	// always refused.
	AllowMissingAudience bool
	// HTTPClient calls the endpoints (default: a 10 second timeout).
	HTTPClient *http.Client
	// CacheTTL is how long the answer for an active token is reused
	// (default 1 minute; never past the token's exp; negative: every
	// request is introspected). A token revoked at the authorization
	// server keeps working here until its entry expires.
	CacheTTL time.Duration
	// CacheSize bounds the cached answers (default 10000; the oldest are
	// dropped first).
	CacheSize int
	// Leeway is the clock skew allowed on the response's exp, nbf and iat
	// (default 1 minute), as JWTConfig.Leeway is on a JWT's: TokenInfo.Expiry
	// is exp plus Leeway, so the server, which refuses a token past its
	// Expiry, allows the same skew.
	Leeway time.Duration
}

// IntrospectionVerifier asks the authorization server about every token
// (RFC 7662): it must be active, from Issuer (when the response says),
// for Audience, unexpired, not before its "nbf" and not issued ("iat") in
// the future (each with IntrospectionConfig.Leeway for clock skew, as the
// JWT verifier allows JWTConfig.Leeway); a response that is not a JSON object, repeats a
// member name, or whose fields have the wrong JSON types, dates out of
// range or a scope that is not a list of RFC 6749 scope tokens separated
// by spaces, is refused.
// "sub" and "client_id" are optional in the response (RFC 7662 §2.2), but
// the server refuses a token whose answer names neither: it identifies no
// principal. It implements server.TokenVerifier.
type IntrospectionVerifier struct {
	cfg   IntrospectionConfig
	rs    rs.ResourceServer
	cache *introspectionCache // nil: no cache
}

// NewIntrospectionVerifier checks cfg and discovers missing endpoints.
func NewIntrospectionVerifier(ctx context.Context, cfg IntrospectionConfig) (*IntrospectionVerifier, error) {
	if cfg.Issuer == "" || cfg.Audience == "" || cfg.ClientID == "" {
		return nil, errors.New("oauth: IntrospectionConfig.Issuer, Audience and ClientID are required")
	}
	if cfg.HTTPClient == nil {
		cfg.HTTPClient = &http.Client{Timeout: 10 * time.Second}
	}
	if cfg.IntrospectionURL == "" || cfg.TokenURL == "" {
		md, err := Discover(ctx, cfg.Issuer, cfg.HTTPClient)
		if err != nil {
			return nil, err
		}
		if cfg.IntrospectionURL == "" {
			cfg.IntrospectionURL = md.IntrospectionEndpoint
		}
		if cfg.TokenURL == "" {
			cfg.TokenURL = md.TokenEndpoint
		}
		if cfg.IntrospectionURL == "" {
			return nil, fmt.Errorf("oauth: the metadata of %s has no introspection_endpoint", cfg.Issuer)
		}
	}
	server, err := rs.NewResourceServerClientCredentials(ctx, cfg.Issuer, cfg.ClientID, cfg.ClientSecret,
		rs.WithClient(cfg.HTTPClient), rs.WithStaticEndpoints(cfg.TokenURL, cfg.IntrospectionURL))
	if err != nil {
		return nil, err
	}
	v := &IntrospectionVerifier{cfg: cfg, rs: server}
	if cfg.CacheTTL == 0 {
		cfg.CacheTTL = defaultIntrospectionCacheTTL
	}
	if cfg.CacheSize <= 0 {
		cfg.CacheSize = defaultIntrospectionCacheSize
	}
	if cfg.Leeway <= 0 {
		cfg.Leeway = defaultLeeway
	}
	if cfg.CacheTTL > 0 {
		v.cache = newIntrospectionCache(cfg.CacheTTL, cfg.CacheSize)
	}
	v.cfg = cfg
	return v, nil
}

// VerifyToken implements server.TokenVerifier. A token the server calls
// inactive, or one for someone else, wraps server.ErrInvalidToken; a
// failed call to the endpoint is returned as it is (also answered 401).
// The answer for an active token is cached (IntrospectionConfig.CacheTTL).
func (v *IntrospectionVerifier) VerifyToken(ctx context.Context, token string) (*server.TokenInfo, error) {
	if v.cache != nil {
		if info, ok := v.cache.get(token); ok {
			return info, nil
		}
	}
	info, err := v.introspect(ctx, token)
	if err != nil {
		return nil, err
	}
	if v.cache != nil {
		var exp time.Time
		if !info.Expiry.IsZero() {
			exp = info.Expiry.Add(-v.cfg.Leeway)
		}
		v.cache.put(token, info, exp)
	}
	return info, nil
}

// introspect asks the authorization server and checks its answer.
func (v *IntrospectionVerifier) introspect(ctx context.Context, token string) (*server.TokenInfo, error) {
	raw, err := rs.Introspect[json.RawMessage](ctx, v.rs, token)
	if err != nil {
		return nil, fmt.Errorf("oauth: introspection: %w", err)
	}
	claims, err := decodeObject(raw)
	if err != nil {
		return nil, fmt.Errorf("oauth: introspection: the response is not a JSON object (RFC 7662 §2.2): %w", err)
	}
	if active, _ := claims["active"].(bool); !active {
		return nil, fmt.Errorf("%w: the authorization server says the token is not active", errInvalid)
	}
	if err := checkFieldTypes(claims); err != nil {
		return nil, err
	}
	if iss, _ := claims["iss"].(string); iss != "" && iss != v.cfg.Issuer {
		return nil, fmt.Errorf("%w: issued by %s, not %s", errInvalid, iss, v.cfg.Issuer)
	}
	aud := stringList(claims["aud"])
	if len(aud) == 0 && !v.cfg.AllowMissingAudience || len(aud) > 0 && !audienceMatches(aud, v.cfg.Audience) {
		return nil, fmt.Errorf("%w: the token is for %v, not %s", errInvalid, aud, v.cfg.Audience)
	}
	if err := checkDates(claims, time.Now(), v.cfg.Leeway); err != nil {
		return nil, err
	}
	info, err := tokenInfo(claims)
	if err != nil {
		return nil, err
	}
	if !info.Expiry.IsZero() {
		info.Expiry = info.Expiry.Add(v.cfg.Leeway)
	}
	if info.Issuer == "" {
		info.Issuer = v.cfg.Issuer
	}
	return info, nil
}

// checkDates refuses a response whose "exp" has passed or whose "nbf" or
// "iat" is ahead, each by more than leeway, and one whose "exp", "nbf" or
// "iat" is not a date in range (numericDate), as the JWT verifier refuses
// them.
func checkDates(claims map[string]any, now time.Time, leeway time.Duration) error {
	exp, hasExp, err := numericDate(claims, "exp")
	if err != nil {
		return err
	}
	nbf, hasNbf, err := numericDate(claims, "nbf")
	if err != nil {
		return err
	}
	iat, hasIat, err := numericDate(claims, "iat")
	if err != nil {
		return err
	}
	if hasExp && now.Add(-leeway).After(exp) {
		return fmt.Errorf("%w: expired", errInvalid)
	}
	if hasNbf && now.Add(leeway).Before(nbf) {
		return fmt.Errorf("%w: not valid before %s", errInvalid, nbf.UTC().Format(time.RFC3339))
	}
	if hasIat && now.Add(leeway).Before(iat) {
		return fmt.Errorf("%w: issued in the future, at %s", errInvalid, iat.UTC().Format(time.RFC3339))
	}
	return nil
}

// checkFieldTypes refuses a response whose standard string fields (RFC
// 7662 §2.2) are not strings, or whose "aud" is neither a string nor an
// array of strings; null counts as absent.
func checkFieldTypes(claims map[string]any) error {
	for _, name := range []string{"iss", "sub", "client_id", "username", "token_type", "jti"} {
		if raw, ok := claims[name]; ok && raw != nil {
			if _, isString := raw.(string); !isString {
				return fmt.Errorf("%w: the introspection response's %s is not a string", errInvalid, name)
			}
		}
	}
	switch aud := claims["aud"].(type) {
	case nil, string:
	case []any:
		for _, a := range aud {
			if _, isString := a.(string); !isString {
				return fmt.Errorf("%w: the introspection response's aud holds a non-string", errInvalid)
			}
		}
	default:
		return fmt.Errorf("%w: the introspection response's aud is neither a string nor an array", errInvalid)
	}
	return nil
}

var _ server.TokenVerifier = (*IntrospectionVerifier)(nil)
