package oauth

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"github.com/go-jose/go-jose/v4/jwt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/oauth/internal/testas"
	"github.com/mcpgen/mcpgen/server"
)

// Tests against a real authorization server (zitadel/oidc's OpenID
// Provider, in process on 127.0.0.1): tokens it issues through the
// client_credentials grant, with RFC 8707 resource indicators, reach a
// protected mcpgen server through these verifiers.

const (
	rsClient = "mcp-resource-server"
	rsSecret = "rs-secret"
	appID    = "app"
	appKey   = "app-secret"
)

func startAS(t testing.TB, opts testas.Options) *testas.Server {
	t.Helper()
	as, err := testas.Start(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(as.Close)
	as.AddClient(appID, appKey)
	as.AddClient(rsClient, rsSecret)
	return as
}

// mcpServer is a protected mcpgen server whose handlers count their runs.
type mcpServer struct {
	url  string
	auth *server.Auth
	runs atomic.Int32
}

func startMCP(t *testing.T, verifier func(resource string) server.TokenVerifier, issuer string) *mcpServer {
	t.Helper()
	m := &mcpServer{}
	mux := http.NewServeMux()
	hs := httptest.NewServer(mux)
	t.Cleanup(hs.Close)
	m.url = hs.URL + "/mcp"
	whoami := func(ctx context.Context, _ struct{}) (string, error) {
		m.runs.Add(1)
		p := server.Principal(ctx)
		return p.Subject + " " + strings.Join(p.Scopes, ","), nil
	}
	write := func(ctx context.Context, _ struct{}) (string, error) {
		m.runs.Add(1)
		return "written", nil
	}
	s, err := server.New(server.Options{Name: "protected", Version: "1",
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
		Tools: []server.Tool{
			server.NewTool(server.ToolInfo{Name: "whoami"}, whoami),
			server.NewTool(server.ToolInfo{Name: "write_file", Scopes: []string{"files:write"}}, write),
		}})
	if err != nil {
		t.Fatal(err)
	}
	m.auth, err = server.NewAuth(server.AuthOptions{
		Verifier: verifier(m.url), Resource: m.url, AuthorizationServers: []string{issuer},
		ScopesSupported: []string{"mcp"}, RequiredScopes: []string{"mcp"},
	})
	if err != nil {
		t.Fatal(err)
	}
	m.auth.Mount(mux)
	mux.Handle("/mcp", s.HTTPHandler(server.HTTPOptions{Auth: m.auth}))
	return m
}

func jwtVerifier(t *testing.T, issuer string) func(string) server.TokenVerifier {
	return func(resource string) server.TokenVerifier {
		v, err := NewJWTVerifier(context.Background(), JWTConfig{Issuer: issuer, Audience: resource})
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
}

// call posts tools/call name with the given Authorization header value
// ("" sends none) and returns the status, the challenge and the body.
func (m *mcpServer) call(t *testing.T, authz, name string) (int, string, map[string]any) {
	t.Helper()
	body := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"` + name + `","arguments":{},` +
		`"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`
	req, _ := http.NewRequest(http.MethodPost, m.url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("MCP-Protocol-Version", "2026-07-28")
	req.Header.Set("Mcp-Method", "tools/call")
	req.Header.Set("Mcp-Name", name)
	if authz != "" {
		req.Header.Set("Authorization", authz)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out map[string]any
	_ = json.NewDecoder(resp.Body).Decode(&out)
	return resp.StatusCode, resp.Header.Get("WWW-Authenticate"), out
}

func text(body map[string]any) string {
	res, _ := body["result"].(map[string]any)
	content, _ := res["content"].([]any)
	if len(content) == 0 {
		return ""
	}
	s, _ := content[0].(map[string]any)["text"].(string)
	return s
}

func token(t testing.TB, as *testas.Server, resource string, scopes ...string) string {
	t.Helper()
	tok, err := as.ClientCredentialsToken(context.Background(), appID, appKey, resource, scopes...)
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

// b64 re-encodes a JWT segment.
func b64(v any) string {
	b, _ := json.Marshal(v)
	return base64.RawURLEncoding.EncodeToString(b)
}

// TestJWTBadTokens: a good token works; every kind of bad one gets its
// status and challenge, and no handler runs.
func TestJWTBadTokens(t *testing.T) {
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	as := startAS(t, testas.Options{Key: key, KeyID: "shared"})
	m := startMCP(t, jwtVerifier(t, as.Issuer), as.Issuer)

	good := token(t, as, m.url, "mcp", "files:write")
	status, _, body := m.call(t, "Bearer "+good, "whoami")
	if status != 200 || text(body) != appID+" mcp,files:write" {
		t.Fatalf("good token: %d %v", status, body)
	}

	// Same signing key and kid, another issuer: the signature verifies
	// under as's JWKS, iss does not.
	as2 := startAS(t, testas.Options{Key: key, KeyID: "shared"})
	parts := strings.Split(good, ".")
	var header, claims map[string]any
	hb, _ := base64.RawURLEncoding.DecodeString(parts[0])
	cb, _ := base64.RawURLEncoding.DecodeString(parts[1])
	_ = json.Unmarshal(hb, &header)
	_ = json.Unmarshal(cb, &claims)
	sig := []byte(parts[2])
	// Another base64url character (a flipped bit could give '{' or ','),
	// away from the last one (whose low bits may be padding).
	if sig[5] == 'A' {
		sig[5] = 'B'
	} else {
		sig[5] = 'A'
	}
	badSig := parts[0] + "." + parts[1] + "." + string(sig)
	none := b64(map[string]any{"alg": "none", "typ": "JWT"}) + "." + parts[1] + "."
	hsHeader := b64(map[string]any{"alg": "HS256", "typ": "JWT", "kid": header["kid"]})
	mac := hmac.New(sha256.New, []byte("guessed"))
	mac.Write([]byte(hsHeader + "." + parts[1]))
	hs256 := hsHeader + "." + parts[1] + "." + base64.RawURLEncoding.EncodeToString(mac.Sum(nil))
	unknownKid := b64(map[string]any{"alg": "RS256", "kid": "made-up"}) + "." + parts[1] + "." + parts[2]

	expiredAS := startAS(t, testas.Options{Lifetime: -10 * time.Minute})
	expiredMCP := startMCP(t, jwtVerifier(t, expiredAS.Issuer), expiredAS.Issuer)
	futureAS := startAS(t, testas.Options{NotBeforeSkew: time.Hour})
	futureMCP := startMCP(t, jwtVerifier(t, futureAS.Issuer), futureAS.Issuer)

	cases := []struct {
		name   string
		m      *mcpServer
		authz  string
		tool   string
		status int
		errc   string
	}{
		{"no token", m, "", "whoami", 401, ""},
		{"malformed header", m, "Bearer " + good + " extra", "whoami", 400, "invalid_request"},
		{"not a JWT", m, "Bearer opaque-garbage", "whoami", 401, "invalid_token"},
		{"wrong audience", m, "Bearer " + token(t, as, "http://127.0.0.1:1/other", "mcp"), "whoami", 401, "invalid_token"},
		{"no resource (aud is the client)", m, "Bearer " + token(t, as, "", "mcp"), "whoami", 401, "invalid_token"},
		{"wrong issuer", m, "Bearer " + token(t, as2, m.url, "mcp"), "whoami", 401, "invalid_token"},
		{"bad signature", m, "Bearer " + badSig, "whoami", 401, "invalid_token"},
		{"alg none", m, "Bearer " + none, "whoami", 401, "invalid_token"},
		{"alg HS256", m, "Bearer " + hs256, "whoami", 401, "invalid_token"},
		{"unknown kid", m, "Bearer " + unknownKid, "whoami", 401, "invalid_token"},
		{"expired", expiredMCP, "Bearer " + token(t, expiredAS, expiredMCP.url, "mcp"), "whoami", 401, "invalid_token"},
		{"not yet valid", futureMCP, "Bearer " + token(t, futureAS, futureMCP.url, "mcp"), "whoami", 401, "invalid_token"},
		{"missing required scope", m, "Bearer " + token(t, as, m.url, "files:write"), "whoami", 403, "insufficient_scope"},
		{"missing tool scope", m, "Bearer " + token(t, as, m.url, "mcp"), "write_file", 403, "insufficient_scope"},
	}
	for _, c := range cases {
		before := c.m.runs.Load()
		status, ch, body := c.m.call(t, c.authz, c.tool)
		if status != c.status {
			t.Errorf("%s: status %d, want %d (%v)", c.name, status, c.status, body)
			continue
		}
		if !strings.Contains(ch, `resource_metadata="`+c.m.auth.MetadataURL()+`"`) {
			t.Errorf("%s: challenge %q lacks resource_metadata", c.name, ch)
		}
		if c.errc != "" && !strings.Contains(ch, `error="`+c.errc+`"`) || c.errc == "" && strings.Contains(ch, "error=") {
			t.Errorf("%s: challenge %q, want error %q", c.name, ch, c.errc)
		}
		if c.name == "missing tool scope" && !strings.Contains(ch, `scope="mcp files:write"`) {
			t.Errorf("%s: challenge %q must name every scope the call needs", c.name, ch)
		}
		if n := c.m.runs.Load() - before; n != 0 {
			t.Errorf("%s: %d handler runs", c.name, n)
		}
	}
	// Each refusal is for the reason the case names.
	for _, c := range []struct {
		name     string
		as       *testas.Server
		resource string
		tok      string
		want     error
	}{
		{"wrong issuer", as, m.url, token(t, as2, m.url, "mcp"), jwt.ErrInvalidIssuer},
		{"wrong audience", as, m.url, token(t, as, "http://127.0.0.1:1/other", "mcp"), jwt.ErrInvalidAudience},
		{"expired", expiredAS, expiredMCP.url, token(t, expiredAS, expiredMCP.url, "mcp"), jwt.ErrExpired},
		{"not yet valid", futureAS, futureMCP.url, token(t, futureAS, futureMCP.url, "mcp"), jwt.ErrNotValidYet},
	} {
		_, err := jwtVerifier(t, c.as.Issuer)(c.resource).VerifyToken(context.Background(), c.tok)
		if !errors.Is(err, c.want) || !errors.Is(err, server.ErrInvalidToken) {
			t.Errorf("%s: %v, want %v wrapping server.ErrInvalidToken", c.name, err, c.want)
		}
	}
	// The wrong-issuer token is well signed: as2's own verifier takes it.
	if _, err := jwtVerifier(t, as2.Issuer)(m.url).VerifyToken(context.Background(), token(t, as2, m.url, "mcp")); err != nil {
		t.Errorf("as2's token under as2's verifier: %v", err)
	}
	// The OP signs its access tokens with typ "JWT", as many do: the
	// default takes them (the good token above), RequireAccessTokenType,
	// which wants RFC 9068's "at+jwt", does not.
	if header["typ"] != "JWT" {
		t.Errorf("the OP's access token has typ %v, want JWT", header["typ"])
	}
	strict, err := NewJWTVerifier(context.Background(), JWTConfig{Issuer: as.Issuer, Audience: m.url, RequireAccessTokenType: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := strict.VerifyToken(context.Background(), good); !errors.Is(err, ErrTokenType) || !errors.Is(err, server.ErrInvalidToken) {
		t.Errorf("typ JWT under RequireAccessTokenType: %v, want ErrTokenType wrapping server.ErrInvalidToken", err)
	}
}

// TestJWTKeyRotation: after the server rotates its signing key, a token
// with the new kid is accepted after one JWKS fetch; a flood of made-up
// key IDs fetches at most once per MinRefresh.
func TestJWTKeyRotation(t *testing.T) {
	as := startAS(t, testas.Options{})
	var v *JWTVerifier
	m := startMCP(t, func(resource string) server.TokenVerifier {
		var err error
		v, err = NewJWTVerifier(context.Background(), JWTConfig{Issuer: as.Issuer, Audience: resource, MinRefresh: time.Hour})
		if err != nil {
			t.Fatal(err)
		}
		return v
	}, as.Issuer)
	if status, _, body := m.call(t, "Bearer "+token(t, as, m.url, "mcp"), "whoami"); status != 200 {
		t.Fatalf("before rotation: %d %v", status, body)
	}
	fetches := as.JWKSFetches()
	if err := as.RotateKey(); err != nil {
		t.Fatal(err)
	}
	// MinRefresh is an hour, but the first unknown kid since the last
	// fetch attempt... was the initial fetch: reset the throttle the way
	// time would.
	v.keys.mu.Lock()
	v.keys.tried = time.Time{}
	v.keys.mu.Unlock()
	if status, _, body := m.call(t, "Bearer "+token(t, as, m.url, "mcp"), "whoami"); status != 200 {
		t.Fatalf("after rotation: %d %v", status, body)
	}
	if got := as.JWKSFetches() - fetches; got != 1 {
		t.Errorf("rotation cost %d JWKS fetches, want 1", got)
	}
	good := token(t, as, m.url, "mcp")
	parts := strings.Split(good, ".")
	fetches = as.JWKSFetches()
	for i := 0; i < 20; i++ {
		forged := b64(map[string]any{"alg": "RS256", "kid": "forged-" + string(rune('a'+i))}) + "." + parts[1] + "." + parts[2]
		if status, _, _ := m.call(t, "Bearer "+forged, "whoami"); status != 401 {
			t.Fatalf("forged kid: %d", status)
		}
	}
	if got := as.JWKSFetches() - fetches; got != 0 {
		t.Errorf("20 forged key IDs within MinRefresh fetched the JWKS %d times, want 0", got)
	}
}

// TestIntrospection: opaque tokens checked by RFC 7662 introspection.
func TestIntrospection(t *testing.T) {
	as := startAS(t, testas.Options{Opaque: true})
	m := startMCP(t, func(resource string) server.TokenVerifier {
		v, err := NewIntrospectionVerifier(context.Background(), IntrospectionConfig{
			Issuer: as.Issuer, Audience: resource, ClientID: rsClient, ClientSecret: rsSecret})
		if err != nil {
			t.Fatal(err)
		}
		return v
	}, as.Issuer)
	good := token(t, as, m.url, "mcp", "files:write")
	if strings.Count(good, ".") == 2 {
		t.Fatalf("the opaque server issued a JWT: %s", good)
	}
	status, _, body := m.call(t, "Bearer "+good, "whoami")
	if status != 200 || text(body) != appID+" mcp,files:write" {
		t.Fatalf("good opaque token: %d %v", status, body)
	}
	for name, tok := range map[string]string{
		"wrong audience": token(t, as, "http://127.0.0.1:1/other", "mcp"),
		"unknown token":  "not-a-token-the-server-issued",
	} {
		before := m.runs.Load()
		if status, ch, _ := m.call(t, "Bearer "+tok, "whoami"); status != 401 || !strings.Contains(ch, `error="invalid_token"`) {
			t.Errorf("%s: %d %q", name, status, ch)
		}
		if m.runs.Load() != before {
			t.Errorf("%s: a handler ran", name)
		}
	}
	if status, ch, _ := m.call(t, "Bearer "+token(t, as, m.url, "mcp"), "write_file"); status != 403 || !strings.Contains(ch, `scope="mcp files:write"`) {
		t.Errorf("missing scope: %d %q", status, ch)
	}
	// A resource server that cannot authenticate learns nothing about tokens.
	wrong, err := NewIntrospectionVerifier(context.Background(), IntrospectionConfig{Issuer: as.Issuer, Audience: m.url, ClientID: rsClient, ClientSecret: "wrong"})
	if err != nil {
		t.Fatal(err)
	}
	if info, err := wrong.VerifyToken(context.Background(), good); err == nil {
		t.Errorf("introspection with a wrong client secret accepted the token: %+v", info)
	}
}

func TestWellKnownURLs(t *testing.T) {
	got, err := wellKnownURLs("https://auth.example.com/tenant1")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"https://auth.example.com/.well-known/oauth-authorization-server/tenant1",
		"https://auth.example.com/.well-known/openid-configuration/tenant1",
		"https://auth.example.com/tenant1/.well-known/openid-configuration",
	}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("with a path: %v", got)
	}
	got, _ = wellKnownURLs("https://auth.example.com")
	if strings.Join(got, " ") != "https://auth.example.com/.well-known/oauth-authorization-server https://auth.example.com/.well-known/openid-configuration" {
		t.Errorf("without a path: %v", got)
	}
	if _, err := wellKnownURLs("auth.example.com"); err == nil {
		t.Error("a relative issuer was accepted")
	}
}

func TestAudienceMatches(t *testing.T) {
	for _, c := range []struct {
		aud  []string
		res  string
		want bool
	}{
		{[]string{"https://mcp.example.com/mcp"}, "https://mcp.example.com/mcp", true},
		{[]string{"HTTPS://MCP.example.com/mcp"}, "https://mcp.example.com/mcp", true},
		{[]string{"https://mcp.example.com/mcp/"}, "https://mcp.example.com/mcp", true},
		{[]string{"https://mcp.example.com/MCP"}, "https://mcp.example.com/mcp", false},
		{[]string{"https://mcp.example.com"}, "https://mcp.example.com/mcp", false},
		{[]string{"https://evil.example.com/mcp"}, "https://mcp.example.com/mcp", false},
		{nil, "https://mcp.example.com/mcp", false},
	} {
		if got := audienceMatches(c.aud, c.res); got != c.want {
			t.Errorf("audienceMatches(%v, %s) = %v", c.aud, c.res, got)
		}
	}
}
