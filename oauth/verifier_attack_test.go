package oauth

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	jose "github.com/go-jose/go-jose/v4"
	"github.com/go-jose/go-jose/v4/jwt"
	"github.com/mcpgen/mcpgen/server"
)

const (
	atkIssuer = "https://as.attack.test"
)

// attackAS is a JWKS endpoint with one ES256 key and a signer of any
// claims; fetches counts the JWKS fetches.
type attackAS struct {
	key     *ecdsa.PrivateKey
	url     string
	fetches atomic.Int32
}

func newAttackAS(t *testing.T) *attackAS {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	as := &attackAS{key: key}
	jwks := jose.JSONWebKeySet{Keys: []jose.JSONWebKey{{Key: &key.PublicKey, KeyID: "k1", Algorithm: "ES256", Use: "sig"}}}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		as.fetches.Add(1)
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(jwks)
	}))
	t.Cleanup(srv.Close)
	as.url = srv.URL
	return as
}

// sign signs claims (merged over a valid base for aud) with the JWKS key.
func (as *attackAS) sign(t *testing.T, aud string, claims map[string]any) string {
	t.Helper()
	now := time.Now()
	all := map[string]any{"iss": atkIssuer, "aud": aud, "sub": "alice", "client_id": "app",
		"scope": "mcp", "iat": now.Unix(), "exp": now.Add(time.Hour).Unix()}
	for k, v := range claims {
		if v == nil {
			delete(all, k)
			continue
		}
		all[k] = v
	}
	sig, err := jose.NewSigner(jose.SigningKey{Algorithm: jose.ES256, Key: as.key},
		(&jose.SignerOptions{}).WithHeader("kid", "k1").WithType("at+jwt"))
	if err != nil {
		t.Fatal(err)
	}
	tok, err := jwt.Signed(sig).Claims(all).Serialize()
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

func (as *attackAS) verifier(t *testing.T) func(string) server.TokenVerifier {
	return func(resource string) server.TokenVerifier {
		v, err := NewJWTVerifier(context.Background(), JWTConfig{Issuer: atkIssuer, Audience: resource, JWKSURL: as.url})
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
}

// TestAttackJWTLeewayOnExpIgnoredByServer: JWTConfig.Leeway is documented
// as "the clock skew allowed on exp, nbf and iat (default 1 minute)". A
// token whose exp passed 20 s ago (an authorization server whose clock is
// 20 s behind) is accepted by the verifier with the default leeway, but
// the protected server refuses it 401 anyway: server/auth_http.go checks
// TokenInfo.Expiry against time.Now() without the verifier's leeway, so the
// configured skew on exp never takes effect behind server.Auth.
func TestAttackJWTLeewayOnExpIgnoredByServer(t *testing.T) {
	as := newAttackAS(t)
	m := startMCP(t, as.verifier(t), atkIssuer)
	tok := as.sign(t, m.url, map[string]any{"exp": time.Now().Add(-20 * time.Second).Unix(),
		"iat": time.Now().Add(-time.Hour).Unix()})

	v := as.verifier(t)(m.url)
	if _, err := v.VerifyToken(context.Background(), tok); err != nil {
		t.Fatalf("precondition: the verifier (1 minute leeway) refuses a token expired 20 s ago: %v", err)
	}
	status, _, _ := m.call(t, "Bearer "+tok, "whoami")
	if status != http.StatusOK {
		t.Fatalf("a token within JWTConfig.Leeway of its exp, accepted by the verifier, answered %d by the server; "+
			"the documented leeway on exp has no effect", status)
	}
}

// TestAttackScopeSplitOnNonSpaceWhitespace: RFC 6749 §3.3: scope is
// "scope-token *( SP scope-token )", a list of space-delimited (%x20)
// strings, and a scope-token has no whitespace at all. The verifiers split
// "scope" with strings.Fields, which also splits on tab, NBSP, EM SPACE and
// every other Unicode space, so a granted scope string the authorization
// server meant as two tokens "mcp" and "read\u2003files:write" (or
// a single malformed token it let through) grants the principal
// "files:write", a scope it was never given, and the write_file tool
// (scopes=files:write) runs.
func TestAttackScopeSplitOnNonSpaceWhitespace(t *testing.T) {
	as := newAttackAS(t)
	m := startMCP(t, as.verifier(t), atkIssuer)
	for _, scope := range []string{"mcp read\u2003files:write", "mcp read\tfiles:write", "mcp read\u00a0files:write"} {
		tok := as.sign(t, m.url, map[string]any{"scope": scope})
		before := m.runs.Load()
		status, _, body := m.call(t, "Bearer "+tok, "write_file")
		if status != http.StatusForbidden || m.runs.Load() != before {
			t.Errorf("scope %q (granted: %q, %q): write_file (needs files:write) answered %d %v, handler ran %d time(s); want 403 insufficient_scope",
				scope, "mcp", strings.SplitN(scope, " ", 2)[1], status, text(body), m.runs.Load()-before)
		}
	}
	// The introspection verifier reads the scope the same way.
	info := tokenInfo(map[string]any{"sub": "alice", "scope": "mcp read\u2003files:write"})
	if info.HasScope("files:write") {
		t.Errorf("tokenInfo scope %q gives Scopes %q: files:write granted", "mcp read\u2003files:write", info.Scopes)
	}
}

// TestAttackIntrospectionNotBeforeOutOfRange: an introspection answer
// says the token is active but "nbf": 1e19, not to be used for billions of
// years (RFC 7662 §2.2 "nbf"; RFC 7519 §4.1.5: the current time "MUST be
// after or equal to the not-before date/time"). IntrospectionVerifier
// documents that it refuses a token before its "nbf" (and
// TestIntrospectionRefusesTokenBeforeNotBefore holds it to that for an
// hour ahead), but this one is accepted: oidc.Time converts the float64
// to int64 out of range (on amd64 math.MinInt64, the distant past). The
// JWT verifier refuses the same claim (go-jose bounds NumericDate at
// 2^62): the two verifiers disagree on one claim.
func TestAttackIntrospectionNotBeforeOutOfRange(t *testing.T) {
	const aud = "https://mcp.attack.test/mcp"
	now := time.Now()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"active":true,"iss":"` + atkIssuer + `","aud":"` + aud + `","sub":"alice","scope":"mcp",` +
			`"exp":` + strconv.FormatInt(now.Add(time.Hour).Unix(), 10) + `,"nbf":1e19}`))
	}))
	defer srv.Close()
	v, err := NewIntrospectionVerifier(context.Background(), IntrospectionConfig{Issuer: atkIssuer, Audience: aud,
		ClientID: "rs", ClientSecret: "s", IntrospectionURL: srv.URL + "/introspect", TokenURL: srv.URL + "/token", CacheTTL: -1})
	if err != nil {
		t.Fatal(err)
	}
	if info, err := v.VerifyToken(context.Background(), "opaque-token"); err == nil {
		t.Errorf("an introspected token with nbf 1e19 accepted now (subject %q)", info.Subject)
	}
	// The JWT verifier refuses the same nbf.
	as := newAttackAS(t)
	if _, err := as.verifier(t)(aud).VerifyToken(context.Background(), as.sign(t, aud, map[string]any{"nbf": 1e19})); err == nil {
		t.Errorf("the JWT verifier accepted nbf 1e19 too")
	}
}
