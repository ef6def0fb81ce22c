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
)

// TestKidlessTokenOfRotatedKeyRefetchesJWKS: the authorization server
// signs its tokens without a "kid" and rotates its key. The first token
// signed with the new key is verified by none of the cached keys; the
// verifier must fetch the JWKS again, as it does for an unknown kid (under
// the same MinRefresh limit), not refuse every such token until the cached
// set is MaxAge (an hour) old. And a flood of kid-less tokens no key
// verifies costs no more fetches than that limit allows.
func TestKidlessTokenOfRotatedKeyRefetchesJWKS(t *testing.T) {
	newKey := func() *ecdsa.PrivateKey {
		k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
		if err != nil {
			t.Fatal(err)
		}
		return k
	}
	oldKey, rotated, forger := newKey(), newKey(), newKey()
	var current atomic.Pointer[ecdsa.PrivateKey]
	current.Store(oldKey)
	var fetches atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		fetches.Add(1)
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(jose.JSONWebKeySet{Keys: []jose.JSONWebKey{
			{Key: &current.Load().PublicKey, Algorithm: "ES256", Use: "sig"}}})
	}))
	defer srv.Close()
	const iss, aud = "https://as.example", "https://mcp.example/mcp"
	v, err := NewJWTVerifier(context.Background(), JWTConfig{Issuer: iss, Audience: aud, JWKSURL: srv.URL, MinRefresh: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	sign := func(key *ecdsa.PrivateKey) string {
		sig, err := jose.NewSigner(jose.SigningKey{Algorithm: jose.ES256, Key: key}, (&jose.SignerOptions{}).WithType("at+jwt"))
		if err != nil {
			t.Fatal(err)
		}
		now := time.Now()
		tok, err := jwt.Signed(sig).Claims(jwt.Claims{Issuer: iss, Audience: jwt.Audience{aud}, Subject: "alice",
			Expiry: jwt.NewNumericDate(now.Add(time.Hour)), IssuedAt: jwt.NewNumericDate(now)}).Claims(map[string]any{"client_id": "app"}).Serialize()
		if err != nil {
			t.Fatal(err)
		}
		return tok
	}
	if _, err := v.VerifyToken(context.Background(), sign(oldKey)); err != nil {
		t.Fatalf("before the rotation: %v", err)
	}
	current.Store(rotated)
	// MinRefresh has passed since the first fetch (as TestJWTKeyRotation
	// lets time pass): the throttle allows one fetch.
	v.keys.mu.Lock()
	v.keys.tried = time.Time{}
	v.keys.mu.Unlock()
	before := fetches.Load()
	if _, err := v.VerifyToken(context.Background(), sign(rotated)); err != nil {
		t.Errorf("a kid-less token signed with the rotated key refused (%d JWKS fetches for it): %v", fetches.Load()-before, err)
	}
	before = fetches.Load()
	for range 20 {
		if _, err := v.VerifyToken(context.Background(), sign(forger)); err == nil {
			t.Fatal("a kid-less token signed with a key not in the JWKS accepted")
		}
	}
	if got := fetches.Load() - before; got != 0 {
		t.Errorf("20 kid-less tokens no key verifies, within MinRefresh of the last fetch: %d JWKS fetches, want 0", got)
	}
}
