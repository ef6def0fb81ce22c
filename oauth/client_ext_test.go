package oauth

import (
	"context"
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	jose "github.com/go-jose/go-jose/v4"
	"github.com/go-jose/go-jose/v4/jwt"
	"github.com/mcpgen/mcpgen/client"
	"github.com/mcpgen/mcpgen/generated/mcp"
	"github.com/mcpgen/mcpgen/server"
)

// The Go client's extension grants (client/oauth_assertion.go,
// client/oauth_dpop.go) against an authorization server and a resource
// server that check what the client signed with go-jose: the client signs
// with the standard library only, so this is the differential check of
// its JWS, JWK and thumbprints.

var allAlgs = []jose.SignatureAlgorithm{jose.ES256, jose.ES384, jose.ES512, jose.RS256, jose.PS256, jose.EdDSA}

// fakeAS is an authorization server for the extension grants.
type fakeAS struct {
	t        *testing.T
	srv      *httptest.Server
	meta     map[string]any
	mu       sync.Mutex
	tokens   map[string]string // access token -> DPoP jkt ("" for bearer)
	jtis     map[string]bool
	requests int
	// grant checks one token request (form and the DPoP jkt, if any) and
	// returns an OAuth error code or "".
	grant func(r *http.Request, jkt string) string
	nonce string // required DPoP nonce ("" none)
}

func newFakeAS(t *testing.T, meta map[string]any) *fakeAS {
	as := &fakeAS{t: t, tokens: map[string]string{}, jtis: map[string]bool{}}
	mux := http.NewServeMux()
	as.srv = httptest.NewServer(mux)
	t.Cleanup(as.srv.Close)
	as.meta = map[string]any{"issuer": as.srv.URL, "token_endpoint": as.srv.URL + "/token",
		"response_types_supported": []string{"code"}}
	for k, v := range meta {
		as.meta[k] = v
	}
	mux.HandleFunc("/.well-known/oauth-authorization-server", func(w http.ResponseWriter, r *http.Request) {
		_ = json.NewEncoder(w).Encode(as.meta)
	})
	mux.HandleFunc("/token", as.token)
	return as
}

func oauthError(w http.ResponseWriter, status int, code string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]string{"error": code})
}

func (as *fakeAS) token(w http.ResponseWriter, r *http.Request) {
	as.mu.Lock()
	as.requests++
	as.mu.Unlock()
	if err := r.ParseForm(); err != nil {
		oauthError(w, 400, "invalid_request")
		return
	}
	jkt := ""
	if proof := r.Header.Get("DPoP"); proof != "" {
		var nonce string
		var err error
		jkt, nonce, err = as.checkProof(proof, "POST", as.srv.URL+"/token", "")
		if err != nil {
			as.t.Errorf("token request DPoP proof: %v", err)
			oauthError(w, 400, "invalid_dpop_proof")
			return
		}
		if as.nonce != "" && nonce != as.nonce {
			w.Header().Set("DPoP-Nonce", as.nonce)
			oauthError(w, 400, "use_dpop_nonce")
			return
		}
	}
	if code := as.grant(r, jkt); code != "" {
		oauthError(w, 400, code)
		return
	}
	tok := "at-" + base64.RawURLEncoding.EncodeToString([]byte(time.Now().String()))
	as.mu.Lock()
	as.tokens[tok] = jkt
	as.mu.Unlock()
	typ := "Bearer"
	if jkt != "" {
		typ = "DPoP"
	}
	_ = json.NewEncoder(w).Encode(map[string]any{"access_token": tok, "token_type": typ, "expires_in": 300})
}

