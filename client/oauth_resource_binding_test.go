package client

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sync"
	"sync/atomic"
	"testing"
)

// The tests here keep a login bound to the MCP server the client was
// configured with (oauth_resource.go), to authorization servers as
// secure as that server (oauth_https.go), and to token types the client
// understands (oauth_tokentype.go).

// TestChallengeFromRedirectTargetIsNotFollowed: the MCP server answers
// 307 to another origin (a misconfigured proxy, an open redirect), and
// that origin answers 401 with its own resource_metadata, whose document
// copies the MCP server's resource identifier and names its own
// authorization server. RFC 9728 §3.3: for metadata found through
// WWW-Authenticate, the resource "MUST be identical to the URL that the
// client used to make the request to the resource server" — here the
// redirect target's URL, not the MCP server's — else "MUST NOT be used"
// (§7.3, impersonation); authorization-server-discovery.mdx: clients
// respond to "401 Unauthorized responses from the MCP server". The
// client must not log in at the authorization server it names: the
// pre-registered client secret would go to that server's token
// endpoint. The call fails instead.
func TestChallengeFromRedirectTargetIsNotFollowed(t *testing.T) {
	var mu sync.Mutex
	var leaked []string
	evilMux := http.NewServeMux()
	evil := httptest.NewServer(evilMux)
	defer evil.Close()
	mcpURL := ""
	evilMux.HandleFunc("/collect", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("WWW-Authenticate", `Bearer resource_metadata="`+evil.URL+`/prm"`)
		w.WriteHeader(http.StatusUnauthorized)
	})
	evilMux.HandleFunc("/prm", func(w http.ResponseWriter, r *http.Request) {
		_ = json.NewEncoder(w).Encode(map[string]any{"resource": mcpURL, "authorization_servers": []string{evil.URL}})
	})
	evilMux.HandleFunc("/.well-known/oauth-authorization-server", func(w http.ResponseWriter, r *http.Request) {
		_ = json.NewEncoder(w).Encode(map[string]any{"issuer": evil.URL, "token_endpoint": evil.URL + "/token",
			"response_types_supported": []string{"code"}})
	})
	evilMux.HandleFunc("/token", func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		leaked = append(leaked, r.Header.Get("Authorization"))
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{"access_token": "evil-token", "token_type": "Bearer"})
	})
	a := newHostileAS(t)
	mcpURL = a.srv.URL + "/mcp"
	a.mcp = func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, evil.URL+"/collect", http.StatusTemporaryRedirect)
	}
	o := &OAuth{ClientID: "svc", ClientSecret: "secret-for-the-real-as", ClientCredentials: true}
	err := hostileCall(OAuthHTTP(mcpURL, o))
	mu.Lock()
	defer mu.Unlock()
	if len(leaked) > 0 {
		t.Fatalf("a 401 from %s (reached by a redirect) made the client log in at the authorization server it named: token request(s) with %q (call error %v)",
			evil.URL, leaked, err)
	}
	if err == nil {
		t.Fatal("a 401 from a redirect target gave no error")
	}
}

// TestInsufficientScopeFromRedirectTargetIsNoStepUp: as
// TestChallengeFromRedirectTargetIsNotFollowed, with a client logged in
// to the MCP server, which then redirects to another origin answering
// 403 `Bearer error="insufficient_scope", scope="admin"`. That origin is
// not the MCP server: its refusal must not send the user through the
// authorization flow again to grant more scopes.
func TestInsufficientScopeFromRedirectTargetIsNoStepUp(t *testing.T) {
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("WWW-Authenticate", `Bearer error="insufficient_scope", scope="admin"`)
		w.WriteHeader(http.StatusForbidden)
	}))
	defer other.Close()
	a := newHostileAS(t)
	tr := OAuthHTTP(a.srv.URL+"/mcp", a.oauth())
	if err := hostileCall(tr); err != nil || a.authz.Load() != 1 {
		t.Fatalf("login: %d authorizations, error %v", a.authz.Load(), err)
	}
	a.mcp = func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, other.URL+"/", http.StatusTemporaryRedirect)
	}
	err := hostileCall(tr)
	if n := a.authz.Load(); n != 1 || err == nil {
		t.Fatalf("a 403 insufficient_scope from %s (reached by a redirect): %d authorizations in all, call error %v; want no step-up and an error", other.URL, n, err)
	}
}

