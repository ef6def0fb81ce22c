package client

import (
	"errors"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"
)

// TestStepUpBoundHoldsUnderConcurrentCalls: the server refuses every
// token for scope "admin". Calls run eight at a time: concurrent refusals
// of one token step up once, and the scope set is asked for at most
// maxStepUps times in a row however the calls interleave (README), then
// ErrInsufficientScope; run with -race.
func TestStepUpBoundHoldsUnderConcurrentCalls(t *testing.T) {
	a := newHostileAS(t)
	a.issueNumberedTokens()
	a.mcp = func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") == "" {
			a.challenge401(w)
			return
		}
		w.Header().Set("WWW-Authenticate", `Bearer error="insufficient_scope", scope="admin"`)
		w.WriteHeader(http.StatusForbidden)
	}
	tr := OAuthHTTP(a.srv.URL+"/mcp", a.oauth())
	var wg sync.WaitGroup
	var insufficient atomic.Int32
	for range 8 {
		wg.Go(func() {
			for range 4 {
				if err := hostileCall(tr); errors.Is(err, ErrInsufficientScope) {
					insufficient.Add(1)
				}
			}
		})
	}
	wg.Wait()
	if n := a.authz.Load(); n > 1+maxStepUps || insufficient.Load() == 0 {
		t.Fatalf("%d authorizations (want at most %d: one login, %d step-ups), %d calls ended in ErrInsufficientScope",
			n, 1+maxStepUps, maxStepUps, insufficient.Load())
	}
}
