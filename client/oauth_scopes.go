package client

import (
	"net/http"
	"slices"
	"strings"
)

// maxStepUps bounds the step-ups in a row for one scope set: one that the
// server still refuses is asked for again at most that often before
// ErrInsufficientScope.
const maxStepUps = 2

// stepUpRun is the scope set of the latest step-up and how many step-ups
// in a row asked for it (basic/authorization/, Step-Up: a retry limit for
// repeated failures of one operation). A step-up for another set starts a
// new run, and so does a step-up that worked: the request sent again with
// its token answered other than 401 or 403 (retryAnswered). Nothing else
// ends a run: a server that answers the step-up's token with 401, and the
// new login's token with 403 again, is counted all the same. A step-up
// whose login failed is not counted (stepUpFailed).
type stepUpRun struct {
	scopes string
	count  int
	token  string // the Authorization of the latest step-up's token
}

// stepUpAllowed counts a step-up for scopes and reports whether it is
// within maxStepUps of its run.
func (o *OAuth) stepUpAllowed(scopes []string) bool {
	key := strings.Join(slices.Sorted(slices.Values(scopes)), " ")
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.stepUps.scopes != key {
		o.stepUps = stepUpRun{scopes: key}
	}
	o.stepUps.count++
	return o.stepUps.count <= maxStepUps
}

// stepUpFailed takes back the count of a step-up for scopes whose login
// failed (the user closed the browser, the authorization server refused):
// the bound is for a server that keeps refusing what a login got, and a
// failed login returns its error to the caller, so nothing loops.
func (o *OAuth) stepUpFailed(scopes []string) {
	key := strings.Join(slices.Sorted(slices.Values(scopes)), " ")
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.stepUps.scopes == key && o.stepUps.count > 0 {
		o.stepUps.count--
	}
}

// retryAnswered sees the answer to a request sent again after a login
// (HTTPTransport.retried): one that carried the latest step-up's token and
// was answered other than 401 or 403 shows the step-up worked, and ends
// its run.
func (o *OAuth) retryAnswered(resp *http.Response) {
	if resp.StatusCode == http.StatusUnauthorized || resp.StatusCode == http.StatusForbidden || resp.Request == nil {
		return
	}
	sent := resp.Request.Header.Get("Authorization")
	o.mu.Lock()
	defer o.mu.Unlock()
	if sent != "" && sent == o.stepUps.token {
		o.stepUps = stepUpRun{}
	}
}

// loginScopes chooses the scopes of a login after a 401: the challenge's,
// else the resource metadata's scopes_supported, else OAuth.Scopes, with
// those of the previous authorization at the same authorization server
// for the same resource (Scope Selection Strategy: "include these scopes
// alongside any previously granted scopes").
func (o *OAuth) loginScopes(ch challenge, prm *resourceMetadata, issuer string) []string {
	var scopes []string
	switch {
	case ch.params["scope"] != "":
		scopes = strings.Fields(ch.params["scope"])
	case len(prm.ScopesSupported) > 0:
		scopes = slices.Clone(prm.ScopesSupported)
	default:
		scopes = slices.Clone(o.Scopes)
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.issuer == issuer && o.resource == prm.Resource {
		scopes = unionScopes(o.requested, scopes)
	}
	return scopes
}

// withOfflineAccess adds offline_access to scopes for a user's login when
// the authorization server lists it in scopes_supported (basic/
// authorization/, refresh tokens: clients MAY), unless scopes is empty
// (the server's default set).
func (o *OAuth) withOfflineAccess(as *serverMetadata, scopes []string) []string {
	if o.userless() || len(scopes) == 0 || !slices.Contains(as.ScopesSupported, "offline_access") || slices.Contains(scopes, "offline_access") {
		return scopes
	}
	return append(slices.Clip(scopes), "offline_access")
}