// TestSharedStoreTokenNotShownToAnotherServer: one TokenStore serves the
// clients of two servers of one authorization server, on one host: /a,
// and /a/evil. The client of /a logs in and stores its token. /a/evil's
// protected resource metadata claims /a's resource identifier (a path
// prefix of its own URL). README: "one store can serve the clients of
// several servers of one authorization server: each server is shown only
// the token issued for it"; TokenStore doc: "a token is only ever
// presented to the resource it is for"; RFC 9728 §3.3: for metadata from
// WWW-Authenticate the resource "MUST be identical to the URL that the
// client used to make the request", else the metadata "MUST NOT be
// used". The token issued for /a must not be presented to /a/evil.
func TestSharedStoreTokenNotShownToAnotherServer(t *testing.T) {
	a := newHostileAS(t)
	base := a.srv.URL
	a.token = func(w http.ResponseWriter, r *http.Request) {
		tok := "tok-other"
		if r.PostForm.Get("resource") == base+"/a" {
			tok = "tok-for-a"
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{"access_token": tok, "token_type": "Bearer", "expires_in": 300})
	}
	prm := func(path, resource string) {
		a.mux.HandleFunc(path, func(w http.ResponseWriter, r *http.Request) {
			_ = json.NewEncoder(w).Encode(map[string]any{"resource": resource, "authorization_servers": []string{base}})
		})
	}
	prm("/prm-a", base+"/a")
	prm("/prm-evil", base+"/a") // claims /a's identifier
	a.mux.HandleFunc("/a", func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer tok-for-a" {
			w.Header().Set("WWW-Authenticate", `Bearer resource_metadata="`+base+`/prm-a"`)
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		a.ok(w)
	})
	var shown atomic.Value
	a.mux.HandleFunc("/a/evil", func(w http.ResponseWriter, r *http.Request) {
		if h := r.Header.Get("Authorization"); h != "" {
			shown.Store(h)
			a.ok(w)
			return
		}
		w.Header().Set("WWW-Authenticate", `Bearer resource_metadata="`+base+`/prm-evil"`)
		w.WriteHeader(http.StatusUnauthorized)
	})
	store := &MemoryStore{}
	oa := a.oauth()
	oa.Store = store
	if err := hostileCall(OAuthHTTP(base+"/a", oa)); err != nil {
		t.Fatalf("the client of /a: %v", err)
	}
	oe := a.oauth()
	oe.Store = store
	err := hostileCall(OAuthHTTP(base+"/a/evil", oe))
	if h, _ := shown.Load().(string); h == "Bearer tok-for-a" {
		t.Fatalf("the token issued for %s/a was presented to the server %s/a/evil (call error %v)", base, base, err)
	}
}

// TestResourceMetadataForAnotherResourceIsNotUsed: the MCP server
// is at /mcp; its protected resource metadata (at the WWW-Authenticate
// resource_metadata URL, and at the path-inserted well-known URL) says
// resource is the bare origin. RFC 9728 §3.3: the resource value "MUST
// be identical" to the protected resource's identifier the well-known
// URI was formed from, and for a URL from WWW-Authenticate "MUST be
// identical to the URL that the client used to make the request";
// "If these values are not identical, the data contained in the
// response MUST NOT be used." basic/authorization/ (MCP clients "MUST
// use OAuth 2.0 Protected Resource Metadata"; resource "MUST identify
// the MCP server"). A path prefix of the server's URL is another
// resource: the client must not ask for (and the AS issue) a token for
// the whole origin, resource=<origin> on the authorization and token
// requests.
func TestResourceMetadataForAnotherResourceIsNotUsed(t *testing.T) {
	for _, hinted := range []bool{true, false} {
		name := "well-known"
		if hinted {
			name = "resource_metadata"
		}
		t.Run(name, func(t *testing.T) {
			a := newHostileAS(t)
			a.prm = func() map[string]any {
				return map[string]any{"resource": a.srv.URL, "authorization_servers": []string{a.srv.URL}}
			}
			if !hinted {
				a.mcp = func(w http.ResponseWriter, r *http.Request) {
					if r.Header.Get("Authorization") == "" {
						w.Header().Set("WWW-Authenticate", `Bearer realm="mcp"`)
						w.WriteHeader(http.StatusUnauthorized)
						return
					}
					a.ok(w)
				}
			}
			err := hostileCall(OAuthHTTP(a.srv.URL+"/mcp", a.oauth()))
			a.mu.Lock()
			defer a.mu.Unlock()
			for _, u := range a.authzURLs {
				if r := u.Query().Get("resource"); r != a.srv.URL+"/mcp" {
					t.Errorf("metadata for resource %q (fetched for %s/mcp) was used: authorization request with resource=%q", a.srv.URL, a.srv.URL, r)
				}
			}
			for _, f := range a.tokenReqs {
				if r := f.Get("resource"); r != a.srv.URL+"/mcp" {
					t.Errorf("token request with resource=%q for the server %s/mcp (call error %v)", r, a.srv.URL, err)
				}
			}
		})
	}
}

