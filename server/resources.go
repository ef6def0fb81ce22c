package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"reflect"

	"github.com/mcpgen/mcpgen/generated/mcp"
	"github.com/mcpgen/mcpgen/internal/argcheck"
	"github.com/mcpgen/mcpgen/internal/jsonenc"
)

// ResourceInfo describes a fixed resource.
type ResourceInfo struct {
	URI, Name, Title, Description, MIMEType string
	Icons                                   []mcp.Icon
	Annotations                             *mcp.Annotations
	// Meta is the resource definition's _meta.
	Meta map[string]any
	// Scopes are the OAuth scopes a caller's token needs to read the
	// resource (see ToolInfo.Scopes).
	Scopes []string
}

// Resource is a resource ready to register, made by NewResource.
type Resource struct{ r *resourceImpl }

type resourceImpl struct {
	entry // key: the URI; def: the encoded Resource definition
	read  func(ctx context.Context, uri string) (any, error)
}

// ResourceTemplateInfo describes a resource template (RFC 6570).
type ResourceTemplateInfo struct {
	URITemplate, Name, Title, Description, MIMEType string
	Icons                                           []mcp.Icon
	Annotations                                     *mcp.Annotations
	// Meta is the template definition's _meta.
	Meta map[string]any
	// Scopes are the OAuth scopes a caller's token needs to read the
	// template's resources (see ToolInfo.Scopes).
	Scopes []string
	// Complete, when set, completes the template's variables (see
	// PromptInfo.Complete); otherwise a Vars implementing Completer does.
	Complete func(ctx context.Context, argument, value string, context map[string]string) ([]string, error)
}

// ResourceTemplate is a template ready to register.
type ResourceTemplate struct{ t *templateImpl }

