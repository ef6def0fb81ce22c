package client

import (
	"net/http"
	"strings"
	"time"
)

// A TokenStore that outlives the process holds tokens from earlier runs.
// The issuer a token is stored under is known only after discovery, so
// the first request goes without a token; on its 401 the login finds the
// stored token for the issuer and resource and retries with it before
// asking the authorization server (or the user) for a new one. Should the
// server refuse that token too (revoked, or DPoP-bound to another key),
// the request is challenged once more and the login goes on as if the
// store held none.

// useStored adopts the stored access token for issuer and resource when
// o presents its type (OAuth.presents: one stored without a type, or a
// DPoP one without DPoP, is refreshed or replaced, never guessed to be a
// bearer token), it is
// unexpired (or of unknown expiry) and is not sent, the Authorization the
// server just refused; it reports whether it did.
func (o *OAuth) useStored(issuer, resource, sent string) bool {
	tok := o.Store.Token(issuer, resource)
	if tok == nil || tok.AccessToken == "" || !o.presents(tok) || tok.authorization() == sent ||
		!tok.Expiry.IsZero() && !time.Now().Before(tok.Expiry) {
		return false
	}
	o.mu.Lock()
	o.issuer, o.resource, o.tentative = issuer, resource, tok.authorization()
	if tok.Scope != "" {
		o.requested = strings.Fields(tok.Scope) // kept on re-authorization
	}
	o.mu.Unlock()
	return true
}

// refusedTentative reports whether resp is a 401 to a request that
// presented a stored token adopted by useStored, which gets one more
// challenge (HTTPTransport.challengeAgain).
func (o *OAuth) refusedTentative(resp *http.Response) bool {
	if resp.StatusCode != http.StatusUnauthorized {
		return false
	}
	sent := resp.Request.Header.Get("Authorization")
	o.mu.Lock()
	defer o.mu.Unlock()
	return sent != "" && sent == o.tentative
}
