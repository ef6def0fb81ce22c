package server

import (
	"net/http"
	"testing"
)

// TestAttackAccessTokenInQueryAlwaysRefused: README "Authorization": "a
// malformed header, two of them or a token in the query 400
// invalid_request" (the spec's authorization page: access tokens MUST NOT
// be included in the URI query string). bearerToken looks for the token
// with r.URL.Query().Has("access_token"), but url.Query drops every pair
// it cannot parse: a pair with a ';' or a bad %-escape. A query that still
// carries the access_token parameter is then not noticed, and the request
// is served as if the query were clean.
func TestAttackAccessTokenInQueryAlwaysRefused(t *testing.T) {
	k := newAuthKit(t, nil)
	body := faultCall("1", "whoami", `{}`, defaultMeta)
	for _, q := range []string{
		"access_token=alice-read",     // control: refused today
		"access_token=alice-read;x=1", // ';' in the pair
		"access_token=alice-read%zz",  // bad escape in the value
		"x=1;access_token=alice-read", // ';' as a separator
	} {
		resp, err := k.srv.Client().Do(newPost(t, k.srv.URL+"/mcp?"+q, body, stdHeaders("tools/call", "whoami", bearer("alice-read")...)))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusBadRequest {
			t.Errorf("query %q: %s, want 400 invalid_request (a token in the query)", q, resp.Status)
		}
	}
}
