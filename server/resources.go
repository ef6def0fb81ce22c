package server

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/mcpgen/mcpgen/generated/mcp"
)

// ResourceInfo describes a fixed resource.
type ResourceInfo struct {
	URI, Name, Title, Description, MIMEType string
	Icons                                   []mcp.Icon
	Annotations                             *mcp.Annotations
	// Meta is the resource definition's _meta.
	Meta map[string]any
}

// Resource is a resource ready to register, made by NewResource.
type Resource struct{ r *resourceImpl }

type resourceImpl struct {
	uri  string
	def  []byte
	read func(ctx context.Context, uri string) (any, error)
	err  error
}

// ResourceTemplateInfo describes a resource template (RFC 6570).
type ResourceTemplateInfo struct {
	URITemplate, Name, Title, Description, MIMEType string
	Icons                                           []mcp.Icon
	Annotations                                     *mcp.Annotations
	// Meta is the template definition's _meta.
	Meta map[string]any
}

// ResourceTemplate is a template ready to register.
type ResourceTemplate struct{ t *templateImpl }

type templateImpl struct {
	tmpl     string
	def      []byte
	matcher  *uriMatcher
	read     func(ctx context.Context, uri string, vars map[string]string) (any, error)
	complete func(ctx context.Context, arg, value string, context map[string]string) ([]string, error)
	err      error
}

type resourceWire struct {
	URI         string           `json:"uri,omitzero"`
	URITemplate string           `json:"uriTemplate,omitzero"`
	Name        string           `json:"name"`
	Title       string           `json:"title,omitzero"`
	Description string           `json:"description,omitzero"`
	MIMEType    string           `json:"mimeType,omitzero"`
	Icons       []mcp.Icon       `json:"icons,omitzero"`
	Annotations *mcp.Annotations `json:"annotations,omitzero"`
	Meta        map[string]any   `json:"_meta,omitzero"`
}

// NewResource binds a function that reads one resource. Out may be string
// (text), []byte (blob), a struct (JSON text) or *mcp.ReadResourceResult.
// The result carries the server's cache policy unless it sets its own
// (or SetCachePolicy is called).
func NewResource[Out any](info ResourceInfo, fn func(ctx context.Context) (Out, error)) Resource {
	r := &resourceImpl{uri: info.URI}
	fail := func(err error) Resource {
		r.err = fmt.Errorf("resource %q: %w", info.URI, err)
		return Resource{r}
	}
	if info.URI == "" || info.Name == "" {
		return fail(errors.New("a resource needs a URI and a name"))
	}
	if fn == nil {
		return fail(errors.New("nil function"))
	}
	var err error
	if r.def, err = json.Marshal(resourceWire{URI: info.URI, Name: info.Name, Title: info.Title, Description: info.Description,
		MIMEType: info.MIMEType, Icons: info.Icons, Annotations: info.Annotations, Meta: info.Meta}); err != nil {
		return fail(err)
	}
	r.read = func(ctx context.Context, uri string) (any, error) {
		out, err := fn(ctx)
		if err != nil {
			return nil, err
		}
		return resourceOutput(uri, info.MIMEType, out)
	}
	return Resource{r}
}

// NewResourceTemplate binds a function reading the resources that match a
// URI template; the template's variables fill the string fields of Vars by
// their json names (Vars may also be map[string]string). When Vars
// implements Completer, the template's arguments complete through it.
func NewResourceTemplate[Vars, Out any](info ResourceTemplateInfo, fn func(ctx context.Context, vars Vars) (Out, error)) ResourceTemplate {
	t := &templateImpl{tmpl: info.URITemplate}
	fail := func(err error) ResourceTemplate {
		t.err = fmt.Errorf("resource template %q: %w", info.URITemplate, err)
		return ResourceTemplate{t}
	}
	if info.URITemplate == "" || info.Name == "" {
		return fail(errors.New("a resource template needs a URI template and a name"))
	}
	if fn == nil {
		return fail(errors.New("nil function"))
	}
	var err error
	if t.matcher, err = compileURITemplate(info.URITemplate); err != nil {
		return fail(err)
	}
	if t.def, err = json.Marshal(resourceWire{URITemplate: info.URITemplate, Name: info.Name, Title: info.Title,
		Description: info.Description, MIMEType: info.MIMEType, Icons: info.Icons, Annotations: info.Annotations, Meta: info.Meta}); err != nil {
		return fail(err)
	}
	if c := completerOf[Vars](); c != nil {
		t.complete = c.Complete
	}
	t.read = func(ctx context.Context, uri string, vars map[string]string) (any, error) {
		var v Vars
		b, err := json.Marshal(vars)
		if err != nil {
			return nil, err
		}
		if err := json.Unmarshal(b, &v); err != nil {
			return nil, ResourceNotFound(uri)
		}
		out, err := fn(ctx, v)
		if err != nil {
			return nil, err
		}
		return resourceOutput(uri, info.MIMEType, out)
	}
	return ResourceTemplate{t}
}

