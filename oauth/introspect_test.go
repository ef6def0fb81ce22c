package oauth

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/server"
)

// TestIntrospectionRefusesTokenBeforeNotBefore: the introspection
// response says the token is active, for this audience, unexpired, but
// not to be used before an hour from now (RFC 7662 §2.2 "nbf"). It is
// refused with server.ErrInvalidToken, as the JWT verifier refuses such a
// token: server.TokenVerifier's contract (server/auth.go) "MUST check
// that the token is valid now (signature or introspection, expiry,
// not-before)".
func TestIntrospectionRefusesTokenBeforeNotBefore(t *testing.T) {
	const iss, aud = "https://as.example", "https://mcp.example/mcp"
	now := time.Now()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{"active": true, "iss": iss, "aud": aud, "sub": "alice",
			"scope": "mcp", "exp": now.Add(2 * time.Hour).Unix(), "nbf": now.Add(time.Hour).Unix()})
	}))
	defer srv.Close()
	v, err := NewIntrospectionVerifier(context.Background(), IntrospectionConfig{Issuer: iss, Audience: aud,
		ClientID: "rs", ClientSecret: "s", IntrospectionURL: srv.URL + "/introspect", TokenURL: srv.URL + "/token", CacheTTL: -1})
	if err != nil {
		t.Fatal(err)
	}
	info, err := v.VerifyToken(context.Background(), "opaque-token")
	if err == nil {
		t.Fatalf("a token not valid before %s accepted now (subject %q)", now.Add(time.Hour).Format(time.RFC3339), info.Subject)
	}
	if !errors.Is(err, server.ErrInvalidToken) {
		t.Fatalf("err = %v, want one wrapping server.ErrInvalidToken", err)
	}
}

// TestIntrospectionRefusesNullResponse: the introspection endpoint answers
// 200 with the JSON body "null" (a broken or hostile endpoint; RFC 7662
// §2.2 requires a JSON object with "active"). VerifyToken refuses the
// token with an error, as a failed call; it panicked with a nil pointer
// dereference (the response decoded into a nil pointer without error).
func TestIntrospectionRefusesNullResponse(t *testing.T) {
	const aud = "https://mcp.example.test/mcp"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`null`))
	}))
	defer srv.Close()
	v, err := NewIntrospectionVerifier(context.Background(), IntrospectionConfig{Issuer: testIssuer, Audience: aud,
		ClientID: "rs", ClientSecret: "s", IntrospectionURL: srv.URL + "/introspect", TokenURL: srv.URL + "/token"})
	if err != nil {
		t.Fatal(err)
	}
	var verr error
	func() {
		defer func() {
			if r := recover(); r != nil {
				t.Fatalf("VerifyToken panicked on an introspection response of null: %v", r)
			}
		}()
		_, verr = v.VerifyToken(context.Background(), "opaque-token")
	}()
	if verr == nil {
		t.Fatal("a token accepted on an introspection response of null")
	}
	_ = errors.Is(verr, server.ErrInvalidToken) // a failed call need not wrap it (README: "returned as it is (also answered 401)")
}

// TestIntrospectionNullResponseIsUnauthorized: the same null answer behind
// server.Auth is 401 invalid_token with a WWW-Authenticate challenge
// (IntrospectionVerifier.VerifyToken: "a failed call to the endpoint is
// returned as it is (also answered 401)"). The panic aborted the request:
// the client got no response at all.
func TestIntrospectionNullResponseIsUnauthorized(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`null`))
	}))
	defer srv.Close()
	m := startMCP(t, func(resource string) server.TokenVerifier {
		v, err := NewIntrospectionVerifier(context.Background(), IntrospectionConfig{Issuer: testIssuer, Audience: resource,
			ClientID: "rs", ClientSecret: "s", IntrospectionURL: srv.URL + "/introspect", TokenURL: srv.URL + "/token"})
		if err != nil {
			t.Fatal(err)
		}
		return v
	}, testIssuer)
	req, _ := http.NewRequest(http.MethodPost, m.url, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{}}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("MCP-Protocol-Version", "2026-07-28")
	req.Header.Set("Mcp-Method", "tools/list")
	req.Header.Set("Authorization", "Bearer opaque-token")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("no response to a request whose token the introspection endpoint answered null: %v", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized || !strings.Contains(resp.Header.Get("WWW-Authenticate"), "invalid_token") {
		t.Fatalf("status %d, WWW-Authenticate %q; want 401 invalid_token", resp.StatusCode, resp.Header.Get("WWW-Authenticate"))
	}
}

