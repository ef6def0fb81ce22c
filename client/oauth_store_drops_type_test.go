package client

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
)

// typelessStore is a TokenStore written before tokens had to keep their
// type: it saves the access and refresh tokens and the expiry only.
type typelessStore struct{ MemoryStore }

func (s *typelessStore) SaveToken(issuer, resource string, t *Token) {
	kept := *t
	kept.TokenType = ""
	s.MemoryStore.SaveToken(issuer, resource, &kept)
}

// TestStoreDroppingTokenTypeIsAClearError: a TokenStore that does not
// keep Token.TokenType (one written for an earlier build, where a typeless
// token was sent as Bearer) made every call send the user through a whole
// authorization and then fail with a bare HTTP 401: the token the login
// just got came back from the store without its type and was not
// presented. Refusing a typeless stored token has a reason (it may be
// DPoP-bound, RFC 6749 §7.1), but the user must be told why: the error
// names the store dropping token_type, not an HTTP 401.
func TestStoreDroppingTokenTypeIsAClearError(t *testing.T) {
	a := newHostileAS(t)
	var issued atomic.Int32
	a.token = func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		n := issued.Add(1)
		_ = json.NewEncoder(w).Encode(map[string]any{"access_token": fmt.Sprintf("tok-%d", n), "token_type": "Bearer", "expires_in": 300})
	}
	a.mcp = func(w http.ResponseWriter, r *http.Request) {
		if !strings.HasPrefix(r.Header.Get("Authorization"), "Bearer tok-") {
			a.challenge401(w)
			return
		}
		a.ok(w)
	}
	o := a.oauth()
	o.Store = &typelessStore{}
	tr := OAuthHTTP(a.srv.URL+"/mcp", o)
	err := hostileCall(tr)
	if err == nil {
		return // the token just got was presented: fine too
	}
	if !strings.Contains(err.Error(), "token_type") {
		t.Fatalf("after %d authorization(s): %v; want an error saying the TokenStore dropped the token's token_type", a.authz.Load(), err)
	}
}
