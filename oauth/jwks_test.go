package oauth

import (
	"context"
	"crypto/rand"
	"crypto/rsa"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	jose "github.com/go-jose/go-jose/v4"
	"github.com/go-jose/go-jose/v4/jwt"
)

// TestJWKSFetchOutlivesCancelledRequest: the first token the verifier
// sees arrives on a request whose context is already cancelled (a client
// that hung up). The JWKS fetch it starts runs on without it, so the next
// request's valid token is accepted, though that fetch was the one of the
// MinRefresh window (30 s by default): an attacker who sends a made-up kid
// and hangs up cannot keep a freshly started (or rotated) server from
// learning its keys. README: the JWKS is "re-fetched for a new kid at most
// every 30 s" — a throttle on fetches, not a lock-out decided by one
// caller's context.
func TestJWKSFetchOutlivesCancelledRequest(t *testing.T) {
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	jwk := jose.JSONWebKey{Key: &key.PublicKey, KeyID: "k1", Algorithm: "RS256", Use: "sig"}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_ = json.NewEncoder(w).Encode(jose.JSONWebKeySet{Keys: []jose.JSONWebKey{jwk}})
	}))
	defer srv.Close()
	const iss, aud = "https://as.example", "https://mcp.example/mcp"
	v, err := NewJWTVerifier(context.Background(), JWTConfig{Issuer: iss, Audience: aud, JWKSURL: srv.URL})
	if err != nil {
		t.Fatal(err)
	}
	sign := func(kid string) string {
		sig, err := jose.NewSigner(jose.SigningKey{Algorithm: jose.RS256, Key: key},
			(&jose.SignerOptions{}).WithType("at+jwt").WithHeader("kid", kid))
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
	gone, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := v.VerifyToken(gone, sign("made-up")); err == nil {
		t.Fatal("a token with an unknown kid was accepted")
	}
	info, err := v.VerifyToken(context.Background(), sign("k1"))
	if err != nil {
		t.Fatalf("a valid token, signed with the JWKS's key, refused after another caller's cancelled request: %v", err)
	}
	if info.Subject != "alice" {
		t.Fatalf("subject %q", info.Subject)
	}
}

// TestJWKSKeyOfUnknownTypeIsSkipped: the authorization server's JWKS
// holds its RS256 signing key and, as many do, a key the verifier has no
// use for: an X25519 encryption key ("kty":"OKP", "crv":"X25519",
// "use":"enc") that go-jose cannot decode. That key is skipped and a
// token signed with the RS256 key is accepted. RFC 7517 §5:
// "Implementations SHOULD ignore JWKs within a JWK Set that use "kty"
// (key type) values that are not understood by them, that are missing
// required members, or for which values are out of the supported ranges".
func TestJWKSKeyOfUnknownTypeIsSkipped(t *testing.T) {
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	sigKey, err := json.Marshal(jose.JSONWebKey{Key: &key.PublicKey, KeyID: "k1", Algorithm: "RS256", Use: "sig"})
	if err != nil {
		t.Fatal(err)
	}
	encKey := `{"kty":"OKP","crv":"X25519","use":"enc","kid":"e1","x":"hSDwCYkwp1R0i33ctD73Wg2_Og0mOBr066SpjqqbTmo"}`
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"keys":[` + string(sigKey) + `,` + encKey + `]}`))
	}))
	defer srv.Close()
	const iss, aud = "https://as.example", "https://mcp.example/mcp"
	v, err := NewJWTVerifier(context.Background(), JWTConfig{Issuer: iss, Audience: aud, JWKSURL: srv.URL})
	if err != nil {
		t.Fatal(err)
	}
	sig, err := jose.NewSigner(jose.SigningKey{Algorithm: jose.RS256, Key: key},
		(&jose.SignerOptions{}).WithType("at+jwt").WithHeader("kid", "k1"))
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	tok, err := jwt.Signed(sig).Claims(jwt.Claims{Issuer: iss, Audience: jwt.Audience{aud}, Subject: "alice",
		Expiry: jwt.NewNumericDate(now.Add(time.Hour)), IssuedAt: jwt.NewNumericDate(now)}).Claims(map[string]any{"client_id": "app"}).Serialize()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := v.VerifyToken(context.Background(), tok); err != nil {
		t.Fatalf("a valid token signed with the JWKS's RS256 key refused because the set also holds an X25519 key: %v", err)
	}
}
