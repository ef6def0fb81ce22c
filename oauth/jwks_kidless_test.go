package oauth

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
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
// kidlessAS is an authorization server that signs its tokens without a
// "kid": its JWKS serves the public half of current (or fails with 500
// while down), fetches counts the fetches, and sign issues a valid access
// token signed with a key.
type kidlessAS struct {
	current atomic.Pointer[ecdsa.PrivateKey]
	down    atomic.Bool
	fetches atomic.Int32
	v       *JWTVerifier
	sign    func(key *ecdsa.PrivateKey) string
}

func newKidlessAS(t *testing.T, first *ecdsa.PrivateKey) *kidlessAS {
	a := &kidlessAS{}
	a.current.Store(first)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		a.fetches.Add(1)
		if a.down.Load() {
			http.Error(w, "down", http.StatusInternalServerError)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(jose.JSONWebKeySet{Keys: []jose.JSONWebKey{
			{Key: &a.current.Load().PublicKey, Algorithm: "ES256", Use: "sig"}}})
	}))
	t.Cleanup(srv.Close)
	const iss, aud = "https://as.example", "https://mcp.example/mcp"
	v, err := NewJWTVerifier(context.Background(), JWTConfig{Issuer: iss, Audience: aud, JWKSURL: srv.URL, MinRefresh: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	a.v = v
	a.sign = func(key *ecdsa.PrivateKey) string {
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
	return a
}

// allowFetch lets the next refetch through, as if MinRefresh had passed
// since the last one (as TestJWTKeyRotation lets time pass).
func (a *kidlessAS) allowFetch() {
	a.v.keys.mu.Lock()
	a.v.keys.tried = time.Time{}
	a.v.keys.mu.Unlock()
}

func newECKey(t *testing.T) *ecdsa.PrivateKey {
	k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

func TestKidlessTokenOfRotatedKeyRefetchesJWKS(t *testing.T) {
	oldKey, rotated, forger := newECKey(t), newECKey(t), newECKey(t)
	a := newKidlessAS(t, oldKey)
	v, sign, fetches := a.v, a.sign, &a.fetches
	if _, err := v.VerifyToken(context.Background(), sign(oldKey)); err != nil {
		t.Fatalf("before the rotation: %v", err)
	}
	a.current.Store(rotated)
	a.allowFetch() // MinRefresh has passed since the first fetch
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

// TestUnverifiedTokenSaysWhyTheKeysWereNotFetchedAgain: a token no cached
// key verifies is refused as a bad signature, and the error says whether
// fetching the JWKS again failed (the authorization server is down) or was
// not tried (fetched within MinRefresh), so an operator can tell a forged
// token from an outage.
func TestUnverifiedTokenSaysWhyTheKeysWereNotFetchedAgain(t *testing.T) {
	key := newECKey(t)
	a := newKidlessAS(t, key)
	if _, err := a.v.VerifyToken(context.Background(), a.sign(key)); err != nil {
		t.Fatalf("a token of the served key: %v", err)
	}
	forged := a.sign(newECKey(t))
	a.down.Store(true)
	a.allowFetch()
	_, err := a.v.VerifyToken(context.Background(), forged)
	if err == nil || !strings.Contains(err.Error(), "bad signature") || !strings.Contains(err.Error(), "fetching the JWKS again failed") {
		t.Errorf("a token no cached key verifies, the JWKS server down: %v, want a bad signature saying the fetch failed", err)
	}
	_, err = a.v.VerifyToken(context.Background(), forged)
	if err == nil || !strings.Contains(err.Error(), "bad signature") || !strings.Contains(err.Error(), "not fetched again") {
		t.Errorf("the same token right after, within MinRefresh: %v, want a bad signature saying the JWKS was not fetched again", err)
	}
}
