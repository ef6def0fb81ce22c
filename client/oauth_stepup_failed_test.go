package client

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"sync/atomic"
	"testing"
)

// TestStepUpsWhoseLoginFailedAreNotCounted: a step-up whose login fails
// (the user closed the browser) returns that error to the caller and is not
// counted toward maxStepUps, so the same scope set can be stepped up to once
// the user does authorize; the bound is for a server that keeps refusing
// what a login got.
func TestStepUpsWhoseLoginFailedAreNotCounted(t *testing.T) {
	a := newHostileAS(t)
	a.issueNumberedTokens()
	a.mcp = func(w http.ResponseWriter, r *http.Request) {
		switch r.Header.Get("Authorization") {
		case "":
			a.challenge401(w)
		case "Bearer tok-1": // the first login's token lacks "admin"
			w.Header().Set("WWW-Authenticate", `Bearer error="insufficient_scope", scope="admin"`)
			w.WriteHeader(http.StatusForbidden)
		default:
			a.ok(w)
		}
	}
	closed := errors.New("the user closed the browser")
	o := a.oauth()
	authorize := o.Authorize
	var attempts atomic.Int32
	o.Authorize = func(ctx context.Context, u string) (*url.URL, error) {
		if n := attempts.Add(1); n >= 2 && n <= 1+maxStepUps { // the first maxStepUps step-ups
			return nil, closed
		}
		return authorize(ctx, u)
	}
	tr := OAuthHTTP(a.srv.URL+"/mcp", o)
	// The first call logs in and its retry, with tok-1, is refused: a
	// request is sent again once.
	if err := hostileCall(tr); err == nil {
		t.Fatal("the first call, answered 403 after its login, succeeded")
	}
	for i := range maxStepUps {
		if err := hostileCall(tr); !errors.Is(err, closed) {
			t.Fatalf("call %d: %v, want the failed login's error", i+1, err)
		}
	}
	if err := hostileCall(tr); err != nil {
		t.Fatalf("call after %d failed step-up logins, the user now authorizing: %v", maxStepUps, err)
	}
}
