package client

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// TestBearerChallengeAfterOtherSchemeInOneField: the server offers Basic
// and Bearer in one WWW-Authenticate field, as RFC 9110 §11.6.1 allows
// (WWW-Authenticate = #challenge): `Basic realm="mcp", Bearer
// resource_metadata="…/prm", scope="mcp"`. Its metadata is only at that
// URL (the well-known URIs are 404). The client reads the Bearer
// challenge after the Basic one and logs in through its
// resource_metadata. authorization-server-discovery.mdx: "MCP clients MUST
// be able to parse WWW-Authenticate headers" and "use the resource
// metadata URL from the parsed WWW-Authenticate headers when present".
func TestBearerChallengeAfterOtherSchemeInOneField(t *testing.T) {
	mux := http.NewServeMux()
	srv := httptest.NewServer(mux)
	defer srv.Close()
	var tokenRequests atomic.Int32
	mux.HandleFunc("/mcp", func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer tok-1" {
			w.Header().Set("WWW-Authenticate", `Basic realm="mcp", Bearer resource_metadata="`+srv.URL+`/prm", scope="mcp"`)
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		http.Error(w, "logged in", http.StatusTeapot)
	})
	mux.HandleFunc("/prm", func(w http.ResponseWriter, r *http.Request) {
		_ = json.NewEncoder(w).Encode(map[string]any{"resource": srv.URL + "/mcp", "authorization_servers": []string{srv.URL}})
	})
	mux.HandleFunc("/.well-known/oauth-authorization-server", func(w http.ResponseWriter, r *http.Request) {
		_ = json.NewEncoder(w).Encode(map[string]any{"issuer": srv.URL, "token_endpoint": srv.URL + "/token", "response_types_supported": []string{"code"}})
	})
	mux.HandleFunc("/token", func(w http.ResponseWriter, r *http.Request) {
		tokenRequests.Add(1)
		_ = json.NewEncoder(w).Encode(map[string]any{"access_token": "tok-1", "token_type": "Bearer"})
	})
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	c, err := Connect(ctx, OAuthHTTP(srv.URL+"/mcp", &OAuth{ClientID: "svc", ClientSecret: "s", ClientCredentials: true}), nil)
	if err == nil {
		c.Close()
	}
	if tokenRequests.Load() == 0 {
		t.Fatalf("the Bearer challenge's resource_metadata after a Basic challenge in the same field was not used; connect: %v", err)
	}
}

// TestParseChallengesOfOneField: a field value is a list of challenges;
// a token68 credential after a scheme is no scheme of its own.
func TestParseChallengesOfOneField(t *testing.T) {
	for _, tc := range []struct {
		field, scheme, param, want string
	}{
		{`Basic realm="mcp", Bearer resource_metadata="https://x/prm", scope="mcp"`, "Bearer", "resource_metadata", "https://x/prm"},
		{`Basic dXNlcjpwYXNz==, Bearer error="invalid_token"`, "Bearer", "error", "invalid_token"},
		{`Negotiate abc, DPoP algs="ES256", error=use_dpop_nonce`, "DPoP", "error", "use_dpop_nonce"},
		{`Bearer realm = "a, b=c" , scope=x`, "Bearer", "scope", "x"},
		{`Newauth realm="apps", title="Login to \"apps\"", Bearer scope="s"`, "Bearer", "scope", "s"},
	} {
		ch := parseChallenge([]string{tc.field})
		if ch.scheme != tc.scheme || ch.params[tc.param] != tc.want {
			t.Errorf("%s: scheme %q, %s = %q; want %q, %q", tc.field, ch.scheme, tc.param, ch.params[tc.param], tc.scheme, tc.want)
		}
	}
	if ch := parseChallenge([]string{`Basic dXNlcg`}); ch.scheme != "" {
		t.Errorf("a token68 taken for a Bearer or DPoP challenge: %+v", ch)
	}
}

// TestChallengeSplitAcrossFieldLinesReadsAsOneLine: RFC 9110 §5.3: a field sent
// as several field lines means the same as one line of their values
// joined by ", " (a recipient or intermediary MAY combine them, and
// WWW-Authenticate is a list-based field, §11.6.1). A Bearer challenge
// whose parameters are split across lines — `Bearer
// error="insufficient_scope"` then `scope="admin"` — is read with its
// scope when the lines are joined and without it when they are not: two
// readings of one message (preamble: no disagreement between two parsers
// of one message). Without the scope the step-up asks for the old scope
// set again (and ends in ErrInsufficientScope); without resource_metadata
// discovery ignores the URL the server named (authorization-server-
// discovery.mdx: clients MUST use it when present); without DPoP's error
// the use_dpop_nonce retry is skipped.
func TestChallengeSplitAcrossFieldLinesReadsAsOneLine(t *testing.T) {
	for _, lines := range [][]string{
		{`Bearer error="insufficient_scope"`, `scope="admin"`},
		{`Bearer realm="mcp"`, `resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource/mcp"`},
		{`Basic realm="x"`, `Bearer`, `scope="admin"`},
		{`DPoP algs="ES256"`, `error="use_dpop_nonce"`},
	} {
		split := parseChallenge(lines)
		joined := parseChallenge([]string{strings.Join(lines, ", ")})
		if split.scheme != joined.scheme || len(split.params) != len(joined.params) {
			t.Errorf("field lines %q read as %s %v; the same field on one line as %s %v", lines, split.scheme, split.params, joined.scheme, joined.params)
			continue
		}
		for k, v := range joined.params {
			if split.params[k] != v {
				t.Errorf("field lines %q: %s=%q, on one line %q", lines, k, split.params[k], v)
			}
		}
	}
}