// resourceOutput converts a read function's Out value.
func resourceOutput(uri, mime string, out any) (any, error) {
	var c mcp.ResourceContentsUnion
	switch o := out.(type) {
	case *mcp.ReadResourceResult:
		if o == nil {
			return nil, ResourceNotFound(uri)
		}
		return o, nil
	case string:
		c = &mcp.TextResourceContents{URI: uri, MIMEType: or(mime, "text/plain"), Text: o}
	case []byte:
		c = &mcp.BlobResourceContents{URI: uri, MIMEType: or(mime, "application/octet-stream"), Blob: base64.StdEncoding.EncodeToString(o)}
	default:
		b, err := json.Marshal(out)
		if err != nil {
			return nil, err
		}
		c = &mcp.TextResourceContents{URI: uri, MIMEType: or(mime, "application/json"), Text: string(b)}
	}
	return &mcp.ReadResourceResult{Contents: []mcp.ResourceContentsUnion{c}}, nil
}

func or(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// resourceRegistry holds fixed resources and templates as a snapshot.
type resourceRegistry struct {
	s   *Server
	mu  sync.Mutex
	set atomic.Pointer[resourceSet]
	on  atomic.Bool
}

type resourceSet struct {
	byURI     map[string]*resourceImpl
	list      []*resourceImpl
	templates []*templateImpl
	allRes    []byte
	allTmpl   []byte
}

func (g *resourceRegistry) init(s *Server) {
	g.s = s
	g.set.Store(&resourceSet{byURI: map[string]*resourceImpl{}, allRes: []byte("[]"), allTmpl: []byte("[]")})
}

func (g *resourceRegistry) offered() bool { return g.on.Load() }

func (g *resourceRegistry) hasCompleter() bool {
	for _, t := range g.set.Load().templates {
		if t.complete != nil {
			return true
		}
	}
	return false
}

func (g *resourceRegistry) add(res []Resource, tmpls []ResourceTemplate) error {
	var errs []error
	seen := map[string]bool{}
	for i, r := range res {
		switch {
		case r.r == nil:
			errs = append(errs, fmt.Errorf("server: resource %d is the zero Resource (use NewResource)", i))
		case r.r.err != nil:
			errs = append(errs, fmt.Errorf("server: %w", r.r.err))
		case seen[r.r.uri]:
			errs = append(errs, fmt.Errorf("server: duplicate resource URI %q", r.r.uri))
		}
		if r.r != nil {
			seen[r.r.uri] = true
		}
	}
	seenT := map[string]bool{}
	for i, t := range tmpls {
		switch {
		case t.t == nil:
			errs = append(errs, fmt.Errorf("server: resource template %d is the zero ResourceTemplate (use NewResourceTemplate)", i))
		case t.t.err != nil:
			errs = append(errs, fmt.Errorf("server: %w", t.t.err))
		case seenT[t.t.tmpl]:
			errs = append(errs, fmt.Errorf("server: duplicate resource template %q", t.t.tmpl))
		}
		if t.t != nil {
			seenT[t.t.tmpl] = true
		}
	}
	if len(errs) > 0 {
		return errors.Join(errs...)
	}
	g.mu.Lock()
	old := g.set.Load()
	list, templates := slices.Clone(old.list), slices.Clone(old.templates)
	for _, r := range res {
		if i := slices.IndexFunc(list, func(x *resourceImpl) bool { return x.uri == r.r.uri }); i >= 0 {
			list[i] = r.r
		} else {
			list = append(list, r.r)
		}
	}
	for _, t := range tmpls {
		if i := slices.IndexFunc(templates, func(x *templateImpl) bool { return x.tmpl == t.t.tmpl }); i >= 0 {
			templates[i] = t.t
		} else {
			templates = append(templates, t.t)
		}
	}
	g.set.Store(newResourceSet(list, templates))
	g.on.Store(true)
	g.mu.Unlock()
	g.s.subs.publish(changeResources, "")
	return nil
}

func (g *resourceRegistry) remove(uris []string) {
	g.mu.Lock()
	old := g.set.Load()
	list := slices.DeleteFunc(slices.Clone(old.list), func(r *resourceImpl) bool { return slices.Contains(uris, r.uri) })
	templates := slices.DeleteFunc(slices.Clone(old.templates), func(t *templateImpl) bool { return slices.Contains(uris, t.tmpl) })
	changed := len(list) != len(old.list) || len(templates) != len(old.templates)
	if changed {
		g.set.Store(newResourceSet(list, templates))
	}
	g.mu.Unlock()
	if changed {
		g.s.subs.publish(changeResources, "")
	}
}

func newResourceSet(list []*resourceImpl, templates []*templateImpl) *resourceSet {
	set := &resourceSet{byURI: make(map[string]*resourceImpl, len(list)), list: list, templates: templates}
	set.allRes = joinArray(set.resDefs())
	set.allTmpl = joinArray(set.tmplDefs())
	for _, r := range list {
		set.byURI[r.uri] = r
	}
	return set
}

func (set *resourceSet) resDefs() [][]byte {
	defs := make([][]byte, len(set.list))
	for i, r := range set.list {
		defs[i] = r.def
	}
	return defs
}

func (set *resourceSet) tmplDefs() [][]byte {
	defs := make([][]byte, len(set.templates))
	for i, t := range set.templates {
		defs[i] = t.def
	}
	return defs
}

// AddResources adds (or replaces, by URI) resources at run time and
// notifies listeners (notifications/resources/list_changed).
func (s *Server) AddResources(resources ...Resource) error { return s.resources.add(resources, nil) }

// AddResourceTemplates adds (or replaces) resource templates at run time
// and notifies listeners.
func (s *Server) AddResourceTemplates(templates ...ResourceTemplate) error {
	return s.resources.add(nil, templates)
}

// RemoveResources removes resources by URI and templates by URI template,
// and notifies listeners.
func (s *Server) RemoveResources(uris ...string) { s.resources.remove(uris) }

// ResourceUpdated notifies listeners subscribed to uri
// (notifications/resources/updated on subscriptions/listen streams whose
// resourceSubscriptions name it).
func (s *Server) ResourceUpdated(uri string) { s.subs.publish(changeResourceUpdated, uri) }

func (g *resourceRegistry) listResources(ctx context.Context, r *request, p *requestParams, _ json.RawMessage) (any, error) {
	set := g.set.Load()
	page, next, err := g.s.listPage(p, set.resDefs, set.allRes)
	if err != nil {
		return nil, err
	}
	return rawResult(g.s.appendList(make([]byte, 0, len(page)+160), r, "resources", page, next)), nil
}

func (g *resourceRegistry) listTemplates(ctx context.Context, r *request, p *requestParams, _ json.RawMessage) (any, error) {
	set := g.set.Load()
	page, next, err := g.s.listPage(p, set.tmplDefs, set.allTmpl)
	if err != nil {
		return nil, err
	}
	return rawResult(g.s.appendList(make([]byte, 0, len(page)+160), r, "resourceTemplates", page, next)), nil
}

func (g *resourceRegistry) read(ctx context.Context, r *request, p *requestParams, _ json.RawMessage) (any, error) {
	if !p.hasURI {
		return nil, invalidParams("params.uri: missing required member or not a string")
	}
	return g.readURI(ctx, p.uri)
}

func (g *resourceRegistry) readURI(ctx context.Context, uri string) (any, error) {
	set := g.set.Load()
	if res := set.byURI[uri]; res != nil {
		return res.read(ctx, uri)
	}
	for _, t := range set.templates {
		if vars, ok := t.matcher.match(uri); ok {
			return t.read(ctx, uri, vars)
		}
	}
	return nil, ResourceNotFound(uri)
}

// ListResources implements mcp.ResourcesHandler over the registry.
func (g *resourceRegistry) ListResources(ctx context.Context, params *mcp.PaginatedRequestParams) (*mcp.ListResourcesResult, error) {
	set := g.set.Load()
	all := make([]mcp.Resource, len(set.list))
	for i, r := range set.list {
		if err := json.Unmarshal(r.def, &all[i]); err != nil {
			return nil, err
		}
	}
	page, next, err := Paginate(all, params.Cursor, g.s.pageSize)
	if err != nil {
		return nil, err
	}
	return &mcp.ListResourcesResult{Resources: page, NextCursor: next}, nil
}

// ListResourceTemplates implements mcp.ResourcesHandler over the registry.
func (g *resourceRegistry) ListResourceTemplates(ctx context.Context, params *mcp.PaginatedRequestParams) (*mcp.ListResourceTemplatesResult, error) {
	set := g.set.Load()
	all := make([]mcp.ResourceTemplate, len(set.templates))
	for i, t := range set.templates {
		if err := json.Unmarshal(t.def, &all[i]); err != nil {
			return nil, err
		}
	}
	page, next, err := Paginate(all, params.Cursor, g.s.pageSize)
	if err != nil {
		return nil, err
	}
	return &mcp.ListResourceTemplatesResult{ResourceTemplates: page, NextCursor: next}, nil
}

// ReadResource implements mcp.ResourcesHandler over the registry.
func (g *resourceRegistry) ReadResource(ctx context.Context, params *mcp.ReadResourceRequestParams) (mcp.ReadResourceOutcome, error) {
	out, err := g.readURI(ctx, params.URI)
	if err != nil {
		return nil, err
	}
	return out.(*mcp.ReadResourceResult), nil
}

var _ mcp.ResourcesHandler = (*resourceRegistry)(nil)
