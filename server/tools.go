package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/mcpgen/mcpgen/argschema"
	"github.com/mcpgen/mcpgen/generated/mcp"
	"github.com/mcpgen/mcpgen/server/httpwire"
)

// ToolInfo is what a tool declares besides its function.
type ToolInfo struct {
	Name, Title, Description string
	Annotations              *mcp.ToolAnnotations
	Icons                    []mcp.Icon
	// InputSchema, when set, is used verbatim instead of the schema derived
	// from In (its root must be "type": "object"); arguments are validated
	// against it before they are decoded into In.
	InputSchema json.RawMessage
	// OutputSchema, when set, replaces the schema derived from Out.
	OutputSchema json.RawMessage
	// Meta is the tool definition's _meta.
	Meta map[string]any
}

// Tool is a tool ready to register, made by NewTool. The zero Tool is
// invalid; construction errors are reported by New and AddTools.
type Tool struct{ t *toolImpl }

// Name returns the tool's name.
func (t Tool) Name() string {
	if t.t == nil {
		return ""
	}
	return t.t.name
}

type toolImpl struct {
	name         string
	def          []byte // the encoded Tool definition
	paramHeaders []httpwire.ParamHeader
	run          func(ctx context.Context, args []byte) (any, error)
	err          error
}

// toolWire is the wire form of a tool definition; inputSchema and
// outputSchema are kept verbatim.
type toolWire struct {
	Name         string               `json:"name"`
	Title        string               `json:"title,omitzero"`
	Description  string               `json:"description,omitzero"`
	InputSchema  json.RawMessage      `json:"inputSchema"`
	OutputSchema json.RawMessage      `json:"outputSchema,omitzero"`
	Annotations  *mcp.ToolAnnotations `json:"annotations,omitzero"`
	Icons        []mcp.Icon           `json:"icons,omitzero"`
	Meta         map[string]any       `json:"_meta,omitzero"`
}

// ValidToolName checks a tool name against the specification's rules:
// 1 to 128 characters of A-Z, a-z, 0-9, '_', '-' and '.'.
func ValidToolName(name string) error {
	if name == "" || len(name) > 128 {
		return fmt.Errorf("tool name %q must be 1 to 128 characters long", name)
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-' || c == '.') {
			return fmt.Errorf("tool name %q contains %q; only A-Z, a-z, 0-9, '_', '-' and '.' are allowed", name, c)
		}
	}
	return nil
}

var rawMessageType = reflect.TypeFor[json.RawMessage]()

// NewTool binds a typed function as a tool. The inputSchema is derived from
// In (a struct, via argschema; json.RawMessage takes any object) and, when
// Out is a struct, the outputSchema from Out; both once, here. Arguments are
// validated against the inputSchema (defaults applied) before fn runs; a
// failure is a result with isError and a message naming the field and the
// rule (server/tools.mdx: input validation errors are tool execution
// errors). Out may be a struct (structuredContent plus a text rendering:
// its String method when it has one, else its JSON), a string,
// []mcp.ContentBlock or *mcp.CallToolResult. An error
// from fn becomes a result with isError and the error's text, except
// JSON-RPC errors (*jsonrpc.Error, such as RequireCapabilities') and
// *InputRequiredError (Ask), which the runtime answers as such; a panic
// becomes -32603.
func NewTool[In, Out any](info ToolInfo, fn func(ctx context.Context, in In) (Out, error)) Tool {
	t := &toolImpl{name: info.Name}
	fail := func(err error) Tool {
		t.err = fmt.Errorf("tool %q: %w", info.Name, err)
		return Tool{t}
	}
	if err := ValidToolName(info.Name); err != nil {
		return fail(err)
	}
	if fn == nil {
		return fail(errors.New("nil function"))
	}
	inType := reflect.TypeFor[In]()
	rawIn := inType == rawMessageType
	schema := info.InputSchema
	if schema == nil {
		var err error
		if rawIn {
			schema = json.RawMessage(`{"type":"object"}`)
		} else if schema, err = argschema.ForType[In](); err != nil {
			return fail(err)
		}
	}
	if err := checkObjectSchema(schema); err != nil {
		return fail(fmt.Errorf("inputSchema: %w", err))
	}
	validator, err := argschema.Compile(schema)
	if err != nil {
		return fail(err)
	}
	if t.paramHeaders, err = httpwire.ParamHeadersFromSchema(schema); err != nil {
		return fail(err)
	}
	kind := outKindOf(reflect.TypeFor[Out]())
	outSchema := info.OutputSchema
	if outSchema == nil && kind == outStructured {
		if outSchema, err = argschema.For(reflect.TypeFor[Out]()); err != nil {
			return fail(fmt.Errorf("output type: %w", err))
		}
	}
	if t.def, err = json.Marshal(toolWire{
		Name: info.Name, Title: info.Title, Description: info.Description,
		InputSchema: schema, OutputSchema: outSchema,
		Annotations: info.Annotations, Icons: info.Icons, Meta: info.Meta,
	}); err != nil {
		return fail(err)
	}
	t.run = func(ctx context.Context, args []byte) (any, error) {
		valid, err := validator.Validate(args)
		if err != nil {
			return toolError(err.Error()), nil
		}
		var in In
		if rawIn {
			in = any(json.RawMessage(valid)).(In)
		} else if err := json.Unmarshal(valid, &in); err != nil {
			return toolError("invalid arguments: " + err.Error()), nil
		}
		out, err := fn(ctx, in)
		if err != nil {
			if isProtocolError(err) || ctx.Err() != nil {
				return nil, err
			}
			return toolError(err.Error()), nil
		}
		return toolOutput(kind, out)
	}
	return Tool{t}
}

