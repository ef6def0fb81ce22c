package client

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/url"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/jsonrpc"
)

// attackAS is a protected MCP server at /mcp that is also its own
// authorization server (authorization code flow, PKCE S256). Each part
// can be replaced by a test.
type attackAS struct {
	srv *httptest.Server
	mux *http.ServeMux

	mu        sync.Mutex
	authzURLs []*url.URL   // authorization requests the client made
	tokenReqs []url.Values // token request forms
	authz     atomic.Int32

	noWellKnownPRM bool // the resource metadata only at the resource_metadata URL

	mcp   http.HandlerFunc
	prm   func() map[string]any
	meta  func() map[string]any
	token http.HandlerFunc
}

func newAttackAS(t *testing.T) *attackAS {
	t.Helper()
	a := &attackAS{mux: http.NewServeMux()}
	a.srv = httptest.NewServer(a.mux)
	t.Cleanup(a.srv.Close)
	a.prm = func() map[string]any {
		return map[string]any{"resource": a.srv.URL + "/mcp", "authorization_servers": []string{a.srv.URL}}
	}
	a.meta = func() map[string]any {
		return map[string]any{"issuer": a.srv.URL, "authorization_endpoint": a.srv.URL + "/authorize",
			"token_endpoint": a.srv.URL + "/token", "response_types_supported": []string{"code"},
			"code_challenge_methods_supported": []string{"S256"}}
	}
	a.token = func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{"access_token": "tok-1", "token_type": "Bearer", "expires_in": 300})
	}
	a.mcp = func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") == "" {
			a.challenge401(w)
			return
		}
		a.ok(w)
	}
	a.mux.HandleFunc("/mcp", func(w http.ResponseWriter, r *http.Request) { a.mcp(w, r) })
	a.mux.HandleFunc("/.well-known/oauth-protected-resource/mcp", func(w http.ResponseWriter, r *http.Request) {
		if a.noWellKnownPRM {
			http.NotFound(w, r)
			return
		}
		_ = json.NewEncoder(w).Encode(a.prm())
	})
	a.mux.HandleFunc("/.well-known/oauth-authorization-server", func(w http.ResponseWriter, r *http.Request) {
		_ = json.NewEncoder(w).Encode(a.meta())
	})
	a.mux.HandleFunc("/token", func(w http.ResponseWriter, r *http.Request) {
		_ = r.ParseForm()
		a.mu.Lock()
		a.tokenReqs = append(a.tokenReqs, r.PostForm)
		a.mu.Unlock()
		a.token(w, r)
	})
	return a
}

func (a *attackAS) challenge401(w http.ResponseWriter) {
	w.Header().Set("WWW-Authenticate", `Bearer resource_metadata="`+a.srv.URL+`/.well-known/oauth-protected-resource/mcp"`)
	w.WriteHeader(http.StatusUnauthorized)
}

func (a *attackAS) ok(w http.ResponseWriter) {
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write([]byte(`{"jsonrpc":"2.0","id":1,"result":{"tools":[]}}`))
}

// oauth is a user-facing OAuth whose Authorize approves at once: it
// answers with a code, the request's state and the issuer.
func (a *attackAS) oauth() *OAuth {
	return &OAuth{
		RedirectURL: "http://127.0.0.1:1/cb",
		ClientID:    "c1",
		Authorize: func(ctx context.Context, authorizationURL string) (*url.URL, error) {
			u, err := url.Parse(authorizationURL)
			if err != nil {
				return nil, err
			}
			a.authz.Add(1)
			a.mu.Lock()
			a.authzURLs = append(a.authzURLs, u)
			a.mu.Unlock()
			q := url.Values{"code": {"code-1"}, "state": {u.Query().Get("state")}, "iss": {a.srv.URL}}
			return url.Parse("http://127.0.0.1:1/cb?" + q.Encode())
		},
	}
}

// call sends one tools/list through tr.
func attackCall(tr *HTTPTransport) error {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_, err := tr.RoundTrip(ctx, &Request{ID: jsonrpc.IntID(1), Method: "tools/list", ProtocolVersion: "2026-07-28"})
	return err
}

