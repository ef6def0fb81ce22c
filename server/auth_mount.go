package server

import (
	"fmt"
	"net/http"
	"net/url"
	"sync"
)

// Mount registers MetadataHandler on mux at MetadataPaths. Several
// protected endpoints can share one mux (say /public/mcp and /admin/mcp):
// each serves its document at its own path-inserted URL, the one its
// challenges name. The root well-known path is the root resource's own
// metadata URL (a Resource such as https://mcp.example.com/), so it serves
// that resource's document whatever the order of the Mounts; without a
// root resource it serves the first resource mounted. A handler of the
// caller's own already registered at the root path is left alone (unless
// this is the root resource, whose Mount then panics as mux.Handle does).
func (a *Auth) Mount(mux *http.ServeMux) {
	h := a.MetadataHandler()
	for _, p := range a.paths {
		if p == wellKnownPRM {
			a.mountRoot(mux, h)
			continue
		}
		mux.Handle(p, h)
	}
}

// mountRoot registers h at the root well-known path, through one
// rootMetadata per mux that a later root resource can take over.
func (a *Auth) mountRoot(mux *http.ServeMux, h http.Handler) {
	isRootResource := len(a.paths) == 1
	existing, pattern := mux.Handler(&http.Request{Method: http.MethodGet, URL: &url.URL{Path: wellKnownPRM}})
	if pattern != wellKnownPRM {
		mux.Handle(wellKnownPRM, &rootMetadata{handler: h, rootResource: isRootResource})
		return
	}
	shared, ours := existing.(*rootMetadata)
	switch {
	case ours:
		shared.offer(h, isRootResource, a.opts.Resource)
	case isRootResource:
		mux.Handle(wellKnownPRM, h) // panics: the caller's own handler is there
	}
}

// rootMetadata serves the root well-known path of one mux: the document of
// the root resource once one is mounted, until then the first path
// resource's.
type rootMetadata struct {
	mu           sync.RWMutex
	handler      http.Handler
	rootResource bool // handler is the root resource's: nothing replaces it
}

// offer hands h, the document of resource, to the root path: a root
// resource takes it over from a path resource; a second root resource on
// one mux panics as a second registration of one pattern does.
func (m *rootMetadata) offer(h http.Handler, isRootResource bool, resource string) {
	if !isRootResource {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.rootResource {
		panic(fmt.Sprintf("server: Mount of %s: %s already serves another root resource's metadata", resource, wellKnownPRM))
	}
	m.handler, m.rootResource = h, true
}

func (m *rootMetadata) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	m.mu.RLock()
	h := m.handler
	m.mu.RUnlock()
	h.ServeHTTP(w, r)
}