// checkObjectSchema checks that a schema is a JSON object with "type": "object".
func checkObjectSchema(schema json.RawMessage) error {
	var root map[string]any
	if err := json.Unmarshal(schema, &root); err != nil {
		return fmt.Errorf("not a JSON object: %w", err)
	}
	if root["type"] != "object" {
		return errors.New(`the root must have "type": "object"`)
	}
	return nil
}

// toolRegistry holds the registered tools as an immutable snapshot that
// writers replace, so calls and lists read it without locks.
type toolRegistry struct {
	s   *Server
	mu  sync.Mutex // serializes writers
	set atomic.Pointer[toolSet]
	on  atomic.Bool
}

type toolSet struct {
	byName map[string]*toolImpl
	list   []*toolImpl
	all    []byte // the encoded array of every definition
}

func (g *toolRegistry) init(s *Server) {
	g.s = s
	g.set.Store(&toolSet{byName: map[string]*toolImpl{}, all: []byte("[]")})
}

func (g *toolRegistry) offered() bool { return g.on.Load() }

func (g *toolRegistry) get(name string) *toolImpl { return g.set.Load().byName[name] }

// add registers tools, replacing ones with the same name; two tools of one
// name in the same call, an invalid tool or a zero Tool are errors and
// nothing is registered.
func (g *toolRegistry) add(tools []Tool) error {
	var errs []error
	seen := map[string]bool{}
	for i, t := range tools {
		switch {
		case t.t == nil:
			errs = append(errs, fmt.Errorf("server: tool %d is the zero Tool (use NewTool)", i))
		case t.t.err != nil:
			errs = append(errs, fmt.Errorf("server: %w", t.t.err))
		case seen[t.t.name]:
			errs = append(errs, fmt.Errorf("server: duplicate tool name %q", t.t.name))
		}
		if t.t != nil {
			seen[t.t.name] = true
		}
	}
	if len(errs) > 0 {
		return errors.Join(errs...)
	}
	g.mu.Lock()
	old := g.set.Load()
	list := slices.Clone(old.list)
	for _, t := range tools {
		if i := slices.IndexFunc(list, func(x *toolImpl) bool { return x.name == t.t.name }); i >= 0 {
			list[i] = t.t
		} else {
			list = append(list, t.t)
		}
	}
	g.set.Store(newToolSet(list))
	g.on.Store(true)
	g.mu.Unlock()
	g.s.subs.publish(changeTools, "")
	return nil
}

// remove unregisters tools by name; it reports whether any was removed.
func (g *toolRegistry) remove(names []string) bool {
	g.mu.Lock()
	old := g.set.Load()
	list := slices.DeleteFunc(slices.Clone(old.list), func(t *toolImpl) bool { return slices.Contains(names, t.name) })
	changed := len(list) != len(old.list)
	if changed {
		g.set.Store(newToolSet(list))
	}
	g.mu.Unlock()
	if changed {
		g.s.subs.publish(changeTools, "")
	}
	return changed
}

func newToolSet(list []*toolImpl) *toolSet {
	set := &toolSet{byName: make(map[string]*toolImpl, len(list)), list: list}
	defs := make([][]byte, len(list))
	for i, t := range list {
		set.byName[t.name] = t
		defs[i] = t.def
	}
	set.all = joinArray(defs)
	return set
}

