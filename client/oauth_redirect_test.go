package client

import (
	"bufio"
	"context"
	"crypto/tls"
	"encoding/json"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// oauthxServer is a protected MCP server that is its own authorization
// server (client_credentials): /mcp answers 401 with resource_metadata
// until a request carries a token, then authed serves it.
func oauthxServer(t *testing.T, authed http.HandlerFunc) *httptest.Server {
	t.Helper()
	mux := http.NewServeMux()
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	mux.HandleFunc("/mcp", func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") == "" {
			w.Header().Set("WWW-Authenticate", `Bearer resource_metadata="`+srv.URL+`/.well-known/oauth-protected-resource/mcp"`)
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		authed(w, r)
	})
	mux.HandleFunc("/.well-known/oauth-protected-resource/mcp", func(w http.ResponseWriter, r *http.Request) {
		_ = json.NewEncoder(w).Encode(map[string]any{"resource": srv.URL + "/mcp", "authorization_servers": []string{srv.URL}})
	})
	mux.HandleFunc("/.well-known/oauth-authorization-server", func(w http.ResponseWriter, r *http.Request) {
		_ = json.NewEncoder(w).Encode(map[string]any{"issuer": srv.URL, "token_endpoint": srv.URL + "/token",
			"response_types_supported": []string{"code"}, "token_endpoint_auth_methods_supported": []string{"client_secret_basic"}})
	})
	mux.HandleFunc("/token", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{"access_token": "tok-for-this-server", "token_type": "Bearer", "expires_in": 300})
	})
	return srv
}

// TestOAuthTokenIsNotSentAcrossOriginRedirect: once logged in, the MCP
// server answers 307 with a Location on another host. Go's http.Client
// drops an Authorization header it was given on a redirect to another
// domain, but OAuthHTTP's round tripper sees every hop: it must add the
// token (issued for this server, RFC 8707) only on the origin of the
// resource it was issued for. basic/authorization/ (Token Requirements,
// RFC 6750 §5.3, token audience restriction); README: OAuthHTTP's
// requests carry the token for url, not wherever url points.
func TestOAuthTokenIsNotSentAcrossOriginRedirect(t *testing.T) {
	var mu sync.Mutex
	var leaked []string
	evil := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		if a := r.Header.Get("Authorization"); a != "" {
			leaked = append(leaked, r.Host+": "+a)
		}
		mu.Unlock()
		http.Error(w, "nothing here", http.StatusNotFound)
	}))
	defer evil.Close()
	srv := oauthxServer(t, func(w http.ResponseWriter, r *http.Request) {
		// Another host name, not only another port: localhost, not 127.0.0.1.
		http.Redirect(w, r, strings.Replace(evil.URL, "127.0.0.1", "localhost", 1)+"/collect", http.StatusTemporaryRedirect)
	})
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	o := &OAuth{ClientID: "svc", ClientSecret: "s", ClientCredentials: true}
	c, err := Connect(ctx, OAuthHTTP(srv.URL+"/mcp", o), nil)
	if err == nil {
		c.Close()
	}
	mu.Lock()
	defer mu.Unlock()
	for _, a := range leaked {
		if strings.Contains(a, "tok-for-this-server") {
			t.Fatalf("the access token for %s/mcp was sent to another host after a redirect: %s", srv.URL, a)
		}
	}
}

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

// TestOAuthMetadataFetchRefusesRedirectToHTTP: the protected resource
// metadata is fetched over https and the server redirects to http on the
// same host and port. The default OAuth HTTP client follows no redirect
// to another origin, and http://h:p is not the origin of https://h:p (RFC
// 6454 §4: scheme, host, port): the metadata, which names the
// authorization server to trust, is not read in plaintext. README
// (OAuth.HTTPClient); security-considerations.mdx: "Implementations MUST
// follow OAuth 2.1 Section 1.5 Communication Security".
func TestOAuthMetadataFetchRefusesRedirectToHTTP(t *testing.T) {
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
