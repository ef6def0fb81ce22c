package server

import (
	"net/http"
	"net/url"
	"regexp"
	"testing"
)

// refBearer is RFC 6750 §2.1 as a regular expression: the scheme
// (case-insensitive), one or more spaces, one b64token, nothing else.
var (
	refBearer       = regexp.MustCompile(`^[Bb][Ee][Aa][Rr][Ee][Rr] +([A-Za-z0-9\-._~+/]+=*)$`)
	refBearerScheme = regexp.MustCompile(`^[Bb][Ee][Aa][Rr][Ee][Rr](?: |$)`)
)

// FuzzBearerToken: the hand-written Authorization parser (bearerToken,
// isB64Token) against the grammar as a regular expression — two paths
// that must agree on the token and on the status (401 for a missing
// header or another scheme, 400 for a Bearer header without one valid
// token, two headers, or a token in the query).
func FuzzBearerToken(f *testing.F) {
	for _, s := range []string{"Bearer abc.def-ghi_jkl~mno+pqr/stu==", "bearer x", "BEARER  x", "Bearer", "Bearer ",
		"Bearer a b", "Bearer a=b", "Bearer ====", "Basic dXNlcjpwYXNz", "DPoP abc", "Bearer\tabc", "Bearer abc ",
		"Bearer é", "Bearer a\x00", ""} {
		f.Add(s, false, false)
	}
	f.Add("Bearer abc", true, false)
	f.Add("Bearer abc", false, true)
	f.Fuzz(func(t *testing.T, header string, twice, inQuery bool) {
		r := &http.Request{Method: http.MethodPost, URL: &url.URL{Path: "/mcp"}, Header: http.Header{"Authorization": {header}}}
		if inQuery {
			r.URL.RawQuery = "access_token=x"
		}
		if twice {
			r.Header["Authorization"] = append(r.Header["Authorization"], header)
		}
		tok, status, desc := bearerToken(r)

		wantTok, wantStatus := "", 0
		switch m := refBearer.FindStringSubmatch(header); {
		case inQuery || twice:
			wantStatus = http.StatusBadRequest
		case m != nil:
			wantTok = m[1]
		case refBearerScheme.MatchString(header):
			wantStatus = http.StatusBadRequest
		default:
			wantStatus = http.StatusUnauthorized
		}
		if tok != wantTok || status != wantStatus {
			t.Fatalf("bearerToken(%q, twice=%v, query=%v) = %q, %d (%s); the grammar says %q, %d", header, twice, inQuery, tok, status, desc, wantTok, wantStatus)
		}
		if status != 0 && desc == "" {
			t.Fatalf("status %d without a description", status)
		}
		if status == 0 {
			// What a client sends for the token is read back as the token.
			r.Header.Set("Authorization", "Bearer "+tok)
			if again, st, _ := bearerToken(r); again != tok || st != 0 {
				t.Fatalf("Bearer %q read back as %q, %d", tok, again, st)
			}
		}
	})
}
