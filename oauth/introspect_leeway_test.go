package oauth

import (
	"context"
	"fmt"
	"testing"
	"time"
)

// TestIntrospectionAllowsClockSkewAsJWTVerifierDoes: the two verifiers
// judge one token's dates alike. The JWT verifier allows JWTConfig.Leeway
// (default 1 minute) of clock skew on exp, nbf and iat, refuses an iat
// ahead of now by more (go-jose's "issued in the future"), and reports
// TokenInfo.Expiry as exp plus the leeway, the instant the server's own
// expiry check uses. The introspection verifier allowed the skew on nbf
// only: a token whose exp passed 20 s ago by this server's clock was
// refused, and one issued an hour in the future was accepted.
func TestIntrospectionAllowsClockSkewAsJWTVerifierDoes(t *testing.T) {
	const aud = "https://mcp.example.test/mcp"
	now := time.Now()
	as := newJWKSAS(t)
	jwtVerifier := as.verifier(t)(aud)
	for _, c := range []struct {
		name     string
		exp, iat time.Time
		accept   bool
	}{
		{"exp 20 s ago", now.Add(-20 * time.Second), now.Add(-time.Hour), true},
		{"exp 90 s ago", now.Add(-90 * time.Second), now.Add(-time.Hour), false},
		{"iat 20 s ahead", now.Add(time.Hour), now.Add(20 * time.Second), true},
		{"iat an hour ahead", now.Add(2 * time.Hour), now.Add(time.Hour), false},
	} {
		_, jwtErr := jwtVerifier.VerifyToken(context.Background(),
			as.sign(t, aud, map[string]any{"exp": c.exp.Unix(), "iat": c.iat.Unix()}))
		if (jwtErr == nil) != c.accept {
			t.Fatalf("%s: precondition: the JWT verifier's verdict is %v", c.name, jwtErr)
		}
		v := answeringIntrospectionVerifier(t, aud, fmt.Sprintf(
			`{"active":true,"sub":"alice","client_id":"c","aud":%q,"exp":%d,"iat":%d}`, aud, c.exp.Unix(), c.iat.Unix()))
		info, err := v.VerifyToken(context.Background(), "opaque-token")
		switch {
		case c.accept && err != nil:
			t.Errorf("%s: the introspection verifier refused what the JWT verifier accepts: %v", c.name, err)
		case !c.accept && err == nil:
			t.Errorf("%s: the introspection verifier accepted what the JWT verifier refuses", c.name)
		case c.accept && !info.Expiry.Equal(time.Unix(c.exp.Unix(), 0).Add(time.Minute)):
			t.Errorf("%s: TokenInfo.Expiry %s, want exp plus the minute of leeway", c.name, info.Expiry)
		}
	}
}