type templateImpl struct {
	entry    // key: the URI template; def: the encoded ResourceTemplate definition
	matcher  *uriMatcher
	read     func(ctx context.Context, uri string, vars map[string]string) (any, error)
	complete func(ctx context.Context, arg, value string, context map[string]string) ([]string, error)
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
// An error from fn is answered as [readError] says: ResourceNotFound for
// one that wraps fs.ErrNotExist, the error itself for a *jsonrpc.Error (and
// Ask's input requests), else -32603 with its text.
// The result carries the server's cache policy unless it sets its own
// (or SetCachePolicy is called).
func NewResource[Out any](info ResourceInfo, fn func(ctx context.Context) (Out, error)) Resource {
	r := &resourceImpl{entry: newEntry("resource", info.URI, info.Scopes)}
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
			return nil, readError(uri, err)
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
	t := &templateImpl{entry: newEntry("resource template", info.URITemplate, info.Scopes)}
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
	if info.Complete != nil {
		t.complete = info.Complete
	} else if c := completerOf[Vars](); c != nil {
		t.complete = c.Complete
	}
	var fields map[string]bool // exact JSON names of Vars; nil for a map
	if vt := reflect.TypeFor[Vars](); vt.Kind() == reflect.Struct {
		fields = map[string]bool{}
		for _, name := range argcheck.FieldNames(vt) {
			fields[name] = true
		}
	}
	t.read = func(ctx context.Context, uri string, vars map[string]string) (any, error) {
		var v Vars
		if fields != nil {
			vars = exactArguments(vars, fields)
		}
		b, err := json.Marshal(vars)
		if err != nil {
			return nil, err
		}
		if err := json.Unmarshal(b, &v); err != nil {
			return nil, ResourceNotFound(uri)
		}
		out, err := fn(ctx, v)
		if err != nil {
			return nil, readError(uri, err)
		}
		return resourceOutput(uri, info.MIMEType, out)
	}
	return ResourceTemplate{t}
}

// readError maps a read function's error to the answer: an error that is
// (or wraps) fs.ErrNotExist — os.Open's, or fmt.Errorf("…: %w",
// fs.ErrNotExist) — is ResourceNotFound(uri), -32602 with data {"uri": …}
// as server/resources.mdx specifies; JSON-RPC errors and input requests
// pass as they are; any other plain error becomes -32603 Internal error
// with its text (toRPCError).
func readError(uri string, err error) error {
	if errors.Is(err, fs.ErrNotExist) && !isProtocolError(err) {
		return ResourceNotFound(uri)
	}
	return err
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
		c = &mcp.BlobResourceContents{URI: uri, MIMEType: or(mime, "application/octet-stream"), Blob: o}
	default:
		b, err := jsonenc.Marshal(out)
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

// resourceRegistry holds fixed resources and templates, one snapshot for
// both.
type resourceRegistry struct{ registry[resourceSets] }

type resourceSets struct {
	res  *namedSet[*resourceImpl]
	tmpl *namedSet[*templateImpl]
}

var (
	resourceKind = itemKind{noun: "resource", typ: "Resource", key: "resource URI"}
	templateKind = itemKind{noun: "resource template", typ: "ResourceTemplate", key: "resource template"}
)

func (g *resourceRegistry) init(s *Server) {
	g.registry.init(s, changeResources, &resourceSets{res: newNamedSet[*resourceImpl](nil), tmpl: newNamedSet[*templateImpl](nil)})
}

func (g *resourceRegistry) hasCompleter() bool {
	for _, t := range g.set.Load().tmpl.list {
		if t.complete != nil {
			return true
		}
	}
	return false
}

// add registers resources and templates, replacing ones of the same URI
// or URI template, as one change; nothing is registered when any is
// invalid.
func (g *resourceRegistry) add(res []Resource, tmpls []ResourceTemplate) error {
	resItems := impls(res, func(r Resource) *resourceImpl { return r.r })
	tmplItems := impls(tmpls, func(t ResourceTemplate) *templateImpl { return t.t })
	if errs := append(checkItems(resourceKind, resItems), checkItems(templateKind, tmplItems)...); len(errs) > 0 {
		return errors.Join(errs...)
	}
	g.update(true, func(old *resourceSets) (*resourceSets, bool) {
		return &resourceSets{res: old.res.with(resItems), tmpl: old.tmpl.with(tmplItems)}, true
	})
	return nil
}

// remove unregisters resources by URI and templates by URI template.
func (g *resourceRegistry) remove(uris []string) {
	g.update(false, func(old *resourceSets) (*resourceSets, bool) {
		res, resGone := old.res.without(uris)
		tmpl, tmplGone := old.tmpl.without(uris)
		return &resourceSets{res: res, tmpl: tmpl}, resGone || tmplGone
	})
}

// AddResources adds (or replaces, by URI) resources at run time and
// notifies listeners (notifications/resources/list_changed).
func (s *Server) AddResources(resources ...Resource) error {
	return s.announce(ChangeResources, s.resources.add(resources, nil))
}

// AddResourceTemplates adds (or replaces) resource templates at run time
// and notifies listeners.
func (s *Server) AddResourceTemplates(templates ...ResourceTemplate) error {
	return s.announce(ChangeResources, s.resources.add(nil, templates))
}

// RemoveResources removes resources by URI and templates by URI template,
// and notifies listeners.
func (s *Server) RemoveResources(uris ...string) {
	s.resources.remove(uris)
	s.broadcast(ChangeResources, "", "")
}

// ResourceUpdated notifies listeners subscribed to uri
// (notifications/resources/updated on subscriptions/listen streams whose
// resourceSubscriptions name it).
func (s *Server) ResourceUpdated(uri string) {
	s.subs.publish(changeResourceUpdated, uri)
	s.broadcast(ChangeResourceUpdated, uri, "")
}

func (g *resourceRegistry) listResources(ctx context.Context, r *request, p *requestParams, _ json.RawMessage) (any, error) {
	return g.set.Load().res.page(g.s, r, p, "resources")
}

func (g *resourceRegistry) listTemplates(ctx context.Context, r *request, p *requestParams, _ json.RawMessage) (any, error) {
	return g.set.Load().tmpl.page(g.s, r, p, "resourceTemplates")
}

func (g *resourceRegistry) read(ctx context.Context, r *request, p *requestParams, _ json.RawMessage) (any, error) {
	if !p.hasURI {
		return nil, invalidParams("params.uri: missing required member or not a string")
	}
	return g.readURI(ctx, p.uri)
}

func (g *resourceRegistry) readURI(ctx context.Context, uri string) (any, error) {
	set := g.set.Load()
	if res := set.res.lookup(uri); res != nil && !g.s.hidden(ctx, &res.entry) {
		if err := checkScopes(ctx, res.scopes); err != nil {
			return nil, err
		}
		return res.read(ctx, uri)
	}
	for _, t := range set.tmpl.list {
		if g.s.hidden(ctx, &t.entry) {
			continue
		}
		if vars, ok := t.matcher.match(uri); ok {
			if err := checkScopes(ctx, t.scopes); err != nil {
				return nil, err
			}
			return t.read(ctx, uri, vars)
		}
	}
	return nil, ResourceNotFound(uri)
}

// guard resolves uri as readURI does for the current request: the scopes
// of the resource, or of the first template that matches, that Options.Visible
// leaves visible (served); hidden when only hidden ones match, so that
// reading it is "not found". A URI nothing serves has neither.
func (g *resourceRegistry) guard(ctx context.Context, uri string) (scopes []string, served, hidden bool) {
	return g.resolve(uri, func(e *entry) bool { return g.s.hidden(ctx, e) })
}

// resolve is guard with hide in place of Options.Visible: the resource at
// uri, else the first template matching it, that hide does not hide.
func (g *resourceRegistry) resolve(uri string, hide func(*entry) bool) (scopes []string, served, hidden bool) {
	set := g.set.Load()
	if res := set.res.lookup(uri); res != nil {
		if !hide(&res.entry) {
			return res.scopes, true, false
		}
		hidden = true
	}
	for _, t := range set.tmpl.list {
		if _, ok := t.matcher.match(uri); !ok {
			continue
		}
		if !hide(&t.entry) {
			return t.scopes, true, false
		}
		hidden = true
	}
	return nil, false, hidden
}

// readable reports whether the current request may read uri: what a
// subscription to uri may deliver updates of. A URI nothing serves (yet)
// is readable: nothing guards it.
func (g *resourceRegistry) readable(ctx context.Context, uri string) bool {
	scopes, served, hidden := g.guard(ctx, uri)
	return !hidden && (!served || allowed(ctx, scopes))
}

// checkSubscribe is the error of a legacy resources/subscribe to uri the
// caller may not read: not found when hidden, else 403 insufficient_scope.
func (g *resourceRegistry) checkSubscribe(ctx context.Context, uri string) error {
	scopes, served, hidden := g.guard(ctx, uri)
	if hidden {
		return ResourceNotFound(uri)
	}
	if served {
		return checkScopes(ctx, scopes)
	}
	return nil
}

// ListResources implements mcp.ResourcesHandler over the registry.
func (g *resourceRegistry) ListResources(ctx context.Context, params *mcp.PaginatedRequestParams) (*mcp.ListResourcesResult, error) {
	page, next, err := decodePage[mcp.Resource](g.set.Load().res.visible(ctx, g.s), "resources", params.Cursor, g.s.pageSize)
	if err != nil {
		return nil, err
	}
	return &mcp.ListResourcesResult{Resources: page, NextCursor: next}, nil
}

// ListResourceTemplates implements mcp.ResourcesHandler over the registry.
func (g *resourceRegistry) ListResourceTemplates(ctx context.Context, params *mcp.PaginatedRequestParams) (*mcp.ListResourceTemplatesResult, error) {
	page, next, err := decodePage[mcp.ResourceTemplate](g.set.Load().tmpl.visible(ctx, g.s), "resourceTemplates", params.Cursor, g.s.pageSize)
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
