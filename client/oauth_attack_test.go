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
	"time"

	"github.com/mcpgen/mcpgen/jsonrpc"
)

// attackAS is a protected MCP server at /mcp that is also its own
// authorization server (authorization code flow, PKCE S256). Each part
// can be replaced by a test.
type attackAS struct {
	srv *httptest.Server
	mux *http.ServeMux

	mu        sync.Mutex
	authzURLs []*url.URL   // authorization requests the client made
	tokenReqs []url.Values // token request forms
	authz     atomic.Int32

	noWellKnownPRM bool // the resource metadata only at the resource_metadata URL

	mcp   http.HandlerFunc
	prm   func() map[string]any
	meta  func() map[string]any
	token http.HandlerFunc
}

func newAttackAS(t *testing.T) *attackAS {
	t.Helper()
	a := &attackAS{mux: http.NewServeMux()}
	a.srv = httptest.NewServer(a.mux)
	t.Cleanup(a.srv.Close)
	a.prm = func() map[string]any {
		return map[string]any{"resource": a.srv.URL + "/mcp", "authorization_servers": []string{a.srv.URL}}
	}
	a.meta = func() map[string]any {
		return map[string]any{"issuer": a.srv.URL, "authorization_endpoint": a.srv.URL + "/authorize",
			"token_endpoint": a.srv.URL + "/token", "response_types_supported": []string{"code"},
			"code_challenge_methods_supported": []string{"S256"}}
	}
	a.token = func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{"access_token": "tok-1", "token_type": "Bearer", "expires_in": 300})
	}
	a.mcp = func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") == "" {
			a.challenge401(w)
			return
		}
		a.ok(w)
	}
	a.mux.HandleFunc("/mcp", func(w http.ResponseWriter, r *http.Request) { a.mcp(w, r) })
	a.mux.HandleFunc("/.well-known/oauth-protected-resource/mcp", func(w http.ResponseWriter, r *http.Request) {
		if a.noWellKnownPRM {
			http.NotFound(w, r)
			return
		}
		_ = json.NewEncoder(w).Encode(a.prm())
	})
	a.mux.HandleFunc("/.well-known/oauth-authorization-server", func(w http.ResponseWriter, r *http.Request) {
		_ = json.NewEncoder(w).Encode(a.meta())
	})
	a.mux.HandleFunc("/token", func(w http.ResponseWriter, r *http.Request) {
		_ = r.ParseForm()
		a.mu.Lock()
		a.tokenReqs = append(a.tokenReqs, r.PostForm)
		a.mu.Unlock()
		a.token(w, r)
	})
	return a
}

func (a *attackAS) challenge401(w http.ResponseWriter) {
	w.Header().Set("WWW-Authenticate", `Bearer resource_metadata="`+a.srv.URL+`/.well-known/oauth-protected-resource/mcp"`)
	w.WriteHeader(http.StatusUnauthorized)
}

func (a *attackAS) ok(w http.ResponseWriter) {
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write([]byte(`{"jsonrpc":"2.0","id":1,"result":{"tools":[]}}`))
}

// oauth is a user-facing OAuth whose Authorize approves at once: it
// answers with a code, the request's state and the issuer.
func (a *attackAS) oauth() *OAuth {
	return &OAuth{
		RedirectURL: "http://127.0.0.1:1/cb",
		ClientID:    "c1",
		Authorize: func(ctx context.Context, authorizationURL string) (*url.URL, error) {
			u, err := url.Parse(authorizationURL)
			if err != nil {
				return nil, err
			}
			a.authz.Add(1)
			a.mu.Lock()
			a.authzURLs = append(a.authzURLs, u)
			a.mu.Unlock()
			q := url.Values{"code": {"code-1"}, "state": {u.Query().Get("state")}, "iss": {a.srv.URL}}
			return url.Parse("http://127.0.0.1:1/cb?" + q.Encode())
		},
	}
}

// call sends one tools/list through tr.
func attackCall(tr *HTTPTransport) error {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_, err := tr.RoundTrip(ctx, &Request{ID: jsonrpc.IntID(1), Method: "tools/list", ProtocolVersion: "2026-07-28"})
	return err
}

// TestAttackTokenOfUnknownTypeIsNotPresentedAsBearer: the token endpoint
// answers with a token_type the client does not know ("mac"), or none
// at all (token_type is REQUIRED, RFC 6749 §5.1).
// RFC 6749 §7.1 (kept by OAuth 2.1): "The client MUST NOT use an
// access token if it does not understand the token type";
// basic/authorization/ Token Requirements: token handling "MUST conform
// to OAuth 2.1 Section 5". Now the client presents it as a bearer token.
func TestAttackTokenOfUnknownTypeIsNotPresentedAsBearer(t *testing.T) {
	for _, typ := range []string{"mac", ""} {
		t.Run("token_type="+typ, func(t *testing.T) {
			a := newAttackAS(t)
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
			err := attackCall(OAuthHTTP(a.srv.URL+"/mcp", a.oauth()))
			if p, _ := presented.Load().(string); p != "" {
				t.Fatalf("a token of token_type %q was presented as %q (call error %v); want it refused", typ, p, err)
			}
		})
	}
}

