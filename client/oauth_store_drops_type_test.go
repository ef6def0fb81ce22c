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
	a.issueNumberedTokens()
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

// TestTypelessTokenStoredMeanwhileIsRefreshedNotSkipped: the store is
// shared with a process of an earlier build, which saved a token without
// token_type over the one in use. The server refuses the token this
// client sent (revoked); the login took the stored typeless token for
// "another request logged in meanwhile" and sent the request again with
// no token at all (a typeless token is not presented), which the server
// refused with 401 once more: the call was lost. README: a stored token
// without a type "is refreshed, or the login starts anew".
func TestTypelessTokenStoredMeanwhileIsRefreshedNotSkipped(t *testing.T) {
	a := newHostileAS(t)
	var issued atomic.Int32
	var revoked atomic.Bool
	a.token = func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		n := issued.Add(1)
		_ = json.NewEncoder(w).Encode(map[string]any{"access_token": fmt.Sprintf("tok-%d", n), "token_type": "Bearer",
			"refresh_token": fmt.Sprintf("r-%d", n), "expires_in": 300})
	}
	store := &MemoryStore{}
	a.mcp = func(w http.ResponseWriter, r *http.Request) {
		auth := r.Header.Get("Authorization")
		if revoked.Load() && auth == "Bearer tok-1" {
			// The other process saves its token while this request is on its way.
			store.SaveToken(a.srv.URL, a.srv.URL+"/mcp", &Token{AccessToken: "old-build", RefreshToken: "r-old"})
		}
		if !strings.HasPrefix(auth, "Bearer tok-") || revoked.Load() && auth == "Bearer tok-1" {
			a.challenge401(w)
			return
		}
		a.ok(w)
	}
	o := a.oauth()
	o.Store = store
	tr := OAuthHTTP(a.srv.URL+"/mcp", o)
	if err := hostileCall(tr); err != nil {
		t.Fatalf("first call: %v", err)
	}
	revoked.Store(true)
	if err := hostileCall(tr); err != nil {
		t.Fatalf("after a typeless token was stored over the one in use, which the server refused: %v (%d tokens issued, %d authorizations)",
			err, issued.Load(), a.authz.Load())
	}
}
