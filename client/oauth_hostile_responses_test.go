package client

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/url"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/jsonrpc"
)

// TestStepUpNamingNoScopeIsBounded: the server answers every request
// carrying a token with 403 `Bearer error="insufficient_scope"`, naming
// no scope (and nothing else names one: no scopes_supported, no
// OAuth.Scopes), or naming one it never accepts. The step-up asks for the
// same set each time, the empty one too, and is counted: README "a scope
// set the server keeps refusing is asked for at most twice in a row, then
// ErrInsufficientScope"; basic/authorization/ Step-Up: "Clients SHOULD
// implement retry limits".
func TestStepUpNamingNoScopeIsBounded(t *testing.T) {
	for _, scope := range []string{"", "files:read"} {
		t.Run("scope="+scope, func(t *testing.T) {
			a := newHostileAS(t)
			a.mcp = func(w http.ResponseWriter, r *http.Request) {
				if r.Header.Get("Authorization") == "" {
					a.challenge401(w)
					return
				}
				ch := `Bearer error="insufficient_scope"`
				if scope != "" {
					ch += `, scope="` + scope + `"`
				}
				w.Header().Set("WWW-Authenticate", ch)
				w.WriteHeader(http.StatusForbidden)
			}
			tr := OAuthHTTP(a.srv.URL+"/mcp", a.oauth())
			var err error
			for i := 0; i < 6; i++ {
				if err = hostileCall(tr); errors.Is(err, ErrInsufficientScope) {
					break
				}
			}
			// One login on the 401, then at most maxStepUps step-ups.
			if n := a.authz.Load(); n > 1+maxStepUps || !errors.Is(err, ErrInsufficientScope) {
				t.Fatalf("6 requests refused with insufficient_scope (scope %q): %d authorizations, last error %v; want at most %d and ErrInsufficientScope",
					scope, n, err, 1+maxStepUps)
			}
		})
	}
}

// TestStepUpCountsTheScopesAskedFor: as TestStepUpNamingNoScopeIsBounded,
// with an authorization server that lists offline_access in
// scopes_supported, and a first login that asked for no scope. Every
// step-up asks for "files:read offline_access", and the run is counted
// under that set, the one actually asked for: at most twice in a row,
// then ErrInsufficientScope (README).
func TestStepUpCountsTheScopesAskedFor(t *testing.T) {
	a := newHostileAS(t)
	meta := a.meta
	a.meta = func() map[string]any {
		m := meta()
		m["scopes_supported"] = []string{"files:read", "offline_access"}
		return m
	}
	a.mcp = func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") == "" {
			a.challenge401(w)
			return
		}
		w.Header().Set("WWW-Authenticate", `Bearer error="insufficient_scope", scope="files:read"`)
		w.WriteHeader(http.StatusForbidden)
	}
	tr := OAuthHTTP(a.srv.URL+"/mcp", a.oauth())
	var err error
	for i := 0; i < 6 && !errors.Is(err, ErrInsufficientScope); i++ {
		err = hostileCall(tr)
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	same := 0
	var asked []string
	for _, u := range a.authzURLs {
		s := u.Query().Get("scope")
		asked = append(asked, s)
		if s == "files:read offline_access" {
			same++
		}
	}
	if same > maxStepUps || !errors.Is(err, ErrInsufficientScope) {
		t.Fatalf("scopes asked for, in order: %q; %d step-ups for one refused set (last error %v); want at most %d, then ErrInsufficientScope",
			asked, same, err, maxStepUps)
	}
}

// TestMetadataRedirectLoopStopsAfterTenRedirects: the resource metadata
// URL redirects to itself (same origin) forever. OAuth's default HTTP
// client refuses other origins with its own CheckRedirect, which replaces
// net/http's stop after 10 redirects: it keeps that bound itself, and the
// login fails at once with "stopped after 10 redirects", not at the
// caller's deadline after thousands of requests.
func TestMetadataRedirectLoopStopsAfterTenRedirects(t *testing.T) {
	a := newHostileAS(t)
	var hops atomic.Int32
	a.mux.HandleFunc("/loop", func(w http.ResponseWriter, r *http.Request) {
		hops.Add(1)
		http.Redirect(w, r, "/loop", http.StatusFound)
	})
	a.mcp = func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("WWW-Authenticate", `Bearer resource_metadata="`+a.srv.URL+`/loop"`)
		w.WriteHeader(http.StatusUnauthorized)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	start := time.Now()
	_, err := OAuthHTTP(a.srv.URL+"/mcp", a.oauth()).RoundTrip(ctx, &Request{ID: jsonrpc.IntID(1), Method: "tools/list", ProtocolVersion: "2026-07-28"})
	msg := ""
	if err != nil {
		msg = string(clipBytes([]byte(err.Error()), 300))
	}
	if n := hops.Load(); n > 20 || strings.Contains(msg, "deadline") {
		t.Fatalf("a same-origin redirect loop at the resource metadata URL was followed %d times in %v (error: %s); want it stopped after about 10",
			n, time.Since(start).Round(time.Millisecond), msg)
	}
}