// joinArray encodes pre-encoded values as a JSON array.
func joinArray(items [][]byte) []byte {
	n := 2
	for _, it := range items {
		n += len(it) + 1
	}
	b := make([]byte, 0, n)
	b = append(b, '[')
	for i, it := range items {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, it...)
	}
	return append(b, ']')
}

// AddTools adds (or replaces) tools at run time and notifies listeners
// (notifications/tools/list_changed on subscriptions/listen streams that
// asked for toolsListChanged). Invalid tools are an error and nothing is
// added.
func (s *Server) AddTools(tools ...Tool) error { return s.tools.add(tools) }

// RemoveTools removes tools by name and notifies listeners.
func (s *Server) RemoveTools(names ...string) { s.tools.remove(names) }

// cursorOf reads params.cursor (absent, null or a string).
func cursorOf(p *requestParams) (string, error) {
	if isNullOrAbsent(p.cursor) {
		return "", nil
	}
	c, ok := stringValue(p.cursor)
	if !ok {
		return "", invalidParams("params.cursor must be a string")
	}
	return c, nil
}

// listPage returns the encoded page of defs for the request's cursor.
func (s *Server) listPage(p *requestParams, defs func() [][]byte, all []byte) ([]byte, string, error) {
	cursor, err := cursorOf(p)
	if err != nil {
		return nil, "", err
	}
	if s.pageSize <= 0 && cursor == "" {
		return all, "", nil
	}
	page, next, err := Paginate(defs(), cursor, s.pageSize)
	if err != nil {
		return nil, "", err
	}
	return joinArray(page), next, nil
}

// list answers tools/list from the precomputed definitions.
func (g *toolRegistry) list(ctx context.Context, r *request, p *requestParams, _ json.RawMessage) (any, error) {
	set := g.set.Load()
	page, next, err := g.s.listPage(p, func() [][]byte {
		defs := make([][]byte, len(set.list))
		for i, t := range set.list {
			defs[i] = t.def
		}
		return defs
	}, set.all)
	if err != nil {
		return nil, err
	}
	return rawResult(g.s.appendList(make([]byte, 0, len(page)+160), r, "tools", page, next)), nil
}

// call answers tools/call: unknown tool → -32602; otherwise the tool runs.
func (g *toolRegistry) call(ctx context.Context, r *request, p *requestParams, _ json.RawMessage) (any, error) {
	if !p.hasName {
		if p.nameRaw == nil {
			return nil, invalidParams("params.name: missing required member")
		}
		return nil, invalidParams("params.name: must be a string")
	}
	t := g.set.Load().byName[p.name]
	if t == nil {
		return nil, invalidParams(fmt.Sprintf("Unknown tool: %q", p.name))
	}
	if k := jsonKind(p.arguments); k != 0 && k != '{' && !isNullOrAbsent(p.arguments) {
		return nil, invalidParams("params.arguments must be an object")
	}
	out, err := t.run(ctx, p.arguments)
	if err != nil {
		return nil, err
	}
	if tt, ok := out.(*toolText); ok {
		return rawResult(tt.appendResult(make([]byte, 0, len(tt.text)+len(tt.structured)+160), g.s.metaJSON)), nil
	}
	return out, nil
}

// tools returns the decoded definitions (for the ToolsHandler view).
func (set *toolSet) tools() ([]mcp.Tool, error) {
	out := make([]mcp.Tool, len(set.list))
	for i, t := range set.list {
		if err := json.Unmarshal(t.def, &out[i]); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// ListTools implements mcp.ToolsHandler over the registry.
func (g *toolRegistry) ListTools(ctx context.Context, params *mcp.PaginatedRequestParams) (*mcp.ListToolsResult, error) {
	all, err := g.set.Load().tools()
	if err != nil {
		return nil, err
	}
	page, next, err := Paginate(all, params.Cursor, g.s.pageSize)
	if err != nil {
		return nil, err
	}
	return &mcp.ListToolsResult{Tools: page, NextCursor: next}, nil
}

// CallTool implements mcp.ToolsHandler over the registry.
func (g *toolRegistry) CallTool(ctx context.Context, params *mcp.CallToolRequestParams) (mcp.CallToolOutcome, error) {
	t := g.get(params.Name)
	if t == nil {
		return nil, invalidParams(fmt.Sprintf("Unknown tool: %q", params.Name))
	}
	out, err := t.run(ctx, params.Arguments)
	if err != nil {
		return nil, err
	}
	switch o := out.(type) {
	case *toolText:
		return o.callToolResult(), nil
	case *mcp.CallToolResult:
		return o, nil
	}
	return nil, fmt.Errorf("unexpected tool output %T", out)
}

var _ mcp.ToolsHandler = (*toolRegistry)(nil)