// TestIntrospectionRefusesNotBeforeOutOfRange: an introspection answer
// says the token is active but "nbf": 1e19, not to be used for billions of
// years (RFC 7662 §2.2 "nbf"; RFC 7519 §4.1.5). It was accepted: the
// library's time type converted the float64 to int64 out of range (on
// amd64 math.MinInt64, the distant past). Dates beyond ±2^62 seconds are
// now refused on the introspection path as the JWT verifier (go-jose)
// refuses them, in "exp" and "iat" too.
func TestIntrospectionRefusesNotBeforeOutOfRange(t *testing.T) {
	const aud = "https://mcp.example.test/mcp"
	exp := strconv.FormatInt(time.Now().Add(time.Hour).Unix(), 10)
	for _, dates := range []string{`"exp":` + exp + `,"nbf":1e19`, `"exp":` + exp + `,"iat":1e19`,
		`"exp":1e19`, `"exp":` + exp + `,"nbf":"soon"`} {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write([]byte(`{"active":true,"iss":"` + testIssuer + `","aud":"` + aud + `","sub":"alice","scope":"mcp",` + dates + `}`))
		}))
		v, err := NewIntrospectionVerifier(context.Background(), IntrospectionConfig{Issuer: testIssuer, Audience: aud,
			ClientID: "rs", ClientSecret: "s", IntrospectionURL: srv.URL + "/introspect", TokenURL: srv.URL + "/token", CacheTTL: -1})
		if err != nil {
			t.Fatal(err)
		}
		if info, err := v.VerifyToken(context.Background(), "opaque-token"); err == nil {
			t.Errorf("an introspected token with %s accepted now (subject %q)", dates, info.Subject)
		} else if !errors.Is(err, server.ErrInvalidToken) {
			t.Errorf("%s: err %v, want one wrapping server.ErrInvalidToken", dates, err)
		}
		srv.Close()
	}
	// The JWT verifier refuses the same nbf.
	as := newJWKSAS(t)
	if _, err := as.verifier(t)(aud).VerifyToken(context.Background(), as.sign(t, aud, map[string]any{"nbf": 1e19})); err == nil {
		t.Errorf("the JWT verifier accepted nbf 1e19 too")
	}
}

// answeringIntrospectionVerifier is an IntrospectionVerifier (no cache) whose
// endpoint answers every token with body.
func answeringIntrospectionVerifier(t *testing.T, aud, body string) *IntrospectionVerifier {
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

// TestIntrospectionRefusesExpAtYearOneAsExpired: an introspection
// response with "exp": -62135596800, a NumericDate well within the ±2^62
// range numericDate accepts, is 0001-01-01T00:00:00Z — the instant Go's
// zero time.Time stands for. numericDate returned it as is, checkDates and
// the server read that as "no exp" (IsZero), and the token was accepted
// with TokenInfo.Expiry zero ("unknown"): an expired token is accepted and
// never expires, nor does its cache entry end before CacheTTL. README:
// "oauth.NewIntrospectionVerifier asks the server (RFC 7662; active, iss,
// aud, exp, nbf ...)" and IntrospectionVerifier: the token must be
// "unexpired"; the JWT verifier (go-jose) refuses the same exp as expired.
func TestIntrospectionRefusesExpAtYearOneAsExpired(t *testing.T) {
	const aud = "https://mcp.example.test/mcp"
	for _, exp := range []string{"-62135596800", "-62135596800.5"} {
		v := answeringIntrospectionVerifier(t, aud,
			`{"active":true,"sub":"alice","client_id":"c","aud":"`+aud+`","exp":`+exp+`}`)
		info, err := v.VerifyToken(context.Background(), "opaque-token")
		if err == nil {
			t.Errorf("exp %s (year 1, long past): token accepted, TokenInfo.Expiry = %v (IsZero %v); want it refused as expired",
				exp, info.Expiry, info.Expiry.IsZero())
		}
	}
}

// TestJWTRefusesExpAtYearOneAsExpired: the JWT verifier refuses the exp
// TestIntrospectionRefusesExpAtYearOneAsExpired sends, as expired: the
// two verifiers agree on it.
func TestJWTRefusesExpAtYearOneAsExpired(t *testing.T) {
	const aud = "https://mcp.example.test/mcp"
	as := newJWKSAS(t)
	tok := as.sign(t, aud, map[string]any{"exp": int64(-62135596800), "iat": int64(-62135596900)})
	if info, err := as.verifier(t)(aud).VerifyToken(context.Background(), tok); err == nil {
		t.Errorf("a JWT whose exp is year 1 accepted, TokenInfo.Expiry %v", info.Expiry)
	}
}

// TestIntrospectionRefusesRepeatedMembers: an introspection response that
// names a member twice ("active" false then true, or two "aud" values) is
// read by encoding/json's last-wins map, another reader's first-wins:
// such a response is refused as malformed, as Discover refuses metadata
// with a repeated member, and so is one naming "Active" for "active".
func TestIntrospectionRefusesRepeatedMembers(t *testing.T) {
	const aud = "https://mcp.example.test/mcp"
	for _, body := range []string{
		`{"active":false,"sub":"alice","aud":"` + aud + `","active":true}`,
		`{"active":true,"sub":"alice","aud":"https://other.example/mcp","aud":"` + aud + `"}`,
		`{"active":true,"sub":"alice","aud":"` + aud + `","ext":{"a":1,"a":2}}`,
		`{"Active":true,"sub":"alice","aud":"` + aud + `"}`,
	} {
		v := answeringIntrospectionVerifier(t, aud, body)
		if _, err := v.VerifyToken(context.Background(), "opaque-token"); err == nil {
			t.Errorf("introspection response %s: token accepted; want it refused", body)
		}
	}
}
