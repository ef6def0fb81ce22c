package oauth

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	jose "github.com/go-jose/go-jose/v4"
	"github.com/mcpgen/mcpgen/server"
)

// TestJWTWithRepeatedMemberIsRefused: a JWT whose JOSE header or claims
// set names a member twice (two "aud", two "exp", two "kid" or "alg", one
// of them escaped, or a repeat inside a nested claim) is read differently
// by a reader keeping the first value and one keeping the last: a gateway
// would see another audience or expiry than this server. Such a token is
// refused, wrapping server.ErrInvalidToken, as one that repeats a member
// (one message, one parse, as for the authorization server's documents),
// before anything in it is trusted: its "kid" and "alg" fetch no JWKS. It
// was refused only by go-jose's JSON reader, as a "bad signature" of a
// correctly signed token, after fetching the JWKS its header asked for.
func TestJWTWithRepeatedMemberIsRefused(t *testing.T) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	set, err := json.Marshal(jose.JSONWebKeySet{Keys: []jose.JSONWebKey{{Key: &key.PublicKey, KeyID: "k1", Algorithm: "ES256", Use: "sig"}}})
	if err != nil {
		t.Fatal(err)
	}
	var fetches atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		fetches.Add(1)
		_, _ = w.Write(set)
	}))
	defer srv.Close()
	const iss, aud = "https://as.example", "https://mcp.example/mcp"
	sign := func(header, payload string) string {
		input := b64url([]byte(header)) + "." + b64url([]byte(payload))
		sum := sha256.Sum256([]byte(input))
		r, s, err := ecdsa.Sign(rand.Reader, key, sum[:])
		if err != nil {
			t.Fatal(err)
		}
		sig := make([]byte, 64)
		r.FillBytes(sig[:32])
		s.FillBytes(sig[32:])
		return input + "." + b64url(sig)
	}
	now := time.Now().Unix()
	claims := fmt.Sprintf(`"iss":%q,"sub":"alice","client_id":"app","iat":%d`, iss, now)
	exp := fmt.Sprintf(`"exp":%d`, now+3600)
	header := `{"alg":"ES256","kid":"k1","typ":"at+jwt"}`
	payload := `{` + claims + `,` + exp + `,"aud":"` + aud + `"}`
	for _, c := range []struct {
		header, payload, repeated string
	}{
		{header, `{` + claims + `,` + exp + `,"aud":"https://other.example/mcp","aud":"` + aud + `"}`, "aud"},
		{header, `{` + claims + `,` + exp + `,"a\u0075d":"https://other.example/mcp","aud":"` + aud + `"}`, "aud"},
		{header, `{"exp":1,` + claims + `,` + exp + `,"aud":"` + aud + `"}`, "exp"},
		{header, `{` + claims + `,` + exp + `,"aud":"` + aud + `","cnf":{"jkt":"a","jkt":"b"}}`, "jkt"},
		{header, `{` + claims + `,` + exp + `,"aud":["` + aud + `",{"x":1,"x":2}]}`, "x"},
		{`{"alg":"ES256","kid":"k2","kid":"k1","typ":"at+jwt"}`, payload, "kid"},
		{`{"alg":"RS256","alg":"ES256","kid":"k1","typ":"at+jwt"}`, payload, "alg"},
		{`{"alg":"ES256","kid":"k1","typ":"dpop+jwt","typ":"at+jwt"}`, payload, "typ"},
	} {
		v, err := NewJWTVerifier(context.Background(), JWTConfig{Issuer: iss, Audience: aud, JWKSURL: srv.URL})
		if err != nil {
			t.Fatal(err)
		}
		before := fetches.Load()
		info, err := v.VerifyToken(context.Background(), sign(c.header, c.payload))
		switch {
		case err == nil:
			t.Errorf("header %s, claims %s: accepted (audience %v, expiry %s); want refused", c.header, c.payload, info.Audience, info.Expiry)
		case !errors.Is(err, server.ErrInvalidToken):
			t.Errorf("header %s, claims %s: %v; want an error wrapping server.ErrInvalidToken", c.header, c.payload, err)
		case !strings.Contains(err.Error(), "repeated") || !strings.Contains(err.Error(), `"`+c.repeated+`"`):
			t.Errorf("header %s, claims %s: %v; want an error saying %q is repeated", c.header, c.payload, err, c.repeated)
		}
		if got := fetches.Load() - before; got != 0 {
			t.Errorf("header %s, claims %s: %d JWKS fetches for a token refused unread; want 0", c.header, c.payload, got)
		}
	}
	// The same token without the repeat is accepted: the refusals are the
	// repeats'.
	v, err := NewJWTVerifier(context.Background(), JWTConfig{Issuer: iss, Audience: aud, JWKSURL: srv.URL})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := v.VerifyToken(context.Background(), sign(header, payload)); err != nil {
		t.Fatalf("the token without a repeated member refused: %v", err)
	}
}
