package oauth

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/mcpgen/mcpgen/server"
)

// TestAttackTwoProtectedEndpointsOnOneMux: two MCP servers on one host,
// https://mcp.example.com/public/mcp and https://mcp.example.com/admin/mcp
// (authorization-server-discovery.mdx's own example of a path-inserted
// metadata URL is "https://example.com/public/mcp"), each with its
// server.Auth, mounted on one ServeMux as the README shows
// ("auth.Mount(mux) // RFC 9728 metadata at
// /.well-known/oauth-protected-resource/mcp and the root"). The second
// Mount panics ("multiple registrations for
// /.well-known/oauth-protected-resource"): both claim the root well-known
// path, though each has its own path-inserted URL (the one every 401
// challenge names in resource_metadata) and the spec needs only one of
// the two. Expected: no panic, and each path-inserted URL serves its own
// resource's document.
func TestAttackTwoProtectedEndpointsOnOneMux(t *testing.T) {
	verifier := server.TokenVerifierFunc(func(context.Context, string) (*server.TokenInfo, error) {
		return nil, server.ErrInvalidToken
	})
	mux := http.NewServeMux()
	resources := []string{"https://mcp.example.com/public/mcp", "https://mcp.example.com/admin/mcp"}
	var auths []*server.Auth
	for _, res := range resources {
		a, err := server.NewAuth(server.AuthOptions{Verifier: verifier, Resource: res,
			AuthorizationServers: []string{"https://as.example.com"}})
		if err != nil {
			t.Fatal(err)
		}
		auths = append(auths, a)
	}
	for i, a := range auths {
		func() {
			defer func() {
				if r := recover(); r != nil {
					t.Fatalf("Mount of the server.Auth for %s (after %d other) panicked: %v", resources[i], i, r)
				}
			}()
			a.Mount(mux)
		}()
	}
	for i, a := range auths {
		req := httptest.NewRequest(http.MethodGet, a.MetadataURL(), nil)
		rec := httptest.NewRecorder()
		mux.ServeHTTP(rec, req)
		var doc struct {
			Resource string `json:"resource"`
		}
		if err := json.Unmarshal(rec.Body.Bytes(), &doc); err != nil || rec.Code != http.StatusOK || doc.Resource != resources[i] {
			t.Errorf("GET %s: %d %s, want the document of %s", a.MetadataURL(), rec.Code, fmt.Sprint(doc), resources[i])
		}
	}
}
