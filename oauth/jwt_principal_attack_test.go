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

// TestAttackJWTWithoutSubjectSharesTasks (either fix passes it: the
// verifier refusing such a token with 401, or the server not treating two
// unidentified tokens as one principal): the JWT verifier accepts an
// "at+jwt" access token that names neither "sub" nor "client_id"/"azp"
// (RFC 9068 §2.2 makes both REQUIRED), and the server binds such a token to
// the principal key issuer+"\x00client\x00"+"": every such token, whoever
// it was issued to, is then the same principal. The holder of token B reads
// the result of a task that token A created.
//
// README (Authorization): "a legacy session and a task answer only the
// principal that created them"; server/auth_tasks.go: "tasks/get ... from
// another principal are answered like an unknown task (-32602)".
func TestAttackJWTWithoutSubjectSharesTasks(t *testing.T) {
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

	sign := func(jti string) string {
		sig, err := jose.NewSigner(jose.SigningKey{Algorithm: jose.ES256, Key: key},
			(&jose.SignerOptions{}).WithHeader("kid", "k1").WithHeader(jose.HeaderType, "at+jwt"))
		if err != nil {
			t.Fatal(err)
		}
		tok, err := jwt.Signed(sig).Claims(map[string]any{"iss": iss, "aud": aud, "exp": time.Now().Add(time.Hour).Unix(),
			"iat": time.Now().Unix(), "jti": jti, "scope": "mcp"}).Serialize()
		if err != nil {
			t.Fatal(err)
		}
		return tok
	}
	tokA, tokB := sign("issued-to-a"), sign("issued-to-b")

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
	status, created := post(tokA, "tools/call", "secret", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"secret","arguments":{},"_meta":`+meta+`}}`)
	if status == http.StatusUnauthorized {
		return // fixed in the verifier: a token naming no principal is refused
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