// TestHugeChallengeFieldMemoryIsBounded: a hostile server answers 401
// with a 4 MiB WWW-Authenticate field (net/http's client accepts 10 MiB
// of response headers) made of "a," — two million one-word challenges.
// The client parses at most maxChallengeBytes of WWW-Authenticate and
// builds parameters only for Bearer and DPoP challenges: the field costs
// about its own size, not 100 times it.
func TestHugeChallengeFieldMemoryIsBounded(t *testing.T) {
	a := newHostileAS(t)
	field := strings.Repeat("a,", 2<<20)
	a.mcp = func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("WWW-Authenticate", field)
		w.WriteHeader(http.StatusUnauthorized)
	}
	tr := OAuthHTTP(a.srv.URL+"/mcp", a.oauth())
	var m0, m1 runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&m0)
	_ = hostileCall(tr)
	runtime.ReadMemStats(&m1)
	if got := (m1.TotalAlloc - m0.TotalAlloc) >> 20; got > 128 {
		t.Fatalf("one 401 with a 4 MiB WWW-Authenticate field made the client allocate %d MiB", got)
	}
}

// TestBearerChallengeAfterDPoPChallengeIsUsed: a resource server that
// accepts both DPoP and bearer tokens (RFC 9449 §7.2) lists a DPoP
// challenge first, carrying only algs, and then the Bearer challenge
// with the parameters: `DPoP algs="ES256", Bearer resource_metadata=…`
// on a 401, `DPoP algs="ES256", Bearer error="insufficient_scope",
// scope=…` on a 403 to a request that presented a bearer token. The
// client merges the two challenges' parameters: it uses the hinted
// metadata URL (authorization-server-discovery.mdx: "use the resource
// metadata URL from the parsed WWW-Authenticate headers when present";
// RFC 9728 §5.1: in any scheme's challenge) and steps up on the 403
// (basic/authorization/, Step-Up).
func TestBearerChallengeAfterDPoPChallengeIsUsed(t *testing.T) {
	t.Run("401 resource_metadata", func(t *testing.T) {
		a := newHostileAS(t)
		a.mux.HandleFunc("/prm", func(w http.ResponseWriter, r *http.Request) { _ = json.NewEncoder(w).Encode(a.prm()) })
		a.prm = func() map[string]any {
			return map[string]any{"resource": a.srv.URL + "/mcp", "authorization_servers": []string{a.srv.URL}}
		}
		a.noWellKnownPRM = true
		a.mcp = func(w http.ResponseWriter, r *http.Request) {
			if r.Header.Get("Authorization") == "" {
				w.Header().Add("WWW-Authenticate", `DPoP algs="ES256"`)
				w.Header().Add("WWW-Authenticate", `Bearer resource_metadata="`+a.srv.URL+`/prm"`)
				w.WriteHeader(http.StatusUnauthorized)
				return
			}
			a.ok(w)
		}
		if err := hostileCall(OAuthHTTP(a.srv.URL+"/mcp", a.oauth())); err != nil || a.authz.Load() == 0 {
			t.Fatalf("the Bearer challenge's resource_metadata after a DPoP challenge was not used: %d authorizations, call error %v", a.authz.Load(), err)
		}
	})
	t.Run("403 insufficient_scope", func(t *testing.T) {
		a := newHostileAS(t)
		a.mcp = func(w http.ResponseWriter, r *http.Request) {
			switch h := r.Header.Get("Authorization"); {
			case h == "":
				a.challenge401(w)
			case a.authz.Load() < 2: // the first token lacks the scope
				w.Header().Set("WWW-Authenticate", `DPoP algs="ES256", Bearer error="insufficient_scope", scope="files:write"`)
				w.WriteHeader(http.StatusForbidden)
			default:
				a.ok(w)
			}
		}
		tr := OAuthHTTP(a.srv.URL+"/mcp", a.oauth())
		_ = hostileCall(tr)    // 401, login, then 403 to the retry
		err := hostileCall(tr) // 403: step up, retry
		if err != nil || a.authz.Load() != 2 {
			t.Fatalf("a 403 whose Bearer challenge says insufficient_scope (after a DPoP challenge) got no step-up: %d authorizations, call error %v", a.authz.Load(), err)
		}
	})
}

