package oauth

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/oauth/internal/testas"
	"github.com/mcpgen/mcpgen/server"
)

const benchResource = "http://127.0.0.1/mcp"

// benchHandler is an mcpgen server with one tool, protected by verifier
// (nil: not protected).
func benchHandler(b *testing.B, verifier server.TokenVerifier, issuer string) http.Handler {
	s, err := server.New(server.Options{Name: "bench", Version: "1", Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
		Tools: []server.Tool{server.NewTool(server.ToolInfo{Name: "whoami"}, func(ctx context.Context, _ struct{}) (string, error) {
			if p := server.Principal(ctx); p != nil {
				return p.Subject, nil
			}
			return "anonymous", nil
		})}})
	if err != nil {
		b.Fatal(err)
	}
	if verifier == nil {
		return s.HTTPHandler(server.HTTPOptions{})
	}
	auth, err := server.NewAuth(server.AuthOptions{Verifier: verifier, Resource: benchResource,
		AuthorizationServers: []string{issuer}, RequiredScopes: []string{"mcp"}})
	if err != nil {
		b.Fatal(err)
	}
	return s.HTTPHandler(server.HTTPOptions{Auth: auth})
}

const benchBody = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"whoami","arguments":{},` +
	`"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`

func benchCall(b *testing.B, h http.Handler, authz string) {
	b.ReportAllocs()
	for b.Loop() {
		req := httptest.NewRequest(http.MethodPost, benchResource, strings.NewReader(benchBody))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("MCP-Protocol-Version", "2026-07-28")
		req.Header.Set("Mcp-Method", "tools/call")
		req.Header.Set("Mcp-Name", "whoami")
		if authz != "" {
			req.Header.Set("Authorization", authz)
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), `"text"`) {
			b.Fatalf("HTTP %d: %s", rec.Code, rec.Body)
		}
	}
}

// BenchmarkBearerCheck is one tools/call over Streamable HTTP (in
// process, no network): unauthenticated, then with the bearer check — a
// JWT verified against the real authorization server's cached JWKS
// (RS256), and an opaque token whose introspection answer is cached.
// Compare each with "open" in the same run:
//
//	go test -run '^$' -bench BearerCheck -count 6 ./
func BenchmarkBearerCheck(b *testing.B) {
	jwtAS := startAS(b, testas.Options{})
	jv, err := NewJWTVerifier(context.Background(), JWTConfig{Issuer: jwtAS.Issuer, Audience: benchResource})
	if err != nil {
		b.Fatal(err)
	}
	opaqueAS := startAS(b, testas.Options{Opaque: true})
	iv, err := NewIntrospectionVerifier(context.Background(), IntrospectionConfig{
		Issuer: opaqueAS.Issuer, Audience: benchResource, ClientID: rsClient, ClientSecret: rsSecret})
	if err != nil {
		b.Fatal(err)
	}
	open := benchHandler(b, nil, "")
	withJWT := benchHandler(b, jv, jwtAS.Issuer)
	withIntrospection := benchHandler(b, iv, opaqueAS.Issuer)
	jwtToken := "Bearer " + token(b, jwtAS, benchResource, "mcp")
	opaqueToken := "Bearer " + token(b, opaqueAS, benchResource, "mcp")
	b.Run("open", func(b *testing.B) { benchCall(b, open, "") })
	b.Run("jwt", func(b *testing.B) { benchCall(b, withJWT, jwtToken) })
	b.Run("introspection-cached", func(b *testing.B) { benchCall(b, withIntrospection, opaqueToken) })
}
