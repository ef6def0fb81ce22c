package oauth

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"encoding/json"
	"net/http"
	"net/http/httptest"
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