// TestAttackResourceMetadataForAnotherResourceIsNotUsed: the MCP server
// is at /mcp; its protected resource metadata (at the WWW-Authenticate
// resource_metadata URL, and at the path-inserted well-known URL) says
// resource is the bare origin. RFC 9728 §3.3: the resource value "MUST
// be identical" to the protected resource's identifier the well-known
// URI was formed from, and for a URL from WWW-Authenticate "MUST be
// identical to the URL that the client used to make the request";
// "If these values are not identical, the data contained in the
// response MUST NOT be used." basic/authorization/ (MCP clients "MUST
// use OAuth 2.0 Protected Resource Metadata"; resource "MUST identify
// the MCP server"). Now coversResource accepts any path prefix, and the
// client asks for (and the AS issues) a token for the whole origin:
// resource=<origin> on the authorization and token requests.
func TestAttackResourceMetadataForAnotherResourceIsNotUsed(t *testing.T) {
	for _, hinted := range []bool{true, false} {
		name := "well-known"
		if hinted {
			name = "resource_metadata"
		}
		t.Run(name, func(t *testing.T) {
			a := newAttackAS(t)
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
			err := attackCall(OAuthHTTP(a.srv.URL+"/mcp", a.oauth()))
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

// TestAttackSharedStoreTokenNotShownToAnotherServer: one TokenStore
// serves the clients of two servers of one authorization server, on one
// host: /a, and /a/evil. The client of /a logs in and stores its token.
// /a/evil's protected resource metadata claims /a's resource identifier
// (a path prefix of its own URL). README: "one store can serve the
// clients of several servers of one authorization server: each server is
// shown only the token issued for it"; TokenStore doc: "a token is only
// ever presented to the resource it is for"; RFC 9728 §3.3: for metadata
// from WWW-Authenticate the resource "MUST be identical to the URL that
// the client used to make the request", else the metadata "MUST NOT be
// used". Now coversResource accepts the prefix, and useStored presents
// the token issued for /a to /a/evil.
func TestAttackSharedStoreTokenNotShownToAnotherServer(t *testing.T) {
	a := newAttackAS(t)
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
	if err := attackCall(OAuthHTTP(base+"/a", oa)); err != nil {
		t.Fatalf("the client of /a: %v", err)
	}
	oe := a.oauth()
	oe.Store = store
	err := attackCall(OAuthHTTP(base+"/a/evil", oe))
	if h, _ := shown.Load().(string); h == "Bearer tok-for-a" {
		t.Fatalf("the token issued for %s/a was presented to the server %s/a/evil (call error %v)", base, base, err)
	}
}

// TestAttackChallengeFromRedirectTargetIsNotFollowed: the MCP server
// answers 307 to another origin (a misconfigured proxy, an open
// redirect), and that origin answers 401 with its own resource_metadata,
// whose document copies the MCP server's resource identifier and names
// its own authorization server. RFC 9728 §3.3: for metadata found
// through WWW-Authenticate, the resource "MUST be identical to the URL
// that the client used to make the request to the resource server" —
// here the redirect target's URL, not the MCP server's — else "MUST NOT
// be used" (§7.3, impersonation); authorization-server-discovery.mdx:
// clients respond to "401 Unauthorized responses from the MCP server".
// Now the client takes the other origin's challenge for the MCP
// server's and logs in at the authorization server it names: the
// pre-registered client secret goes to that server's token endpoint.
func TestAttackChallengeFromRedirectTargetIsNotFollowed(t *testing.T) {
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
	a := newAttackAS(t)
	mcpURL = a.srv.URL + "/mcp"
	a.mcp = func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, evil.URL+"/collect", http.StatusTemporaryRedirect)
	}
	o := &OAuth{ClientID: "svc", ClientSecret: "secret-for-the-real-as", ClientCredentials: true}
	err := attackCall(OAuthHTTP(mcpURL, o))
	mu.Lock()
	defer mu.Unlock()
	if len(leaked) > 0 {
		t.Fatalf("a 401 from %s (reached by a redirect) made the client log in at the authorization server it named: token request(s) with %q (call error %v)",
			evil.URL, leaked, err)
	}
}

// TestAttackHTTPSServerDoesNotLeadToPlainHTTPAuthorizationServer: the
// MCP server is served over TLS; its protected resource metadata names an
// authorization server at an http:// issuer, whose token endpoint is
// plain HTTP too. security-considerations.mdx, Communication Security:
// "Implementations MUST follow OAuth 2.1 Section 1.5 … All authorization
// server endpoints MUST be served over HTTPS"; RFC 8414 §2: the issuer
// "is a URL that uses the https scheme". Now the client uses it: the
// pre-registered client secret goes in cleartext to the token endpoint.
func TestAttackHTTPSServerDoesNotLeadToPlainHTTPAuthorizationServer(t *testing.T) {
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
	err := attackCall(tr)
	if h, _ := cleartext.Load().(string); h != "" {
		t.Fatalf("the https MCP server's metadata named the http:// authorization server %s and the client sent its credentials there in cleartext (%q; call error %v)", as.URL, h, err)
	}
}

// TestAttackAuthorizationEndpointSchemeIsChecked: the authorization
// server's metadata gives an authorization_endpoint that is no web URL
// (file:, a custom scheme, javascript:). OAuth.Authorize "sends the user
// to authorizationURL (a browser)": a host that hands it to the OS's URL
// opener runs whatever the scheme launches (the mcp-remote
// CVE-2025-6514 class). security-considerations.mdx, Communication
// Security: "All authorization server endpoints MUST be served over
// HTTPS" (RFC 8414 §2, OAuth 2.1 §1.5). Now the client passes any URL
// to Authorize.
func TestAttackAuthorizationEndpointSchemeIsChecked(t *testing.T) {
	for _, ep := range []string{"file:///etc/passwd", "javascript:alert(1)//", "ms-msdt:/id PCWDiagnostic"} {
		t.Run(ep, func(t *testing.T) {
			a := newAttackAS(t)
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
			_ = attackCall(OAuthHTTP(a.srv.URL+"/mcp", o))
			if u, _ := opened.Load().(string); u != "" {
				t.Fatalf("Authorize was asked to open %q", clipBytes([]byte(u), 80))
			}
		})
	}
}
