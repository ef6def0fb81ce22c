package server

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"
)

// TestAttackMountRootResourceAfterPathResource: two protected endpoints on
// one host and one mux, https://mcp.example.com/mcp and the root resource
// https://mcp.example.com/ (whose metadata URL, and the resource_metadata
// of its every challenge, is the root well-known URL itself, RFC 9728
// §3.1). Mounting the path resource first registers the root well-known
// path for it; the root resource's Mount then panics ("conflicts with
// pattern"), since the "leave a handler already there alone" rule only
// applies to an Auth with two paths. README: "Several protected endpoints
// can share one mux ... each Mount serves its document at its own
// path-inserted URL (..., the one its challenges name)". The root URL is
// the one the root resource's challenges name, and RFC 9728 §3.3 says the
// document there MUST name that resource: it must serve the root
// resource's document, whatever the order of the Mounts.
func TestAttackMountRootResourceAfterPathResource(t *testing.T) {
	verifier := TokenVerifierFunc(func(context.Context, string) (*TokenInfo, error) {
		return nil, ErrInvalidToken
	})
	mk := func(res string) *Auth {
		a, err := NewAuth(AuthOptions{Verifier: verifier, Resource: res,
			AuthorizationServers: []string{"https://as.example.com"}})
		if err != nil {
			t.Fatal(err)
		}
		return a
	}
	pathRes, rootRes := mk("https://mcp.example.com/mcp"), mk("https://mcp.example.com/")
	mux := http.NewServeMux()
	for _, a := range []*Auth{pathRes, rootRes} {
		func() {
			defer func() {
				if r := recover(); r != nil {
					t.Fatalf("Mount of the Auth for %s panicked: %v", a.opts.Resource, r)
				}
			}()
			a.Mount(mux)
		}()
	}
	for _, a := range []*Auth{pathRes, rootRes} {
		rec := httptest.NewRecorder()
		mux.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, a.MetadataURL(), nil))
		var doc struct {
			Resource string `json:"resource"`
		}
		_ = json.Unmarshal(rec.Body.Bytes(), &doc)
		if rec.Code != http.StatusOK || doc.Resource != a.opts.Resource {
			t.Errorf("GET %s (named by the challenges of %s): %d, resource %q", a.MetadataURL(), a.opts.Resource, rec.Code, doc.Resource)
		}
	}
}
