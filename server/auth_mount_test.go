package server

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
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
	mux := http.NewServeMux()
	resources := []string{"https://mcp.example.com/public/mcp", "https://mcp.example.com/admin/mcp"}
	var auths []*Auth
	for _, res := range resources {
		auths = append(auths, mountAuth(t, res))
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

// TestRootResourceMetadataServedAtRootWhateverMountOrder: two protected
// endpoints on one host and one mux, https://mcp.example.com/mcp and the
// root resource https://mcp.example.com/ (whose metadata URL, and the
// resource_metadata of its every challenge, is the root well-known URL
// itself, RFC 9728 §3.1). Mounting the path resource first registered the
// root well-known path for it, and the root resource's Mount then panicked
// ("conflicts with pattern"). README: "Several protected endpoints
// can share one mux ... each Mount serves its document at its own
// path-inserted URL (..., the one its challenges name)". The root URL is
// the one the root resource's challenges name, and RFC 9728 §3.3 says the
// document there MUST name that resource: it must serve the root
// resource's document, whatever the order of the Mounts.
func TestRootResourceMetadataServedAtRootWhateverMountOrder(t *testing.T) {
	for _, rootFirst := range []bool{false, true} {
		pathRes, rootRes := mountAuth(t, "https://mcp.example.com/mcp"), mountAuth(t, "https://mcp.example.com/")
		order := []*Auth{pathRes, rootRes}
		if rootFirst {
			order = []*Auth{rootRes, pathRes}
		}
		mountAndCheck(t, order)
	}
}

// mountAndCheck mounts auths on one mux in order and checks that each
// one's MetadataURL serves its own document.
func mountAndCheck(t *testing.T, auths []*Auth) {
	t.Helper()
	mux := http.NewServeMux()
	for _, a := range auths {
		func() {
			defer func() {
				if r := recover(); r != nil {
					t.Fatalf("Mount of the Auth for %s panicked: %v", a.opts.Resource, r)
				}
			}()
			a.Mount(mux)
		}()
	}
	for _, a := range auths {
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

// TestMountLeavesCallersRootHandlerAlone: a handler of the caller's own at
// the root well-known path is left alone by a path resource's Mount; a
// root resource's Mount onto it, or a second root resource's of the same
// host onto one mux (two hosts' are served by Host), panics as a second registration of one pattern does, rather than serve
// one resource's document at another's metadata URL.
func TestMountLeavesCallersRootHandlerAlone(t *testing.T) {
	panics := func(f func()) (did bool) {
		defer func() { did = recover() != nil }()
		f()
		return false
	}
	mux := http.NewServeMux()
	mux.HandleFunc(wellKnownPRM, func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write([]byte("mine")) })
	if panics(func() { mountAuth(t, "https://mcp.example.com/mcp").Mount(mux) }) {
		t.Fatal("a path resource's Mount panicked on the caller's own root handler")
	}
	rec := httptest.NewRecorder()
	mux.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "https://mcp.example.com"+wellKnownPRM, nil))
	if rec.Body.String() != "mine" {
		t.Errorf("the caller's root handler was replaced: %q", rec.Body.String())
	}
	if !panics(func() { mountAuth(t, "https://mcp.example.com/").Mount(mux) }) {
		t.Error("a root resource's Mount onto the caller's root handler did not panic")
	}

	two := http.NewServeMux()
	mountAuth(t, "https://a.example.com/").Mount(two)
	if !panics(func() { mountAuth(t, "http://a.example.com/").Mount(two) }) {
		t.Error("a second root resource of one host's Mount on one mux did not panic")
	}
}

