package skills

import (
	"context"
	"errors"
	"io/fs"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/mcpgen/mcpgen/generated/mcp"
	"github.com/mcpgen/mcpgen/server"
)

// ExtensionID identifies the Skills extension.
const ExtensionID = "io.modelcontextprotocol/skills"

// Method names of the extension.
const (
	MethodList          = "skills/list"
	MethodGet           = "skills/get"
	MethodDirectoryRead = "resources/directory/read"
)

// Options configure the served skills.
type Options struct {
	// DirectoryRead declares directoryRead and serves
	// resources/directory/read for every directory of the skills.
	DirectoryRead bool
	// PageSize is the number of entries per page of skills/list and
	// resources/directory/read (0: all on one page). An entry is never
	// split across pages. A cursor names its list (one of another list is
	// -32602) and the entries around the page's end, as the server's own
	// lists do (server.PaginateKeyed), so a Reload between two pages
	// skips no entry that stayed.
	PageSize int
}

// Skills serves a set of skills. It is safe for concurrent use; Reload
// swaps the set atomically.
type Skills struct {
	opts Options
	cur  atomic.Pointer[catalog]

	mu sync.Mutex // serializes Register, Bind and Reload
	// srvs are the servers bound, each serving the current set's files.
	srvs []*server.Server
	// registered is the set whose files Register last put into server
	// options: a server made from them and bound later follows the
	// current set from it.
	registered *catalog
	// pending is the set a Reload loaded after Register and before any
	// Bind: a server made from the options serves the registered set
	// until Bind makes it follow this one.
	pending *catalog

	reloadPause func() // tests: run inside Reload between its steps
}

// New reads and checks the skills of fsys (an embed.FS, os.DirFS, …): every
// directory holding a SKILL.md is a skill whose path in fsys is its
// <skill-path> (skill://<skill-path>/SKILL.md), so the directory must be
// named after the skill. Every problem is reported at once, naming the
// file: frontmatter that is not YAML or lacks name or description, a name
// that breaks the Agent Skills naming rules or differs from its directory,
// a file name that is not UTF-8, a skill over 512 files or 16 MiB (a file
// is read no further than the limit), reserved metadata keys.
func New(fsys fs.FS, opts Options) (*Skills, error) {
	if opts.PageSize < 0 {
		return nil, errors.New("skills: Options.PageSize must not be negative")
	}
	c, err := load(fsys)
	if err != nil {
		return nil, err
	}
	k := &Skills{opts: opts}
	k.cur.Store(c)
	return k, nil
}

// Register adds the skills to server options: every file as a resource
// and the extension. Call Bind with the server New returns so Reload can
// update it.
func (k *Skills) Register(opts *server.Options) {
	k.mu.Lock()
	c := k.cur.Load()
	k.registered = c
	k.mu.Unlock()
	opts.Resources = append(opts.Resources, k.resources(c)...)
	opts.Extensions = append(opts.Extensions, k.Extension())
}

// Bind attaches a server the skills were registered with; Reload then
// updates its resources. Every server bound is updated (several made from
// the options Register filled each serve the current set). A Reload
// between Register and Bind had no server to update: Bind makes the
// server's resources the files of the current set (as that Reload would
// have).
func (k *Skills) Bind(s *server.Server) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if s == nil || slices.Contains(k.srvs, s) {
		return
	}
	k.srvs = append(k.srvs, s)
	if p := k.pending; p != nil {
		k.pending = nil
		_ = k.follow([]*server.Server{s}, k.cur.Load(), p, true)
	} else if reg, cur := k.registered, k.cur.Load(); reg != nil && reg != cur {
		// A set's resources always have a URI, a name and a read
		// function, so AddResources cannot refuse them.
		_ = k.follow([]*server.Server{s}, reg, cur, false)
	}
}

