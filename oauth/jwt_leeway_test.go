package oauth

import (
	"context"
	"net/http"
	"testing"
	"time"
)

// TestJWTLeewayOnExpHoldsAtServer: JWTConfig.Leeway is "the clock skew
// allowed on exp, nbf and iat (default 1 minute)". A token whose exp passed
// 20 s ago (an authorization server whose clock is 20 s behind) is
// accepted by the verifier and so by the protected server: the verifier
// reports TokenInfo.Expiry as exp plus the leeway, which the server's own
// expiry check (server/auth_http.go) uses. It was refused 401, the server
// comparing exp to now without the leeway. A token past exp plus the
// leeway is still refused by both.
func TestJWTLeewayOnExpHoldsAtServer(t *testing.T) {
	as := newJWKSAS(t)
	m := startMCP(t, as.verifier(t), testIssuer)
	tok := as.sign(t, m.url, map[string]any{"exp": time.Now().Add(-20 * time.Second).Unix(),
		"iat": time.Now().Add(-time.Hour).Unix()})

	v := as.verifier(t)(m.url)
	info, err := v.VerifyToken(context.Background(), tok)
	if err != nil {
		t.Fatalf("precondition: the verifier (1 minute leeway) refuses a token expired 20 s ago: %v", err)
	}
	if exp := time.Unix(int64(info.Claims["exp"].(float64)), 0); !info.Expiry.Equal(exp.Add(time.Minute)) {
		t.Errorf("TokenInfo.Expiry %s, want exp %s plus the minute of leeway", info.Expiry, exp)
	}
	status, _, _ := m.call(t, "Bearer "+tok, "whoami")
	if status != http.StatusOK {
		t.Fatalf("a token within JWTConfig.Leeway of its exp, accepted by the verifier, answered %d by the server; "+
			"the documented leeway on exp has no effect", status)
	}

	late := as.sign(t, m.url, map[string]any{"exp": time.Now().Add(-90 * time.Second).Unix(),
		"iat": time.Now().Add(-time.Hour).Unix()})
	if status, _, _ := m.call(t, "Bearer "+late, "whoami"); status != http.StatusUnauthorized {
		t.Errorf("a token 90 s past its exp (leeway 1 minute) answered %d, want 401", status)
	}
}
