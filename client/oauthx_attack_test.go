package client

import (
	"bufio"
	"context"
	"crypto/tls"
	"encoding/json"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sync/atomic"
	"testing"
	"time"
)

// sniffListener serves TLS and plain HTTP on one port: a connection
// whose first byte is a TLS handshake record is wrapped in TLS.
type sniffListener struct {
	net.Listener
	conf *tls.Config
}

type peekedConn struct {
	net.Conn
	r *bufio.Reader
}

func (c *peekedConn) Read(p []byte) (int, error) { return c.r.Read(p) }

func (l *sniffListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	pc := &peekedConn{Conn: c, r: bufio.NewReader(c)}
	_ = c.SetReadDeadline(time.Now().Add(5 * time.Second))
	b, err := pc.r.Peek(1)
	_ = c.SetReadDeadline(time.Time{})
	if err == nil && b[0] == 0x16 {
		return tls.Server(pc, l.conf), nil
	}
	return pc, nil
}

// TestAttackOAuthMetadataRedirectDowngradesToHTTP: the protected resource
// metadata is fetched over https and the server redirects to http on the
// same host and port. The default OAuth HTTP client's redirect check
// compares only req.URL.Host, so it follows the downgrade and reads the
// metadata — which names the authorization server to trust — in
// plaintext, open to anyone on the path. README (OAuth.HTTPClient):
// "default: a client with a 30 second timeout that follows no redirects to
// other origins"; http://h:p and https://h:p are different origins (RFC
// 6454 §4: scheme, host, port). security-considerations.mdx:
// "Implementations MUST follow OAuth 2.1 Section 1.5 Communication
// Security".
func TestAttackOAuthMetadataRedirectDowngradesToHTTP(t *testing.T) {
	certSrv := httptest.NewTLSServer(http.NotFoundHandler()) // for its certificate and a client trusting it
	defer certSrv.Close()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	host := ln.Addr().String()
	var plaintext atomic.Int32
	mux := http.NewServeMux()
	mux.HandleFunc("/.well-known/oauth-protected-resource/mcp", func(w http.ResponseWriter, r *http.Request) {
		if r.TLS != nil {
			http.Redirect(w, r, "http://"+host+r.URL.Path, http.StatusFound)
			return
		}
		plaintext.Add(1)
		_ = json.NewEncoder(w).Encode(map[string]any{"resource": "https://" + host + "/mcp", "authorization_servers": []string{"https://as.attacker.example"}})
	})
	hs := &http.Server{Handler: mux}
	go func() { _ = hs.Serve(&sniffListener{Listener: ln, conf: certSrv.TLS}) }()
	defer hs.Close()

	o := &OAuth{}
	hc := o.httpClient() // the default client: its redirect policy, with a transport that trusts the test certificate
	hc.Transport = certSrv.Client().Transport
	o.HTTPClient = hc
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	prm, err := o.resourceMetadata(ctx, "https://"+host+"/mcp", "https://"+host+"/.well-known/oauth-protected-resource/mcp")
	if plaintext.Load() > 0 || err == nil {
		t.Fatalf("the https metadata fetch followed a redirect to http://%s (%d plaintext fetches); metadata %+v, err %v", host, plaintext.Load(), prm, err)
	}
}

// TestAttackStoredTokenNeverUsed: the TokenStore (a persistent one, as
// OAuth.DPoPKey's doc describes: "A Store that keeps DPoP tokens across
// processes") holds a registration and a valid access token for the
// server's authorization server, from an earlier run. The new OAuth sends
// its first request without any token (it presents a token only once it
// has logged in itself), and on the 401 it never looks at the stored
// access token: with no refresh token it sends the user through the
// authorization flow again. README: "registrations and tokens live in a
// pluggable TokenStore, per issuer" — a stored, valid token should be
// presented before the user is asked to authorize again.
func TestAttackStoredTokenNeverUsed(t *testing.T) {
	mux := http.NewServeMux()
	srv := httptest.NewServer(mux)
	defer srv.Close()
	mux.HandleFunc("/mcp", func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer stored-token" {
			w.Header().Set("WWW-Authenticate", `Bearer resource_metadata="`+srv.URL+`/.well-known/oauth-protected-resource/mcp"`)
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		// Logged in: this test only cares that the stored token was presented.
		w.Header().Set("Content-Type", "application/json")
		http.Error(w, `{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"no"}}`, http.StatusNotFound)
	})
	mux.HandleFunc("/.well-known/oauth-protected-resource/mcp", func(w http.ResponseWriter, r *http.Request) {
		_ = json.NewEncoder(w).Encode(map[string]any{"resource": srv.URL + "/mcp", "authorization_servers": []string{srv.URL}})
	})
	mux.HandleFunc("/.well-known/oauth-authorization-server", func(w http.ResponseWriter, r *http.Request) {
		_ = json.NewEncoder(w).Encode(map[string]any{"issuer": srv.URL, "authorization_endpoint": srv.URL + "/authorize",
			"token_endpoint": srv.URL + "/token", "response_types_supported": []string{"code"}, "code_challenge_methods_supported": []string{"S256"}})
	})
	store := &MemoryStore{}
	store.SaveRegistration(srv.URL, &Registration{ClientID: "c1", AuthMethod: "none"})
	store.SaveToken(srv.URL, srv.URL+"/mcp", &Token{AccessToken: "stored-token", TokenType: "Bearer", Expiry: time.Now().Add(time.Hour)})
	var authorizations atomic.Int32
	o := &OAuth{RedirectURL: "http://127.0.0.1:1/cb", Store: store,
		Authorize: func(ctx context.Context, u string) (*url.URL, error) {
			authorizations.Add(1)
			return nil, errors.New("the user is not here")
		}}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	c, err := Connect(ctx, OAuthHTTP(srv.URL+"/mcp", o), nil)
	if err == nil {
		c.Close()
	}
	if n := authorizations.Load(); n > 0 {
		t.Fatalf("the user was sent to authorize %d time(s) though the store holds a valid token for %s (connect: %v)", n, srv.URL, err)
	}
}

// TestAttackChallengeAfterOtherSchemeInOneHeader: the server offers Basic
// and Bearer in one WWW-Authenticate field, as RFC 9110 §11.6.1 allows
// (WWW-Authenticate = #challenge): `Basic realm="mcp", Bearer
// resource_metadata="…/prm", scope="mcp"`. Its metadata is only at that
// URL (the well-known URIs are 404; authorization-server-discovery.mdx
// lets a server offer either mechanism). The parser skips a whole field
// value whose first challenge is not Bearer/DPoP, never sees
// resource_metadata, probes the well-known URIs and the login fails.
// authorization-server-discovery.mdx: "MCP clients MUST be able to parse
// WWW-Authenticate headers" and "use the resource metadata URL from the
// parsed WWW-Authenticate headers when present".
func TestAttackChallengeAfterOtherSchemeInOneHeader(t *testing.T) {
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