// Reload replaces the served skills with those of fsys, checked as New
// checks them; on an error nothing changes. The bound server's resources
// follow (notifications/resources/list_changed), and files whose content
// changed get notifications/resources/updated. The new files are
// registered with the server before the set is swapped and the dropped
// ones unregistered after, and a request whose set was swapped while it
// ran reads again from the new one (snapshot.go), so a skill that
// Options.Visible hides is never listed or served, even to a request
// running during the Reload. Before Bind there is no server to update: a
// Reload after Register is served from Bind on (until then the registered
// set is), Bind registering its files.
func (k *Skills) Reload(fsys fs.FS) error {
	c, err := load(fsys)
	if err != nil {
		return err
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	switch {
	case len(k.srvs) > 0:
	case k.registered != nil:
		// A server made from the options Register filled may already
		// answer with the registered files: the set it lists stays
		// theirs until Bind registers the new files.
		k.pending = c
		return nil
	default:
		k.cur.Store(c)
		return nil
	}
	return k.follow(k.srvs, k.cur.Load(), c, true)
}

// follow makes the resources of servers srvs change from the files of set
// old to those of set c, storing c as the current set (store) between
// the registration of its files and the removal of old's others.
func (k *Skills) follow(srvs []*server.Server, old, c *catalog, store bool) error {
	var gone, changed []string
	for uri, f := range old.files {
		switch nf := c.files[uri]; {
		case nf == nil:
			gone = append(gone, uri)
		case nf.digest != f.digest:
			changed = append(changed, uri)
		}
	}
	// The new files are resources before the catalog names them, so
	// Options.Visible judges every skill a reader can see (a file the
	// server does not serve would count as visible).
	for _, s := range srvs {
		if err := s.AddResources(k.resources(c)...); err != nil {
			return err
		}
	}
	if k.reloadPause != nil {
		k.reloadPause()
	}
	if store {
		k.cur.Store(c)
	}
	for _, s := range srvs {
		if len(gone) > 0 {
			s.RemoveResources(gone...)
		}
		for _, uri := range changed {
			s.ResourceUpdated(uri)
		}
	}
	return nil
}

// Resources returns a resource for every file of every skill
// (skill://<skill-path>/<file-path>): SKILL.md with mimeType text/markdown
// and its name and description from the frontmatter, the other files named
// by their file name with the mimeType of their extension. Reads are served
// from memory, the bytes the digests cover.
func (k *Skills) Resources() []server.Resource { return k.resources(k.cur.Load()) }

func (k *Skills) resources(c *catalog) []server.Resource {
	out := make([]server.Resource, 0, len(c.files))
	for _, sk := range c.skills {
		for _, f := range sk.files {
			if c.files[f.uri] != f { // a nested SKILL.md: its own skill registers it
				continue
			}
			uri := f.uri
			out = append(out, server.NewResource(server.ResourceInfo{
				URI: f.uri, Name: f.name, Description: f.description, MIMEType: f.mimeType,
			}, func(ctx context.Context) (*mcp.ReadResourceResult, error) { return k.read(uri) }))
		}
	}
	return out
}

// read answers resources/read of a skill file from the current set.
func (k *Skills) read(uri string) (*mcp.ReadResourceResult, error) {
	f := k.cur.Load().files[uri]
	if f == nil {
		return nil, server.ResourceNotFound(uri)
	}
	var c mcp.ResourceContentsUnion
	if isText(f.mimeType, f.content) {
		c = &mcp.TextResourceContents{URI: f.uri, MIMEType: f.mimeType, Text: string(f.content)}
	} else {
		c = &mcp.BlobResourceContents{URI: f.uri, MIMEType: f.mimeType, Blob: f.content}
	}
	return &mcp.ReadResourceResult{Contents: []mcp.ResourceContentsUnion{c}}, nil
}

// settings is the extension's capabilities.extensions entry.
type settings struct {
	DirectoryRead bool `json:"directoryRead,omitzero"`
}

// Extension returns the Skills extension: skills/list and skills/get
// (cacheable: ttlMs and cacheScope from the server's cache policy), and
// resources/directory/read when Options.DirectoryRead is set (cacheable
// too, like resources/list: the TypeScript SDK requires both fields on it
// at 2026-07-28). It requires
// the resources capability, which the skills' own resources provide.
func (k *Skills) Extension() server.Extension {
	e := server.Extension{
		ID:       ExtensionID,
		Settings: settings{DirectoryRead: k.opts.DirectoryRead},
		Requires: []string{"resources"},
		Legacy:   true,
		Methods: []server.ExtensionMethod{
			server.NewMethod(server.MethodInfo{Name: MethodList, Cacheable: true}, k.list),
			server.NewMethod(server.MethodInfo{Name: MethodGet, Cacheable: true}, k.get),
		},
	}
	if k.opts.DirectoryRead {
		e.Methods = append(e.Methods, server.NewMethod(server.MethodInfo{Name: MethodDirectoryRead, Cacheable: true}, k.readDirectory))
	}
	return e
}
