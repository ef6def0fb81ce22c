package oauth

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
)

// attackIntrospectionVerifier is an IntrospectionVerifier (no cache) whose
// endpoint answers every token with body.
func attackIntrospectionVerifier(t *testing.T, aud, body string) *IntrospectionVerifier {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(body))
	}))
	t.Cleanup(srv.Close)
	v, err := NewIntrospectionVerifier(context.Background(), IntrospectionConfig{Issuer: testIssuer, Audience: aud,
		ClientID: "rs", ClientSecret: "s", IntrospectionURL: srv.URL + "/introspect", TokenURL: srv.URL + "/token",
		CacheTTL: -1})
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// TestAttackIntrospectionExpAtYearOneNeverExpires: an introspection
// response with "exp": -62135596800, a NumericDate well within the ±2^62
// range numericDate accepts, is 0001-01-01T00:00:00Z — the instant Go's
// zero time.Time stands for. numericDate returns it as is, checkDates and
// the server read that as "no exp" (IsZero), and the token is accepted
// with TokenInfo.Expiry zero ("unknown"): an expired token is accepted and
// never expires, nor does its cache entry end before CacheTTL. README:
// "oauth.NewIntrospectionVerifier asks the server (RFC 7662; active, iss,
// aud, exp, nbf ...)" and IntrospectionVerifier: the token must be
// "unexpired"; the JWT verifier (go-jose) refuses the same exp as expired.
func TestAttackIntrospectionExpAtYearOneNeverExpires(t *testing.T) {
	const aud = "https://mcp.example.test/mcp"
	for _, exp := range []string{"-62135596800", "-62135596800.5"} {
		v := attackIntrospectionVerifier(t, aud,
			`{"active":true,"sub":"alice","client_id":"c","aud":"`+aud+`","exp":`+exp+`}`)
		info, err := v.VerifyToken(context.Background(), "opaque-token")
		if err == nil {
			t.Errorf("exp %s (year 1, long past): token accepted, TokenInfo.Expiry = %v (IsZero %v); want it refused as expired",
				exp, info.Expiry, info.Expiry.IsZero())
		}
	}
}
