package server

import (
	"net/http"
	"testing"
)

// TestAccessTokenInQueryIsAlwaysRefused: README "Authorization": "a
// malformed header, two of them or a token in the query 400
// invalid_request" (the spec's authorization page: access tokens MUST NOT
// be included in the URI query string). bearerToken once looked for the
// token with r.URL.Query().Has("access_token"), but url.Query drops every
// pair it cannot parse: a pair with a ';' or a bad %-escape. A query that
// still carried the access_token parameter was then not noticed, and the
// request was served as if the query were clean.
func TestAccessTokenInQueryIsAlwaysRefused(t *testing.T) {
	k := newAuthKit(t, nil)
	body := faultCall("1", "whoami", `{}`, defaultMeta)
	do := func(q string) int {
		resp, err := k.srv.Client().Do(newPost(t, k.srv.URL+"/mcp?"+q, body, stdHeaders("tools/call", "whoami", bearer("alice-read")...)))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	for _, q := range []string{
		"access_token=alice-read",     // control
		"access_token=alice-read;x=1", // ';' in the pair
		"access_token=alice-read%zz",  // bad escape in the value
		"x=1;access_token=alice-read", // ';' as a separator
		"x=%zz&access_token=alice-read",
		"%61ccess_token=alice-read", // an escaped name
		"Access_Token=alice-read",
		"access_token", // no value: still the parameter
	} {
		if got := do(q); got != http.StatusBadRequest {
			t.Errorf("query %q: %d, want 400 invalid_request (a token in the query)", q, got)
		}
	}
	for _, q := range []string{"x=1", "x=1;y=%zz", "access_token_hint=1", "x=access_token"} {
		if got := do(q); got != http.StatusOK {
			t.Errorf("query %q (no access_token parameter): %d, want 200", q, got)
		}
	}
}