// TestHugeExpiresInIsADistantExpiry: the token endpoint gives
// expires_in 10000000000 (about 317 years; RFC 6749 §5.1 puts no bound
// on it), beyond what time.Duration holds. The stored Token.Expiry is a
// distant time (capped at 100 years), not an overflow into the past that
// would make a token just issued look expired (a persistent Store's next
// run would not use it: oauth_stored.go useStored).
func TestHugeExpiresInIsADistantExpiry(t *testing.T) {
	a := newHostileAS(t)
	a.token = func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"access_token":"tok-1","token_type":"Bearer","expires_in":10000000000}`))
	}
	o := a.oauth()
	store := &MemoryStore{}
	o.Store = store
	if err := hostileCall(OAuthHTTP(a.srv.URL+"/mcp", o)); err != nil {
		t.Fatalf("call: %v", err)
	}
	tok := store.Token(a.srv.URL, a.srv.URL+"/mcp")
	if tok == nil {
		t.Fatal("no token stored")
	}
	if !tok.Expiry.IsZero() && tok.Expiry.Before(time.Now()) {
		t.Fatalf("a token issued with expires_in 1e10 was stored with Expiry %v, already in the past", tok.Expiry)
	}
}

// TestOversizedTokenResponseSaysSo: the token endpoint answers 200 with
// a JSON body over the 1 MiB the client reads. The login fails saying the
// body exceeds the limit, not "HTTP 200" with nothing after it.
func TestOversizedTokenResponseSaysSo(t *testing.T) {
	a := newHostileAS(t)
	a.token = func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"access_token":"tok-1","token_type":"Bearer","pad":"` + strings.Repeat("x", 2<<20) + `"}`))
	}
	err := hostileCall(OAuthHTTP(a.srv.URL+"/mcp", a.oauth()))
	if err == nil || !strings.Contains(err.Error(), "exceeds") {
		t.Fatalf("a token response over the read limit gave %v; want an error saying the body exceeds the limit", err)
	}
}

// TestAuthorizeReturningNoURLIsAnError: OAuth.Authorize returns
// (nil, nil) — no callback URL and no error (a host's browser helper
// that gave up without saying why). The login fails with an error naming
// the missing callback; nothing panics inside the transport's RoundTrip.
func TestAuthorizeReturningNoURLIsAnError(t *testing.T) {
	a := newHostileAS(t)
	o := a.oauth()
	o.Authorize = func(ctx context.Context, u string) (*url.URL, error) { return nil, nil }
	defer func() {
		if p := recover(); p != nil {
			t.Fatalf("Authorize returning (nil, nil) made the call panic: %v", p)
		}
	}()
	if err := hostileCall(OAuthHTTP(a.srv.URL+"/mcp", o)); err == nil {
		t.Fatal("the call succeeded without an authorization response")
	}
}

// TestOversizedRegistrationResponseSaysSo: as
// TestOversizedTokenResponseSaysSo, for the dynamic registration
// endpoint's answer.
func TestOversizedRegistrationResponseSaysSo(t *testing.T) {
	a := newHostileAS(t)
	meta := a.meta
	a.meta = func() map[string]any {
		m := meta()
		m["registration_endpoint"] = a.srv.URL + "/register"
		return m
	}
	a.mux.HandleFunc("/register", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusCreated)
		_, _ = w.Write([]byte(`{"client_id":"c2","pad":"` + strings.Repeat("x", 2<<20) + `"}`))
	})
	o := a.oauth()
	o.ClientID = ""
	err := hostileCall(OAuthHTTP(a.srv.URL+"/mcp", o))
	if err == nil || !strings.Contains(err.Error(), "exceeds") || !strings.Contains(err.Error(), "registration") {
		t.Fatalf("a registration response over the read limit gave %v; want an error saying the body exceeds the limit", err)
	}
}

// TestChallengeParamsPreferTheSchemeOfTheTokenSent: Bearer and DPoP
// challenges in one response are merged, a parameter both carry taken
// from the scheme of the token the request presented (Bearer when none),
// the other scheme filling in what it lacks.
func TestChallengeParamsPreferTheSchemeOfTheTokenSent(t *testing.T) {
	field := `DPoP algs="ES256", error="invalid_token", Bearer error="insufficient_scope", scope="s", ` +
		`Basic realm="x", resource_metadata="ignored"`
	for _, tc := range []struct{ sent, scheme, err string }{
		{"", "Bearer", "insufficient_scope"},
		{"Bearer t", "Bearer", "insufficient_scope"},
		{"DPoP t", "DPoP", "invalid_token"},
	} {
		req, _ := http.NewRequest(http.MethodPost, "http://x/mcp", nil)
		if tc.sent != "" {
			req.Header.Set("Authorization", tc.sent)
		}
		resp := &http.Response{Header: http.Header{"Www-Authenticate": {field}}, Request: req}
		ch := challengeOf(resp)
		if ch.scheme != tc.scheme || ch.params["error"] != tc.err || ch.params["scope"] != "s" ||
			ch.params["algs"] != "ES256" || ch.params["resource_metadata"] != "" {
			t.Errorf("sent %q: %s %v; want %s, error %q, scope and algs, no Basic parameter", tc.sent, ch.scheme, ch.params, tc.scheme, tc.err)
		}
	}
}
