package client

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

// TestStepUpBoundSurvivesInterleaved401s: the server answers the tokens
// it issues in turn with 403 insufficient_scope (scope "admin") and 401:
// each step-up's token is refused with 401, whose new login's token is
// refused with 403 again. A 401 reset the step-up count, so the count
// never passed one and every call sent the user to authorize, for ever,
// never ErrInsufficientScope. README: a scope set the server keeps
// refusing is asked for at most twice in a row; basic/authorization/
// Step-Up: "Clients SHOULD implement retry limits". A 401 between does
// not start a new count.
func TestStepUpBoundSurvivesInterleaved401s(t *testing.T) {
	a := newHostileAS(t)
	a.issueNumberedTokens()
	a.mcp = func(w http.ResponseWriter, r *http.Request) {
		var n int
		if _, err := fmt.Sscanf(r.Header.Get("Authorization"), "Bearer tok-%d", &n); err != nil || n%2 == 0 {
			a.challenge401(w)
			return
		}
		w.Header().Set("WWW-Authenticate", `Bearer error="insufficient_scope", scope="admin"`)
		w.WriteHeader(http.StatusForbidden)
	}
	tr := OAuthHTTP(a.srv.URL+"/mcp", a.oauth())
	var err error
	calls := 0
	for ; calls < 20 && !errors.Is(err, ErrInsufficientScope); calls++ {
		err = hostileCall(tr)
	}
	stepUps := 0
	a.mu.Lock()
	for _, u := range a.authzURLs {
		if strings.Contains(u.Query().Get("scope"), "admin") {
			stepUps++
		}
	}
	a.mu.Unlock()
	// One login, then each step-up and the 401's login after it.
	if !errors.Is(err, ErrInsufficientScope) || a.authz.Load() > 1+2*maxStepUps {
		t.Fatalf("%d calls, %d authorizations (%d asking for admin): last error %v; want ErrInsufficientScope after at most %d authorizations",
			calls, a.authz.Load(), stepUps, err, 1+2*maxStepUps)
	}
}

// TestStepUpThatWorkedStartsANewCount: every step-up works (the request
// sent again with its token is answered), and the server later refuses
// that token for the same scope again. The count is of step-ups in a row
// that did not work: each worked one starts a new run, so the client
// keeps stepping up rather than giving up after maxStepUps over its life.
func TestStepUpThatWorkedStartsANewCount(t *testing.T) {
	a := newHostileAS(t)
	a.issueNumberedTokens()
	var used sync.Map // token → requests it was presented on
	a.mcp = func(w http.ResponseWriter, r *http.Request) {
		auth := r.Header.Get("Authorization")
		if auth == "" {
			a.challenge401(w)
			return
		}
		n, _ := used.LoadOrStore(auth, new(atomic.Int32))
		if n.(*atomic.Int32).Add(1) > 1 { // each token answered once, then refused for "admin"
			w.Header().Set("WWW-Authenticate", `Bearer error="insufficient_scope", scope="admin"`)
			w.WriteHeader(http.StatusForbidden)
			return
		}
		a.ok(w)
	}
	tr := OAuthHTTP(a.srv.URL+"/mcp", a.oauth())
	for i := range 2 * (maxStepUps + 1) {
		if err := hostileCall(tr); err != nil {
			t.Fatalf("call %d (after %d authorizations, every step-up answered): %v", i+1, a.authz.Load(), err)
		}
	}
}
