package oauth_test

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	jose "github.com/go-jose/go-jose/v4"
	"github.com/go-jose/go-jose/v4/jwt"
	"github.com/mcpgen/mcpgen/oauth"
	"github.com/mcpgen/mcpgen/server"
)

// noTyp stands for a token without a typ header.
type noTyp struct{}

// TestJWTTokenType: the JOSE typ header keeps other JWTs the authorization
// server signs (logout tokens, security event tokens, DPoP proofs, ...)
// from passing for access tokens (RFC 9068 §4). By default at+jwt, JWT and
// no typ are accepted (what real servers issue); RequireAccessTokenType
// accepts at+jwt only. Every token here is otherwise valid and well signed.
func TestJWTTokenType(t *testing.T) {
	key, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	jwks := jose.JSONWebKeySet{Keys: []jose.JSONWebKey{{Key: &key.PublicKey, KeyID: "k1", Algorithm: "ES256", Use: "sig"}}}
	var fetches atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		fetches.Add(1)
		_ = json.NewEncoder(w).Encode(jwks)
	}))
	defer srv.Close()
	const iss, aud = "https://as.test", "https://mcp.test/mcp"
	verifier := func(strict bool) *oauth.JWTVerifier {
		v, err := oauth.NewJWTVerifier(context.Background(), oauth.JWTConfig{Issuer: iss, Audience: aud, JWKSURL: srv.URL, RequireAccessTokenType: strict})
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	lax, strict := verifier(false), verifier(true)
	sign := func(typ any) string {
		opts := (&jose.SignerOptions{}).WithHeader("kid", "k1")
		if _, absent := typ.(noTyp); !absent {
			opts = opts.WithHeader(jose.HeaderType, typ)
		}
		sig, err := jose.NewSigner(jose.SigningKey{Algorithm: jose.ES256, Key: key}, opts)
		if err != nil {
			t.Fatal(err)
		}
		tok, err := jwt.Signed(sig).Claims(map[string]any{"iss": iss, "aud": aud, "sub": "alice", "client_id": "app", "exp": time.Now().Add(time.Hour).Unix(),
			"iat": time.Now().Unix(), "nonce": "n", "scope": "mcp"}).Serialize()
		if err != nil {
			t.Fatal(err)
		}
		return tok
	}
	const (
		refused = iota
		laxOnly
		both
	)
	for _, c := range []struct {
		typ  any
		want int
	}{
		{"at+jwt", both},
		{"application/at+jwt", both},
		{"AT+JWT", both}, // media type names are case-insensitive (RFC 7515 §4.1.9)
		{"Application/At+JWT", both},
		{"JWT", laxOnly},
		{"jwt", laxOnly},
		{"application/jwt", laxOnly},
		{noTyp{}, laxOnly},
		{nil, laxOnly}, // "typ":null reads as no typ
		{"logout+jwt", refused},
		{"secevent+jwt", refused},
		{"dpop+jwt", refused},
		{"id_token+jwt", refused},
		{"token-introspection+jwt", refused},
		{"JOSE", refused},
		{"", refused},
		{" at+jwt", refused},
		{"at+jwt; charset=utf-8", refused},
		{"text/at+jwt", refused},
		{"application/application/at+jwt", refused},
		{"at+jwt\x00", refused},
		{"\uff41t+jwt", refused}, // fullwidth a: no Unicode folding
		{1, refused},
		{[]string{"at+jwt"}, refused},
	} {
		tok := sign(c.typ)
		for _, m := range []struct {
			name string
			v    *oauth.JWTVerifier
			ok   bool
		}{{"default", lax, c.want != refused}, {"RequireAccessTokenType", strict, c.want == both}} {
			info, err := m.v.VerifyToken(context.Background(), tok)
			switch {
			case m.ok && err != nil:
				t.Errorf("%s, typ %#v: %v, want accepted", m.name, c.typ, err)
			case m.ok && info.Subject != "alice":
				t.Errorf("%s, typ %#v: subject %q", m.name, c.typ, info.Subject)
			case !m.ok && err == nil:
				t.Errorf("%s, typ %#v: accepted as an access token (want ErrInvalidToken)", m.name, c.typ)
			case !m.ok && (!errors.Is(err, server.ErrInvalidToken) || !errors.Is(err, oauth.ErrTokenType)):
				t.Errorf("%s, typ %#v: %v, want ErrTokenType wrapping server.ErrInvalidToken", m.name, c.typ, err)
			case !m.ok:
				if s, isString := c.typ.(string); isString && !strings.Contains(err.Error(), strconv.Quote(s)) {
					t.Errorf("%s, typ %#v: the refusal %q does not name the typ", m.name, c.typ, err)
				}
			}
		}
	}
	// The typ is read before any key: a token with a refused typ does not
	// make a fresh verifier fetch the JWKS.
	forged := base64.RawURLEncoding.EncodeToString([]byte(`{"alg":"ES256","kid":"nope","typ":"logout+jwt"}`)) + "." +
		strings.Split(sign("at+jwt"), ".")[1] + "." + base64.RawURLEncoding.EncodeToString(make([]byte, 64))
	before := fetches.Load()
	if _, err := verifier(false).VerifyToken(context.Background(), forged); !errors.Is(err, oauth.ErrTokenType) || !errors.Is(err, server.ErrInvalidToken) {
		t.Errorf("forged logout token: %v, want ErrTokenType wrapping server.ErrInvalidToken", err)
	}
	if n := fetches.Load() - before; n != 0 {
		t.Errorf("a refused typ cost %d JWKS fetches", n)
	}
}