// mountAuth is the Auth of resource for the Mount tests: its verifier
// refuses every token, only its metadata documents are served.
func mountAuth(t *testing.T, resource string) *Auth {
	t.Helper()
	a, err := NewAuth(AuthOptions{Resource: resource, AuthorizationServers: []string{"https://as.example.com"},
		Verifier: TokenVerifierFunc(func(context.Context, string) (*TokenInfo, error) { return nil, ErrInvalidToken })})
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// TestResourcesOfOnePathOnTwoHostsMountOnOneMux: https://a.example/mcp and
// https://b.example/mcp (one mux serving two virtual hosts) share the
// metadata path /.well-known/oauth-protected-resource/mcp. The second
// Mount panicked ("multiple registrations"). Each host must be served its
// own resource's document, chosen by the request's Host, at the
// path-inserted URL and at the root; two root resources on two hosts
// likewise.
func TestResourcesOfOnePathOnTwoHostsMountOnOneMux(t *testing.T) {
	for _, resources := range [][]string{
		{"https://a.example/mcp", "https://b.example/mcp"},
		{"https://a.example/", "https://b.example/"},
	} {
		auths := []*Auth{mountAuth(t, resources[0]), mountAuth(t, resources[1])}
		mountAndCheck(t, auths)
		mux := http.NewServeMux()
		for _, a := range auths {
			a.Mount(mux)
		}
		for _, a := range auths {
			root := "https://" + strings.Split(a.opts.Resource, "/")[2] + wellKnownPRM
			rec := httptest.NewRecorder()
			mux.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, root, nil))
			var doc struct {
				Resource string `json:"resource"`
			}
			_ = json.Unmarshal(rec.Body.Bytes(), &doc)
			if rec.Code != http.StatusOK || doc.Resource != a.opts.Resource {
				t.Errorf("GET %s: %d, resource %q; want the document of %s", root, rec.Code, doc.Resource, a.opts.Resource)
			}
		}
	}
}

// TestMountPicksTheHostWithItsDefaultPortNamed: a request whose Host names
// the resource's scheme's default port (b.example:443 for https://b.example)
// gets that resource's document, not the first one mounted; another port
// is another host.
func TestMountPicksTheHostWithItsDefaultPortNamed(t *testing.T) {
	auths := []*Auth{mountAuth(t, "https://a.example/mcp"), mountAuth(t, "https://b.example/mcp"), mountAuth(t, "http://[::1]/mcp")}
	mux := http.NewServeMux()
	for _, a := range auths {
		a.Mount(mux)
	}
	for _, c := range []struct{ host, want string }{
		{"b.example:443", "https://b.example/mcp"},
		{"B.EXAMPLE", "https://b.example/mcp"},
		{"b.example:8443", "https://a.example/mcp"}, // no resource of that host: the first mounted
		{"[::1]:80", "http://[::1]/mcp"},
	} {
		if code, resource := servedResource(mux, c.host); code != http.StatusOK || resource != c.want {
			t.Errorf("Host %s: %d, resource %q; want the document of %s", c.host, code, resource, c.want)
		}
	}
}

// TestMountPicksAResourceWhoseURLNamesItsDefaultPort: the mirror of
// TestMountPicksTheHostWithItsDefaultPortNamed. A resource written with its
// scheme's default port (https://b.example:443/mcp, the same origin as
// https://b.example/mcp, RFC 3986 §6.2.3) must be served its document for
// a request whose Host leaves the port out, as browsers and most clients
// send it; it got the first resource mounted (a.example's) instead. And a
// second Mount of that same metadata URL written without the port must
// panic as a second registration of one resource's URL does.
func TestMountPicksAResourceWhoseURLNamesItsDefaultPort(t *testing.T) {
	auths := []*Auth{mountAuth(t, "https://a.example/mcp"), mountAuth(t, "https://b.example:443/mcp"), mountAuth(t, "http://c.example:80/mcp")}
	mux := http.NewServeMux()
	for _, a := range auths {
		a.Mount(mux)
	}
	for _, c := range []struct{ host, want string }{
		{"b.example", "https://b.example:443/mcp"},
		{"b.example:443", "https://b.example:443/mcp"},
		{"c.example", "http://c.example:80/mcp"},
		{"b.example:8443", "https://a.example/mcp"},
	} {
		if code, resource := servedResource(mux, c.host); code != http.StatusOK || resource != c.want {
			t.Errorf("Host %s: %d, resource %q; want the document of %s", c.host, code, resource, c.want)
		}
	}
	panicked := func() (p bool) {
		defer func() { p = recover() != nil }()
		mountAuth(t, "https://b.example/mcp").Mount(mux)
		return false
	}()
	if !panicked {
		t.Errorf("a second Mount of https://b.example/mcp, the metadata URL https://b.example:443/mcp's Auth serves, did not panic")
	}
}

// servedResource GETs the /mcp resource's metadata path from mux with Host
// host and returns the status and the document's resource.
func servedResource(mux *http.ServeMux, host string) (int, string) {
	req := httptest.NewRequest(http.MethodGet, wellKnownPRM+"/mcp", nil)
	req.Host = host
	rec := httptest.NewRecorder()
	mux.ServeHTTP(rec, req)
	var doc struct {
		Resource string `json:"resource"`
	}
	_ = json.Unmarshal(rec.Body.Bytes(), &doc)
	return rec.Code, doc.Resource
}