// TestHTTPSServerDoesNotLeadToPlainHTTPAuthorizationServer: the
// MCP server is served over TLS; its protected resource metadata names an
// authorization server at an http:// issuer, whose token endpoint is
// plain HTTP too. security-considerations.mdx, Communication Security:
// "Implementations MUST follow OAuth 2.1 Section 1.5 … All authorization
// server endpoints MUST be served over HTTPS"; RFC 8414 §2: the issuer
// "is a URL that uses the https scheme". The client must not use it:
// the pre-registered client secret would go in cleartext to the token
// endpoint.
func TestHTTPSServerDoesNotLeadToPlainHTTPAuthorizationServer(t *testing.T) {
	var cleartext atomic.Value
	asMux := http.NewServeMux()
	as := httptest.NewServer(asMux) // plain HTTP
	defer as.Close()
	asMux.HandleFunc("/.well-known/oauth-authorization-server", func(w http.ResponseWriter, r *http.Request) {
		_ = json.NewEncoder(w).Encode(map[string]any{"issuer": as.URL, "token_endpoint": as.URL + "/token",
			"response_types_supported": []string{"code"}})
	})
	asMux.HandleFunc("/token", func(w http.ResponseWriter, r *http.Request) {
		cleartext.Store(r.Header.Get("Authorization"))
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{"access_token": "tok-1", "token_type": "Bearer"})
	})
	mux := http.NewServeMux()
	rs := httptest.NewTLSServer(mux)
	defer rs.Close()
	mux.HandleFunc("/mcp", func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") == "" {
			w.Header().Set("WWW-Authenticate", `Bearer resource_metadata="`+rs.URL+`/prm"`)
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"jsonrpc":"2.0","id":1,"result":{"tools":[]}}`))
	})
	mux.HandleFunc("/prm", func(w http.ResponseWriter, r *http.Request) {
		_ = json.NewEncoder(w).Encode(map[string]any{"resource": rs.URL + "/mcp", "authorization_servers": []string{as.URL}})
	})
	o := &OAuth{ClientID: "svc", ClientSecret: "s3cret", ClientCredentials: true, HTTPClient: rs.Client()}
	tr := OAuthHTTP(rs.URL+"/mcp", o)
	tr.Client.Transport.(*bearer).base = rs.Client().Transport
	err := hostileCall(tr)
	if h, _ := cleartext.Load().(string); h != "" {
		t.Fatalf("the https MCP server's metadata named the http:// authorization server %s and the client sent its credentials there in cleartext (%q; call error %v)", as.URL, h, err)
	}
}

// TestAuthorizationEndpointOfOtherSchemeIsNotOpened: the authorization
// server's metadata gives an authorization_endpoint that is no web URL
// (file:, a custom scheme, javascript:). OAuth.Authorize "sends the user
// to authorizationURL (a browser)": a host that hands it to the OS's URL
// opener runs whatever the scheme launches (the mcp-remote
// CVE-2025-6514 class). security-considerations.mdx, Communication
// Security: "All authorization server endpoints MUST be served over
// HTTPS" (RFC 8414 §2, OAuth 2.1 §1.5). Only an http(s) URL may reach
// Authorize (https unless the MCP server is plain http).
func TestAuthorizationEndpointOfOtherSchemeIsNotOpened(t *testing.T) {
	for _, ep := range []string{"file:///etc/passwd", "javascript:alert(1)//", "ms-msdt:/id PCWDiagnostic"} {
		t.Run(ep, func(t *testing.T) {
			a := newHostileAS(t)
			meta := a.meta
			a.meta = func() map[string]any {
				m := meta()
				m["authorization_endpoint"] = ep
				return m
			}
			var opened atomic.Value
			o := a.oauth()
			o.Authorize = func(ctx context.Context, u string) (*url.URL, error) {
				opened.Store(u)
				return nil, errors.New("not opened")
			}
			_ = hostileCall(OAuthHTTP(a.srv.URL+"/mcp", o))
			if u, _ := opened.Load().(string); u != "" {
				t.Fatalf("Authorize was asked to open %q", clipBytes([]byte(u), 80))
			}
		})
	}
}

// TestTokenOfUnknownTypeIsNotUsed: the token endpoint answers with a
// token_type the client does not know ("mac"), or none at all
// (token_type is REQUIRED, RFC 6749 §5.1).
// RFC 6749 §7.1 (kept by OAuth 2.1): "The client MUST NOT use an
// access token if it does not understand the token type";
// basic/authorization/ Token Requirements: token handling "MUST conform
// to OAuth 2.1 Section 5". The token must not be presented (as a
// bearer token or at all).
func TestTokenOfUnknownTypeIsNotUsed(t *testing.T) {
	for _, typ := range []string{"mac", ""} {
		t.Run("token_type="+typ, func(t *testing.T) {
			a := newHostileAS(t)
			a.token = func(w http.ResponseWriter, r *http.Request) {
				body := map[string]any{"access_token": "tok-weird", "expires_in": 300}
				if typ != "" {
					body["token_type"] = typ
				}
				w.Header().Set("Content-Type", "application/json")
				_ = json.NewEncoder(w).Encode(body)
			}
			var presented atomic.Value
			a.mcp = func(w http.ResponseWriter, r *http.Request) {
				if h := r.Header.Get("Authorization"); h != "" {
					presented.Store(h)
					a.ok(w)
					return
				}
				a.challenge401(w)
			}
			err := hostileCall(OAuthHTTP(a.srv.URL+"/mcp", a.oauth()))
			if p, _ := presented.Load().(string); p != "" {
				t.Fatalf("a token of token_type %q was presented as %q (call error %v); want it refused", typ, p, err)
			}
		})
	}
}

// TestResourceMetadataNamingTheServer: which "resource" values name the
// MCP server https://mcp.example.com/mcp (RFC 9728 §3.3: identical; the
// spec's Canonical Server URI: scheme and host in any case), and, from
// the root well-known URL, which was built from the origin alone, the
// origin too.
func TestResourceMetadataNamingTheServer(t *testing.T) {
	su, _ := url.Parse("https://mcp.example.com/mcp")
	for _, c := range []struct {
		resource        string
		fromRoot, names bool
	}{
		{"https://mcp.example.com/mcp", false, true},
		{"HTTPS://MCP.Example.COM/mcp", false, true},
		{"https://mcp.example.com:443/mcp", false, true},
		{"https://mcp.example.com/mcp", true, true},
		{"https://mcp.example.com", true, true},
		{"https://mcp.example.com/", true, true},
		{"https://mcp.example.com", false, false},
		{"https://mcp.example.com/", false, false},
		{"https://mcp.example.com/mcp/", false, false},
		{"https://mcp.example.com/MCP", false, false},
		{"https://mcp.example.com/mcp/x", false, false},
		{"https://mcp.example.com/m", false, false},
		{"https://mcp.example.com/mcp?x=1", false, false},
		{"https://mcp.example.com/mcp#f", false, false},
		{"https://mcp.example.com/mcp?", false, false},
		{"https://mcp.example.com?", true, false},
		{"http://mcp.example.com/mcp", false, false},
		{"https://mcp.example.com:8443/mcp", false, false},
		{"https://other.example.com/mcp", true, false},
		{"https://u@mcp.example.com/mcp", false, false},
		{"/mcp", false, false},
		{"", true, false},
	} {
		if got := metadataNamesServer(c.resource, su, c.fromRoot); got != c.names {
			t.Errorf("resource %q (from the root well-known URL: %v) names %s: %v, want %v", c.resource, c.fromRoot, su, got, c.names)
		}
	}
}

// TestTokenTypesUnderstood: "Bearer" in any case, and "DPoP" only for a
// request that carried a proof (RFC 9449 §5).
func TestTokenTypesUnderstood(t *testing.T) {
	for _, c := range []struct {
		typ  string
		dpop bool
		ok   bool
	}{
		{"Bearer", false, true}, {"bearer", false, true}, {"BEARER", true, true},
		{"DPoP", true, true}, {"dpop", true, true}, {"DPoP", false, false},
		{"", false, false}, {"mac", false, false}, {"N_A", true, false}, {"Bearer ", false, false},
	} {
		if err := checkTokenType("https://as.example/token", c.typ, c.dpop); (err == nil) != c.ok {
			t.Errorf("token_type %q (DPoP proof sent: %v): %v, want accepted %v", c.typ, c.dpop, err, c.ok)
		}
	}
}

// TestLowerCaseBearerTokenIsUsed: token_type "bearer" is the Bearer type
// (RFC 6749 §5.1: case-insensitive), presented as "Bearer …".
func TestLowerCaseBearerTokenIsUsed(t *testing.T) {
	a := newHostileAS(t)
	a.token = func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{"access_token": "tok-1", "token_type": "bearer", "expires_in": 300})
	}
	var presented atomic.Value
	a.mcp = func(w http.ResponseWriter, r *http.Request) {
		if h := r.Header.Get("Authorization"); h != "" {
			presented.Store(h)
			a.ok(w)
			return
		}
		a.challenge401(w)
	}
	if err := hostileCall(OAuthHTTP(a.srv.URL+"/mcp", a.oauth())); err != nil {
		t.Fatalf("call: %v", err)
	}
	if p, _ := presented.Load().(string); p != "Bearer tok-1" {
		t.Fatalf("presented %q, want %q", p, "Bearer tok-1")
	}
}

// TestSchemesOfAuthorizationServerURLs: an authorization server's URLs
// are https, or http when the MCP server is plain http; nothing else.
func TestSchemesOfAuthorizationServerURLs(t *testing.T) {
	secure, _ := url.Parse("https://mcp.example.com/mcp")
	local, _ := url.Parse("http://127.0.0.1:8080/mcp")
	for _, c := range []struct {
		server *url.URL
		raw    string
		ok     bool
	}{
		{secure, "https://as.example.com/authorize", true},
		{secure, "HTTPS://as.example.com/authorize", true},
		{secure, "http://as.example.com/authorize", false},
		{local, "http://127.0.0.1:9000/authorize", true},
		{local, "https://as.example.com/authorize", true},
		{local, "file:///etc/passwd", false},
		{local, "javascript:alert(1)//", false},
		{local, "ms-msdt:/id PCWDiagnostic", false},
		{local, "http:///nohost", false},
		{local, "/relative", false},
	} {
		if err := checkSecureURL(c.server, "authorization_endpoint", c.raw); (err == nil) != c.ok {
			t.Errorf("%q for the MCP server %s: %v, want accepted %v", c.raw, c.server, err, c.ok)
		}
	}
}

// TestResourceWithEmptyFragmentIsNotTheServer: a "resource" of
// https://mcp.example.com/mcp# carries a fragment component, an empty one
// (RFC 3986 §3.5: "#" starts it). RFC 9728 §2: the resource identifier
// has no fragment component; RFC 8707 §2: it "MUST NOT include a
// fragment component"; the spec's Canonical Server URI lists a URI with a
// fragment as invalid; RFC 9728 §3.3: identical to the server's URL, else
// not used. The check refuses "#f" but takes "#", and the login then asks
// the authorization server for a token for `…/mcp#` (the resource
// parameter is the metadata's string) instead of failing with the
// client's own "metadata … is for …" error.
func TestResourceWithEmptyFragmentIsNotTheServer(t *testing.T) {
	su, _ := url.Parse("https://mcp.example.com/mcp")
	for _, fromRoot := range []bool{false, true} {
		for _, r := range []string{"https://mcp.example.com/mcp#", "https://mcp.example.com#"} {
			if metadataNamesServer(r, su, fromRoot) {
				t.Errorf("resource %q (with a fragment component) taken to name %s (from the root well-known URL: %v)", r, su, fromRoot)
			}
		}
	}
}
