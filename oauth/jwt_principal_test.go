package oauth_test

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	jose "github.com/go-jose/go-jose/v4"
	"github.com/go-jose/go-jose/v4/jwt"
	"github.com/mcpgen/mcpgen/oauth"
	"github.com/mcpgen/mcpgen/server"
)

// TestAtJWTWithoutSubjectOrClientIsRefused: an "at+jwt" access token
// must carry "sub" and "client_id" (RFC 9068 §2.2). Without them it named
// no principal, and the server bound every such token, whoever it was
// issued to, to one principal (issuer+"\x00client\x00"+""): the holder of
// token B read the result of a task token A created. Such tokens are now
// refused 401; one naming both is served, and two such tokens of different
// subjects do not share tasks.
func TestAtJWTWithoutSubjectOrClientIsRefused(t *testing.T) {
	key, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	jwks := jose.JSONWebKeySet{Keys: []jose.JSONWebKey{{Key: &key.PublicKey, KeyID: "k1", Algorithm: "ES256", Use: "sig"}}}
	keys := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { _ = json.NewEncoder(w).Encode(jwks) }))
	defer keys.Close()

	s, err := server.New(server.Options{Name: "jwtsub", Version: "1", Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
		Tools: []server.Tool{server.NewTool(server.ToolInfo{Name: "secret", TaskSupport: server.TaskSupportRequired},
			func(ctx context.Context, _ struct{}) (string, error) { return "A's secret", nil })}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Shutdown(context.Background())
	mux := http.NewServeMux()
	srv := httptest.NewServer(mux)
	defer srv.Close()
	const iss = "https://as.test"
	aud := srv.URL + "/mcp"
	v, err := oauth.NewJWTVerifier(context.Background(), oauth.JWTConfig{Issuer: iss, Audience: aud, JWKSURL: keys.URL})
	if err != nil {
		t.Fatal(err)
	}
	a, err := server.NewAuth(server.AuthOptions{Verifier: v, Resource: aud, AuthorizationServers: []string{iss}})
	if err != nil {
		t.Fatal(err)
	}
	mux.Handle("/mcp", s.HTTPHandler(server.HTTPOptions{Auth: a}))

	sign := func(jti string, who map[string]any) string {
		sig, err := jose.NewSigner(jose.SigningKey{Algorithm: jose.ES256, Key: key},
			(&jose.SignerOptions{}).WithHeader("kid", "k1").WithHeader(jose.HeaderType, "at+jwt"))
		if err != nil {
			t.Fatal(err)
		}
		tok, err := jwt.Signed(sig).Claims(map[string]any{"iss": iss, "aud": aud, "exp": time.Now().Add(time.Hour).Unix(),
			"iat": time.Now().Unix(), "jti": jti, "scope": "mcp"}).Claims(who).Serialize()
		if err != nil {
			t.Fatal(err)
		}
		return tok
	}
	tokA := sign("issued-to-a", map[string]any{"sub": "alice", "client_id": "app"})
	tokB := sign("issued-to-b", map[string]any{"sub": "bob", "client_id": "app"})

	const meta = `{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"extensions":{"io.modelcontextprotocol/tasks":{}}}}`
	post := func(tok, method, name, body string) (int, map[string]any) {
		req, _ := http.NewRequest(http.MethodPost, srv.URL+"/mcp", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("MCP-Protocol-Version", "2026-07-28")
		req.Header.Set("Mcp-Method", method)
		req.Header.Set("Mcp-Name", name)
		req.Header.Set("Authorization", "Bearer "+tok)
		resp, err := srv.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var out map[string]any
		raw, _ := io.ReadAll(resp.Body)
		if err := json.Unmarshal(raw, &out); err != nil {
			t.Fatalf("%s: HTTP %d %q", method, resp.StatusCode, raw)
		}
		return resp.StatusCode, out
	}
	call := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"secret","arguments":{},"_meta":` + meta + `}}`
	for name, who := range map[string]map[string]any{
		"neither": nil, "no client_id": {"sub": "alice"}, "no sub": {"client_id": "app"},
		"azp for client_id": {"sub": "alice", "azp": "app"},
	} {
		if status, body := post(sign("x-"+name, who), "tools/call", "secret", call); status != http.StatusUnauthorized {
			t.Errorf("at+jwt with %s: HTTP %d %v, want 401", name, status, body)
		}
	}
	status, created := post(tokA, "tools/call", "secret", call)
	if status != http.StatusOK {
		t.Fatalf("token A (sub and client_id): HTTP %d %v", status, created)
	}
	res, _ := created["result"].(map[string]any)
	id, _ := res["taskId"].(string)
	if id == "" {
		t.Fatalf("token A's task: %v", created)
	}
	_, got := post(tokB, "tasks/get", id, `{"jsonrpc":"2.0","id":2,"method":"tasks/get","params":{"taskId":"`+id+`","_meta":`+meta+`}}`)
	if e, _ := got["error"].(map[string]any); e == nil || e["code"] != float64(-32602) {
		b, _ := json.Marshal(got)
		t.Errorf("token B's tasks/get of token A's task: %s, want -32602 (unknown task)", b)
	}
}