// checkProof verifies a DPoP proof (RFC 9449 §4.3) with go-jose and
// returns its key's thumbprint and nonce.
func (as *fakeAS) checkProof(proof, method, htu, accessToken string) (jkt, nonce string, err error) {
	jws, err := jose.ParseSigned(proof, allAlgs)
	if err != nil {
		return "", "", err
	}
	h := jws.Signatures[0].Protected
	if h.ExtraHeaders["typ"] != "dpop+jwt" {
		return "", "", fmt.Errorf("typ %v", h.ExtraHeaders["typ"])
	}
	if h.JSONWebKey == nil || !h.JSONWebKey.IsPublic() {
		return "", "", errors.New("no public jwk")
	}
	payload, err := jws.Verify(h.JSONWebKey.Key)
	if err != nil {
		return "", "", err
	}
	var c struct {
		JTI   string `json:"jti"`
		HTM   string `json:"htm"`
		HTU   string `json:"htu"`
		IAT   int64  `json:"iat"`
		Nonce string `json:"nonce"`
		ATH   string `json:"ath"`
	}
	if err := json.Unmarshal(payload, &c); err != nil {
		return "", "", err
	}
	as.mu.Lock()
	replay := as.jtis[c.JTI]
	as.jtis[c.JTI] = true
	as.mu.Unlock()
	switch {
	case c.JTI == "" || replay:
		return "", "", fmt.Errorf("jti %q missing or replayed", c.JTI)
	case c.HTM != method || c.HTU != htu:
		return "", "", fmt.Errorf("htm/htu %s %s, want %s %s", c.HTM, c.HTU, method, htu)
	case time.Since(time.Unix(c.IAT, 0)).Abs() > time.Minute:
		return "", "", fmt.Errorf("iat %d", c.IAT)
	}
	if accessToken != "" {
		sum := sha256.Sum256([]byte(accessToken))
		if c.ATH != base64.RawURLEncoding.EncodeToString(sum[:]) {
			return "", "", errors.New("ath does not match the token")
		}
	} else if c.ATH != "" {
		return "", "", errors.New("ath on a token request")
	}
	tp, err := h.JSONWebKey.Thumbprint(crypto.SHA256)
	if err != nil {
		return "", "", err
	}
	return base64.RawURLEncoding.EncodeToString(tp), c.Nonce, nil
}

// protectedServer is an mcpgen server whose tokens are as's, behind a
// DPoP gate (a DPoP token must come with a proof of its key; with
// rsNonce set, one carrying that nonce).
func protectedServer(t *testing.T, as *fakeAS, rsNonce string) (url string, calls *int) {
	s, err := server.New(server.Options{Name: "p", Version: "1", Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
		Tools: []server.Tool{server.NewTool(server.ToolInfo{Name: "whoami"}, func(ctx context.Context, _ struct{}) (string, error) {
			return server.Principal(ctx).Subject, nil
		})}})
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	hs := httptest.NewServer(mux)
	t.Cleanup(hs.Close)
	url = hs.URL + "/mcp"
	auth, err := server.NewAuth(server.AuthOptions{Resource: url, AuthorizationServers: []string{as.srv.URL},
		Verifier: server.TokenVerifierFunc(func(ctx context.Context, tok string) (*server.TokenInfo, error) {
			as.mu.Lock()
			_, ok := as.tokens[tok]
			as.mu.Unlock()
			if !ok {
				return nil, server.ErrInvalidToken
			}
			return &server.TokenInfo{Subject: "workload", Expiry: time.Now().Add(time.Minute)}, nil
		})})
	if err != nil {
		t.Fatal(err)
	}
	auth.Mount(mux)
	h := s.HTTPHandler(server.HTTPOptions{Auth: auth})
	n := 0
	mux.HandleFunc("/mcp", func(w http.ResponseWriter, r *http.Request) {
		scheme, tok, _ := strings.Cut(r.Header.Get("Authorization"), " ")
		as.mu.Lock()
		jkt, known := as.tokens[tok]
		as.mu.Unlock()
		if known && jkt != "" {
			if !strings.EqualFold(scheme, "DPoP") {
				t.Errorf("a DPoP token presented as %s", scheme)
			}
			got, nonce, err := as.checkProof(r.Header.Get("DPoP"), r.Method, url, tok)
			if err != nil || got != jkt {
				t.Errorf("resource request DPoP proof: %v (jkt %s, token's %s)", err, got, jkt)
				w.WriteHeader(http.StatusUnauthorized)
				return
			}
			if rsNonce != "" && nonce != rsNonce {
				w.Header().Set("DPoP-Nonce", rsNonce)
				w.Header().Set("WWW-Authenticate", `DPoP error="use_dpop_nonce"`)
				w.WriteHeader(http.StatusUnauthorized)
				return
			}
			r.Header.Set("Authorization", "Bearer "+tok)
			n++
		}
		h.ServeHTTP(w, r)
	})
	return url, &n
}

func connectAndCall(t *testing.T, url string, o *client.OAuth) error {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	c, err := client.Connect(ctx, client.OAuthHTTP(url, o), &client.Options{ClientInfo: mcp.Implementation{Name: "t", Version: "1"}})
	if err != nil {
		return err
	}
	defer c.Close()
	for range 2 {
		raw, err := c.Call(ctx, "tools/call", map[string]any{"name": "whoami", "arguments": map[string]any{}})
		if err != nil {
			return err
		}
		if !strings.Contains(string(raw), `"workload"`) {
			return fmt.Errorf("whoami: %s", raw)
		}
	}
	return nil
}

