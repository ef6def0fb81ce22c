package server

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"
)

// Mount registers MetadataHandler on mux at MetadataPaths. Several
// protected endpoints can share one mux (say /public/mcp and /admin/mcp):
// each serves its document at its own path-inserted URL, the one its
// challenges name. Resources of one path on different hosts (say
// https://a.example/mcp and https://b.example/mcp) share that path: each
// request gets the document of the resource whose host is the request's
// Host (the first one mounted when none is). The root well-known path is
// the root resource's own metadata URL (a Resource such as
// https://mcp.example.com/), so it serves that resource's document
// whatever the order of the Mounts; without a root resource it serves the
// first resource mounted (of the request's host, when there is one). A
// handler of the caller's own already registered at the root path is left
// alone. Mount panics, as mux.Handle does, when the resource's own
// metadata URL is taken: by a handler of the caller's, or by another
// resource of the same host and path.
func (a *Auth) Mount(mux *http.ServeMux) {
	h := a.MetadataHandler()
	port := defaultPort(a.metadataURL)
	host := strings.TrimSuffix(a.host, ":"+port) // https://a.example:443 is https://a.example
	for i, p := range a.paths {
		a.mountAt(mux, p, metadataEntry{host: host, defaultPort: port, handler: h, own: i == 0})
	}
}

// mountAt registers e at the well-known path p, through one
// sharedMetadata per mux and path that later Mounts add to.
func (a *Auth) mountAt(mux *http.ServeMux, p string, e metadataEntry) {
	existing, pattern := mux.Handler(&http.Request{Method: http.MethodGet, URL: &url.URL{Path: p}})
	if pattern != p {
		mux.Handle(p, &sharedMetadata{entries: []metadataEntry{e}})
		return
	}
	shared, ours := existing.(*sharedMetadata)
	switch {
	case ours:
		shared.add(e, a.opts.Resource, p)
	case e.own:
		mux.Handle(p, e.handler) // panics: the caller's own handler is there
	}
}

// metadataEntry is one resource's document at one well-known path.
type metadataEntry struct {
	host        string // the resource's host, as in its URL less its scheme's default port
	defaultPort string // its scheme's port ("443", "80"), which a request's Host may name
	handler     http.Handler
	own         bool // the path is the resource's own metadata URL, not the root fallback
}

// servesHost reports whether a request with Host host is for e's resource:
// the same host, ASCII case folded, a port of the resource's scheme's
// default named or not (a.example:443 is https://a.example).
func (e metadataEntry) servesHost(host string) bool {
	if strings.EqualFold(e.host, host) {
		return true
	}
	name, port, ok := strings.Cut(host, ":")
	if strings.HasPrefix(host, "[") { // an IPv6 literal: [::1]:443
		i := strings.LastIndex(host, "]:")
		name, port, ok = host[:i+1], host[i+2:], i >= 0
	}
	return ok && port == e.defaultPort && strings.EqualFold(e.host, name)
}

// defaultPort is the port the scheme of the absolute URL u names by
// default.
func defaultPort(u string) string {
	if strings.HasPrefix(u, "https://") {
		return "443"
	}
	return "80"
}

// sharedMetadata serves one well-known path of one mux for every resource
// mounted there: the document of the request's host's resource, its own
// metadata URL's before a fallback's, else the first one mounted.
type sharedMetadata struct {
	mu      sync.RWMutex
	entries []metadataEntry
}

// add mounts e beside the entries already there; a second resource whose
// own metadata URL this is, on the same host, panics as a second
// registration of one pattern does.
func (m *sharedMetadata) add(e metadataEntry, resource, path string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, old := range m.entries {
		if e.own && old.own && strings.EqualFold(old.host, e.host) {
			panic(fmt.Sprintf("server: Mount of %s: %s on host %s already serves another resource's metadata", resource, path, e.host))
		}
	}
	m.entries = append(m.entries, e)
}

// pick is the entry serving a request for host.
func (m *sharedMetadata) pick(host string) http.Handler {
	m.mu.RLock()
	defer m.mu.RUnlock()
	for _, sameHost := range []bool{true, false} {
		for _, own := range []bool{true, false} {
			for _, e := range m.entries {
				if e.own == own && (!sameHost || e.servesHost(host)) {
					return e.handler
				}
			}
		}
	}
	return http.NotFoundHandler()
}

func (m *sharedMetadata) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	m.pick(r.Host).ServeHTTP(w, r)
}