// TestAttackStepUpWithoutScopeIsBounded: the server answers every request
// carrying a token with 403 `Bearer error="insufficient_scope"` naming no
// scope, and nothing else names a scope (no challenge scope, no
// scopes_supported, no OAuth.Scopes): the scope set asked for is the
// empty one every time. README: "a scope set the server keeps refusing
// is asked for at most twice in a row, then ErrInsufficientScope";
// basic/authorization/ Step-Up: "Clients SHOULD implement retry limits".
// Now the empty set is never counted (unionScopes(nil, nil) is nil, which
// login takes for "choose the scopes" and skips stepUpAllowed): every
// request sends the user through the authorization flow again, forever.
func TestAttackStepUpWithoutScopeIsBounded(t *testing.T) {
	for _, scope := range []string{"", "files:read"} {
		t.Run("scope="+scope, func(t *testing.T) {
			a := newAttackAS(t)
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
				if err = attackCall(tr); errors.Is(err, ErrInsufficientScope) {
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

// TestAttackHugeExpiresInIsNotAlreadyExpired: the token endpoint gives
// expires_in 10000000000 (about 317 years; RFC 6749 §5.1 puts no bound
// on it). time.Duration(expires_in)*time.Second overflows int64, and the
// stored Token.Expiry lands in the past: a token just issued is taken
// for expired (a persistent Store's next run will not use it:
// oauth_stored.go useStored). Token.Expiry is documented as the
// expiry ("zero: unknown"), not a time before the token was issued.
func TestAttackHugeExpiresInIsNotAlreadyExpired(t *testing.T) {
	a := newAttackAS(t)
	a.token = func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"access_token":"tok-1","token_type":"Bearer","expires_in":10000000000}`))
	}
	o := a.oauth()
	store := &MemoryStore{}
	o.Store = store
	if err := attackCall(OAuthHTTP(a.srv.URL+"/mcp", o)); err != nil {
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

// TestAttackMetadataRedirectLoopIsBounded: the resource metadata URL
// redirects to itself (same origin) forever. OAuth's default HTTP client
// sets CheckRedirect (to refuse other origins), which replaces net/http's
// default stop after 10 redirects, and never counts hops itself: the
// client follows the loop until its 30 s timeout or the caller's
// deadline, thousands of requests, and the error is a timeout instead of
// "stopped after 10 redirects". Preamble: never a hang; OAuth's
// HTTPClient doc: "a client with a 30 second timeout that follows no
// redirects to other origins" (not an unbounded number on one).
func TestAttackMetadataRedirectLoopIsBounded(t *testing.T) {
	a := newAttackAS(t)
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

// TestAttackBearerChallengeAfterDPoPChallenge: a resource server that
// accepts both DPoP and bearer tokens (RFC 9449 §7.2) lists a DPoP
// challenge first, carrying only algs, and then the Bearer challenge
// with the parameters: `DPoP algs="ES256", Bearer resource_metadata=…`
// on a 401, `DPoP algs="ES256", Bearer error="insufficient_scope",
// scope=…` on a 403 to a request that presented a bearer token.
// authorization-server-discovery.mdx: clients "MUST ... use the resource
// metadata URL from the parsed WWW-Authenticate headers when present";
// RFC 9728 §5.1 (resource_metadata may be in any scheme's challenge);
// basic/authorization/ Step-Up on insufficient_scope. Now parseChallenge
// stops at the first DPoP-or-Bearer challenge, the bare DPoP one: the
// hint is ignored (metadata only at the hinted URL: the login fails) and
// the 403 is not taken for insufficient_scope (no step-up).
func TestAttackBearerChallengeAfterDPoPChallenge(t *testing.T) {
	t.Run("401 resource_metadata", func(t *testing.T) {
		a := newAttackAS(t)
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
		if err := attackCall(OAuthHTTP(a.srv.URL+"/mcp", a.oauth())); err != nil || a.authz.Load() == 0 {
			t.Fatalf("the Bearer challenge's resource_metadata after a DPoP challenge was not used: %d authorizations, call error %v", a.authz.Load(), err)
		}
	})
	t.Run("403 insufficient_scope", func(t *testing.T) {
		a := newAttackAS(t)
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
		_ = attackCall(tr)    // 401, login, then 403 to the retry
		err := attackCall(tr) // 403: step up, retry
		if err != nil || a.authz.Load() != 2 {
			t.Fatalf("a 403 whose Bearer challenge says insufficient_scope (after a DPoP challenge) got no step-up: %d authorizations, call error %v", a.authz.Load(), err)
		}
	})
}

// TestAttackOversizedTokenResponseSaysSo: the token endpoint answers 200
// with a JSON body over the 1 MiB the client reads. readLimited reports
// that, but tokenResponse drops the error and parses nothing: the login
// fails with "token request at …: HTTP 200 : " — an HTTP 200 presented
// as the failure, no word of the size. Preamble: hostile input gets a
// clear error. (Dynamic registration drops the same error.)
func TestAttackOversizedTokenResponseSaysSo(t *testing.T) {
	a := newAttackAS(t)
	a.token = func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"access_token":"tok-1","token_type":"Bearer","pad":"` + strings.Repeat("x", 2<<20) + `"}`))
	}
	err := attackCall(OAuthHTTP(a.srv.URL+"/mcp", a.oauth()))
	if err == nil || !strings.Contains(err.Error(), "exceeds") {
		t.Fatalf("a token response over the read limit gave %v; want an error saying the body exceeds the limit", err)
	}
}

// TestAttackStepUpCountsTheScopesAskedFor: as TestAttackStepUpWithoutScope
// IsBounded, with an authorization server that lists offline_access in
// scopes_supported, and a first login that asked for no scope. Every
// step-up asks for "files:read offline_access", but the run is counted
// under the set before offline_access is added: the first step-up counts
// "files:read", the next ones "files:read offline_access", so the same
// scope set is asked for three times in a row. README: "a scope set the
// server keeps refusing is asked for at most twice in a row, then
// ErrInsufficientScope".
func TestAttackStepUpCountsTheScopesAskedFor(t *testing.T) {
	a := newAttackAS(t)
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
		err = attackCall(tr)
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

// TestAttackHugeChallengeMemoryIsBounded: a hostile server answers 401
// with a 4 MiB WWW-Authenticate field (net/http's client accepts 10 MiB
// of response headers) made of "a," — two million one-word challenges.
// parseChallenges builds every challenge of the field, each with its own
// params map, before parseChallengeOf looks for Bearer: about 100 bytes
// of heap per 2 bytes of header, some 400 MB held at once. Preamble:
// never unbounded memory (and the response bodies the flow reads are
// capped at 1 MiB; this field costs 100 times its size).
func TestAttackHugeChallengeMemoryIsBounded(t *testing.T) {
	a := newAttackAS(t)
	field := strings.Repeat("a,", 2<<20)
	a.mcp = func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("WWW-Authenticate", field)
		w.WriteHeader(http.StatusUnauthorized)
	}
	tr := OAuthHTTP(a.srv.URL+"/mcp", a.oauth())
	var m0, m1 runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&m0)
	_ = attackCall(tr)
	runtime.ReadMemStats(&m1)
	if got := (m1.TotalAlloc - m0.TotalAlloc) >> 20; got > 128 {
		t.Fatalf("one 401 with a 4 MiB WWW-Authenticate field made the client allocate %d MiB", got)
	}
}

// TestAttackAuthorizeReturningNoURLIsAnError: OAuth.Authorize returns
// (nil, nil) — no callback URL and no error (a host's browser helper
// that gave up without saying why). authorizeCode calls cb.Query() on
// the nil URL and panics inside the transport's RoundTrip, taking the
// host down. Preamble: never a panic; the login should fail with an
// error naming the missing callback.
func TestAttackAuthorizeReturningNoURLIsAnError(t *testing.T) {
	a := newAttackAS(t)
	o := a.oauth()
	o.Authorize = func(ctx context.Context, u string) (*url.URL, error) { return nil, nil }
	defer func() {
		if p := recover(); p != nil {
			t.Fatalf("Authorize returning (nil, nil) made the call panic: %v", p)
		}
	}()
	if err := attackCall(OAuthHTTP(a.srv.URL+"/mcp", o)); err == nil {
		t.Fatal("the call succeeded without an authorization response")
	}
}
