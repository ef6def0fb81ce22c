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

// testIssuer is the issuer of jwksAS's tokens.
const testIssuer = "https://as.example.test"

// jwksAS is a JWKS endpoint with one ES256 key and a signer of any
// claims; fetches counts the JWKS fetches.
type jwksAS struct {
	key     *ecdsa.PrivateKey
	url     string
	fetches atomic.Int32
}

func newJWKSAS(t *testing.T) *jwksAS {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	as := &jwksAS{key: key}
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
func (as *jwksAS) sign(t *testing.T, aud string, claims map[string]any) string {
	t.Helper()
	now := time.Now()
	all := map[string]any{"iss": testIssuer, "aud": aud, "sub": "alice", "client_id": "app",
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

func (as *jwksAS) verifier(t *testing.T) func(string) server.TokenVerifier {
	return func(resource string) server.TokenVerifier {
		v, err := NewJWTVerifier(context.Background(), JWTConfig{Issuer: testIssuer, Audience: resource, JWKSURL: as.url})
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
}