func testKeys(t *testing.T) map[string]crypto.Signer {
	keys := map[string]crypto.Signer{}
	for alg, curve := range map[string]elliptic.Curve{"ES256": elliptic.P256(), "ES384": elliptic.P384(), "ES512": elliptic.P521()} {
		k, err := ecdsa.GenerateKey(curve, rand.Reader)
		if err != nil {
			t.Fatal(err)
		}
		keys[alg] = k
	}
	rk, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	keys["RS256"], keys["PS256"] = rk, rk
	_, ek, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	keys["EdDSA"] = ek
	return keys
}

// TestClientPrivateKeyJWT: client_credentials with a private_key_jwt
// assertion (RFC 7523 §2.2) for every key type; go-jose verifies the
// signature, and the claims are the RFC's.
func TestClientPrivateKeyJWT(t *testing.T) {
	for alg, key := range testKeys(t) {
		t.Run(alg, func(t *testing.T) {
			as := newFakeAS(t, map[string]any{"grant_types_supported": []string{"client_credentials"},
				"token_endpoint_auth_methods_supported":            []string{"private_key_jwt"},
				"token_endpoint_auth_signing_alg_values_supported": []string{alg}})
			as.grant = func(r *http.Request, _ string) string {
				f := r.PostForm
				if f.Get("grant_type") != "client_credentials" || f.Get("client_assertion_type") != "urn:ietf:params:oauth:client-assertion-type:jwt-bearer" {
					t.Errorf("form %v", f)
					return "invalid_request"
				}
				tok, err := jwt.ParseSigned(f.Get("client_assertion"), []jose.SignatureAlgorithm{jose.SignatureAlgorithm(alg)})
				if err != nil {
					t.Errorf("assertion: %v", err)
					return "invalid_client"
				}
				if kid := tok.Headers[0].KeyID; kid != "k1" {
					t.Errorf("kid %q", kid)
				}
				var c jwt.Claims
				if err := tok.Claims(key.Public(), &c); err != nil {
					t.Errorf("go-jose rejects the %s signature: %v", alg, err)
					return "invalid_client"
				}
				if err := c.ValidateWithLeeway(jwt.Expected{Issuer: "svc", Subject: "svc", AnyAudience: jwt.Audience{as.srv.URL}, Time: time.Now()}, 0); err != nil || c.ID == "" || c.Expiry == nil {
					t.Errorf("claims %+v: %v", c, err)
					return "invalid_client"
				}
				return ""
			}
			url, _ := protectedServer(t, as, "")
			if err := connectAndCall(t, url, &client.OAuth{ClientID: "svc", ClientKey: key, ClientKeyID: "k1", ClientCredentials: true}); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// TestClientDPoP: the token and every request carry fresh proofs go-jose
// verifies; both servers' use_dpop_nonce challenges are answered; the
// token is presented with the DPoP scheme.
func TestClientDPoP(t *testing.T) {
	for alg, key := range testKeys(t) {
		t.Run(alg, func(t *testing.T) {
			as := newFakeAS(t, map[string]any{"grant_types_supported": []string{"client_credentials"},
				"token_endpoint_auth_methods_supported": []string{"client_secret_basic"},
				"dpop_signing_alg_values_supported":     []string{alg}})
			as.nonce = "as-nonce-1"
			as.grant = func(r *http.Request, jkt string) string {
				if jkt == "" {
					t.Error("token request without a DPoP proof")
				}
				return ""
			}
			url, calls := protectedServer(t, as, "rs-nonce-1")
			if err := connectAndCall(t, url, &client.OAuth{ClientID: "svc", ClientSecret: "s", ClientCredentials: true, DPoP: true, DPoPKey: key}); err != nil {
				t.Fatal(err)
			}
			if *calls < 3 { // discover + 2 calls, each past the gate
				t.Errorf("%d requests passed the DPoP gate", *calls)
			}
		})
	}
}

// TestClientJWTBearer: workload identity (the assertion as given) and
// enterprise-managed authorization (ID token -> ID-JAG at the IdP, then
// the JWT bearer grant); a refused assertion is an error, asked once.
func TestClientJWTBearer(t *testing.T) {
	const grant = "urn:ietf:params:oauth:grant-type:jwt-bearer"
	newAS := func(want string) *fakeAS {
		as := newFakeAS(t, map[string]any{"grant_types_supported": []string{grant}, "token_endpoint_auth_methods_supported": []string{"client_secret_basic"}})
		as.grant = func(r *http.Request, _ string) string {
			id, secret, _ := r.BasicAuth()
			if r.PostForm.Get("grant_type") != grant || id != "app" || secret != "app-secret" {
				t.Errorf("grant %v, client %s:%s", r.PostForm, id, secret)
				return "invalid_client"
			}
			if r.PostForm.Get("assertion") != want {
				return "invalid_grant"
			}
			return ""
		}
		return as
	}
	t.Run("workload", func(t *testing.T) {
		as := newAS("workload-jwt")
		url, _ := protectedServer(t, as, "")
		o := &client.OAuth{ClientID: "app", ClientSecret: "app-secret", Assertion: func(ctx context.Context, tg client.AssertionTarget) (string, error) {
			if tg.Issuer != as.srv.URL || tg.Resource != url {
				t.Errorf("target %+v", tg)
			}
			return "workload-jwt", nil
		}}
		if err := connectAndCall(t, url, o); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("refused", func(t *testing.T) {
		as := newAS("another-jwt")
		url, _ := protectedServer(t, as, "")
		o := &client.OAuth{ClientID: "app", ClientSecret: "app-secret", Assertion: func(context.Context, client.AssertionTarget) (string, error) {
			return "workload-jwt", nil
		}}
		err := connectAndCall(t, url, o)
		if err == nil || !strings.Contains(err.Error(), "invalid_grant") {
			t.Fatalf("err = %v, want invalid_grant", err)
		}
		if as.requests != 1 {
			t.Errorf("%d token requests, want 1 (no retry, no other grant)", as.requests)
		}
	})
	t.Run("enterprise", func(t *testing.T) {
		as := newAS("id-jag-1")
		url, _ := protectedServer(t, as, "")
		idp := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			_ = r.ParseForm()
			f := r.PostForm
			want := map[string]string{"grant_type": "urn:ietf:params:oauth:grant-type:token-exchange",
				"requested_token_type": "urn:ietf:params:oauth:token-type:id-jag", "audience": as.srv.URL, "resource": url,
				"subject_token": "id-token-1", "subject_token_type": "urn:ietf:params:oauth:token-type:id_token", "client_id": "idp-app"}
			for k, v := range want {
				if f.Get(k) != v {
					t.Errorf("token exchange %s = %q, want %q", k, f.Get(k), v)
				}
			}
			_ = json.NewEncoder(w).Encode(map[string]string{"access_token": "id-jag-1",
				"issued_token_type": "urn:ietf:params:oauth:token-type:id-jag", "token_type": "N_A"})
		}))
		defer idp.Close()
		idpc := &client.EnterpriseIdP{TokenEndpoint: idp.URL, ClientID: "idp-app",
			IDToken: func(context.Context) (string, error) { return "id-token-1", nil }}
		if err := connectAndCall(t, url, &client.OAuth{ClientID: "app", ClientSecret: "app-secret", Assertion: idpc.Assertion}); err != nil {
			t.Fatal(err)
		}
	})
}

// TestClientDPoPNotOffered: with DPoP asked for but not offered (no
// dpop_signing_alg_values_supported, or none the key can make), the
// client gets and presents a bearer token.
func TestClientDPoPNotOffered(t *testing.T) {
	for name, algs := range map[string][]string{"not offered": nil, "other algorithms": {"RS256"}} {
		t.Run(name, func(t *testing.T) {
			meta := map[string]any{"grant_types_supported": []string{"client_credentials"},
				"token_endpoint_auth_methods_supported": []string{"client_secret_basic"}}
			if algs != nil {
				meta["dpop_signing_alg_values_supported"] = algs
			}
			as := newFakeAS(t, meta)
			as.grant = func(r *http.Request, jkt string) string {
				if r.Header.Get("DPoP") != "" {
					t.Error("a DPoP proof to a server that does not take this key's")
				}
				return ""
			}
			url, calls := protectedServer(t, as, "")
			if err := connectAndCall(t, url, &client.OAuth{ClientID: "svc", ClientSecret: "s", ClientCredentials: true, DPoP: true}); err != nil {
				t.Fatal(err)
			}
			if *calls != 0 {
				t.Errorf("%d requests presented a DPoP token", *calls)
			}
		})
	}
}
