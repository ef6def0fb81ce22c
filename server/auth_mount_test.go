package server

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"
)

// TestAuthsOfTwoEndpointsMountOnOneMux: two MCP servers on one host,
// https://mcp.example.com/public/mcp and https://mcp.example.com/admin/mcp
// (authorization-server-discovery.mdx's own example of a path-inserted
// metadata URL is "https://example.com/public/mcp"), each with its Auth,
// mounted on one ServeMux as the README shows. The second Mount panicked
// ("multiple registrations for /.well-known/oauth-protected-resource"):
// both claimed the root well-known path, though each has its own
// path-inserted URL (the one every 401 challenge names in
// resource_metadata). Now each path-inserted URL serves its own resource's
// document (RFC 9728 §3.1), and the root serves the first one mounted.
func TestAuthsOfTwoEndpointsMountOnOneMux(t *testing.T) {
	verifier := TokenVerifierFunc(func(context.Context, string) (*TokenInfo, error) {
		return nil, ErrInvalidToken
	})
	mux := http.NewServeMux()
	resources := []string{"https://mcp.example.com/public/mcp", "https://mcp.example.com/admin/mcp"}
	var auths []*Auth
	for _, res := range resources {
		a, err := NewAuth(AuthOptions{Verifier: verifier, Resource: res,
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
					t.Fatalf("Mount of the Auth for %s (after %d other) panicked: %v", resources[i], i, r)
				}
			}()
			a.Mount(mux)
		}()
	}
	resourceAt := func(url string) (int, string) {
		rec := httptest.NewRecorder()
		mux.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, url, nil))
		var doc struct {
			Resource string `json:"resource"`
		}
		_ = json.Unmarshal(rec.Body.Bytes(), &doc)
		return rec.Code, doc.Resource
	}
	for i, a := range auths {
		if code, res := resourceAt(a.MetadataURL()); code != http.StatusOK || res != resources[i] {
			t.Errorf("GET %s: %d, resource %q; want the document of %s", a.MetadataURL(), code, res, resources[i])
		}
	}
	if code, res := resourceAt("https://mcp.example.com" + wellKnownPRM); code != http.StatusOK || res != resources[0] {
		t.Errorf("GET the root metadata URL: %d, resource %q; want the document of the first mounted, %s", code, res, resources[0])
	}
}
