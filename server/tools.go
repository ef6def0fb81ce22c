package server

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"sync/atomic"

	"github.com/mcpgen/mcpgen/generated/mcp"
	"github.com/mcpgen/mcpgen/internal/argcheck"
	"github.com/mcpgen/mcpgen/internal/derive"
	"github.com/mcpgen/mcpgen/internal/httpwire"
	"github.com/mcpgen/mcpgen/internal/jsonenc"
	"github.com/mcpgen/mcpgen/internal/jsonscan"
	"github.com/mcpgen/mcpgen/jsonrpc"
)

// ToolInfo is what a tool declares besides its function.
type ToolInfo struct {
	Name, Title, Description string
	Annotations              *mcp.ToolAnnotations
	Icons                    []mcp.Icon
	// InputSchema is the tool's inputSchema (its root must be "type":
	// "object"); arguments are validated against it before they are bound
	// to In. `mcpgen tools` writes it, derived from In at build time. When
	// it is nil, In must be struct{} or json.RawMessage, or the program
	// must link package argschema, which derives it at start-up.
	InputSchema json.RawMessage
	// OutputSchema is the tool's outputSchema, written by `mcpgen tools`
	// for a struct Out (derived as InputSchema is when nil). Every
	// structuredContent is validated against it before it is sent, unless
	// conformance holds by construction (OutputSchemaFromType).
	OutputSchema json.RawMessage
	// OutputSchemaFromType says OutputSchema was derived from Out itself
	// (`mcpgen tools` sets it when no type in Out marshals itself), so
	// every Out value has its types and required fields. Then only a
	// schema with value constraints (enum, bounds, lengths, pattern,
	// formats other than date-time, …) is checked on each call; one without
	// them is never violated and costs nothing.
	OutputSchemaFromType bool
	// Meta is the tool definition's _meta.
	Meta map[string]any
	// TaskSupport makes the tool run as a task of the tasks extension
	// (io.modelcontextprotocol/tasks) when a request declares it; see
	// TaskSupport's values.
	TaskSupport TaskSupport
	// Scopes are the OAuth scopes a caller's access token needs to call the
	// tool (HTTPOptions.Auth); a token without them gets 403
	// insufficient_scope naming them. Nothing is enforced without Auth.
	Scopes []string
	// BeforeTask, optional for a task-supporting tool, runs inline on
	// tools/call before the task is created. It may Ask for input (the
	// request then answers an InputRequiredResult and no task exists yet);
	// the answers stay visible to Ask inside the task. An error ends the
	// call as the tool's own error would.
	BeforeTask func(ctx context.Context) error
}

// Tool is a tool ready to register, made by NewTool. The zero Tool is
// invalid; construction errors are reported by New and AddTools.
type Tool struct{ t *toolImpl }

// Name returns the tool's name.
func (t Tool) Name() string {
	if t.t == nil {
		return ""
	}
	return t.t.key
}

type toolImpl struct {
	entry        // key: the name; def: the encoded Tool definition
	paramHeaders []httpwire.ParamHeader
	// run runs the tool; its output is a *toolText (in scratch when that
	// is not nil: a caller that reads it at once and runs nothing else
	// meanwhile may lend one) or an *mcp.CallToolResult.
	run         func(ctx context.Context, args []byte, scratch *toolText) (any, error)
	taskSupport TaskSupport
	beforeTask  func(ctx context.Context) error
	// readsArgs: run decodes the arguments with a decoder of the tool's
	// In before anything else (typeDecoder; no middleware), which may take
	// the request's identity from its reading (mrtr_fused.go); seals: the
	// tool has answered input_required with a state.
	readsArgs bool
	seals     *atomic.Bool
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
	var call toolCall
	if fn != nil {
		// The only code compiled once per In and Out: everything else is
		// newTool's, so the bindings of many tools compile in linear time.
		call = func(ctx context.Context, args []byte, decode argsDecoder) (any, error) {
			var in In
			if err := decode(ctx, args, &in); err != nil {
				return nil, argsError{err}
			}
			out, err := fn(ctx, in)
			return out, err
		}
	}
	return newTool(info, reflect.TypeFor[In](), reflect.TypeFor[Out](), call)
}

// toolCall decodes a tool's arguments into its In with decode and runs its
// function; a decoding failure is returned as an argsError.
type toolCall func(ctx context.Context, args []byte, decode argsDecoder) (out any, err error)

// argsDecoder validates args and fills *into, a pointer to the tool's In;
// ctx's request may hold the args' parse (argsTape).
type argsDecoder func(ctx context.Context, args json.RawMessage, into any) error

// argsError marks arguments the tool's inputSchema or In rejected.
type argsError struct{ err error }

func (e argsError) Error() string { return e.err.Error() }

// newTool is [NewTool] for argument type inType and result type outType.
func newTool(info ToolInfo, inType, outType reflect.Type, call toolCall) Tool {
	t := &toolImpl{entry: newEntry("tool", info.Name, info.Scopes)}
	fail := func(err error) Tool {
		t.err = fmt.Errorf("tool %q: %w", info.Name, err)
		return Tool{t}
	}
	if err := ValidToolName(info.Name); err != nil {
		return fail(err)
	}
	if call == nil {
		return fail(errors.New("nil function"))
	}
	switch info.TaskSupport {
	case TaskSupportNone, TaskSupportOptional, TaskSupportRequired:
	default:
		return fail(fmt.Errorf("TaskSupport %q must be \"\", %q or %q", info.TaskSupport, TaskSupportOptional, TaskSupportRequired))
	}
	if info.BeforeTask != nil && info.TaskSupport == TaskSupportNone {
		return fail(errors.New("BeforeTask needs TaskSupport optional or required"))
	}
	t.taskSupport, t.beforeTask = info.TaskSupport, info.BeforeTask
	schema, err := toolSchema(info.InputSchema, inType)
	if err != nil {
		return fail(err)
	}
	input, err := compileInputSchema(schema)
	if err != nil {
		return fail(err)
	}
	validator := input.validator
	var decode argsDecoder
	if inType == rawMessageType {
		decode = func(ctx context.Context, args json.RawMessage, into any) error {
			valid, err := validateArgs(ctx, validator, args)
			if err != nil {
				return err
			}
			*into.(*json.RawMessage) = valid
			return nil
		}
		t.readsArgs, t.seals = true, new(atomic.Bool)
	} else {
		decode = typeDecoder(argcheck.NewTypeDecoder(inType, validator))
		t.readsArgs, t.seals = true, new(atomic.Bool)
	}
	t.paramHeaders = input.paramHeaders
	kind := outKindOf(outType)
	outSchema, fromType := info.OutputSchema, info.OutputSchemaFromType
	if outSchema == nil && kind == outStructured {
		if outSchema, err = deriveSchema(outType); err != nil {
			return fail(fmt.Errorf("output type: %w", err))
		}
		fromType = !marshalsItself(outType)
	}
	var outCheck *argcheck.Validator
	hasOutSchema := outSchema != nil
	if hasOutSchema {
		if outSchema, err = compactSchema(outSchema); err != nil {
			return fail(fmt.Errorf("outputSchema: %w", err))
		}
		if outCheck, err = compileOutputSchema(outSchema); err != nil {
			return fail(fmt.Errorf("outputSchema: %w", err))
		}
		if fromType && !argcheck.HasValueConstraints(outSchema) {
			outCheck = nil // every Out value conforms by construction
		}
	}
	if t.def, err = json.Marshal(toolWire{
		Name: info.Name, Title: info.Title, Description: info.Description,
		InputSchema: schema, OutputSchema: outSchema,
		Annotations: info.Annotations, Icons: info.Icons, Meta: info.Meta,
	}); err != nil {
		return fail(err)
	}
	name := info.Name
	outEnc := newOutEncoder(outType)
	t.run = func(ctx context.Context, args []byte, scratch *toolText) (any, error) {
		out, err := call(ctx, args, decode)
		if err != nil {
			if bad, ok := err.(argsError); ok {
				if se, ok := bad.err.(stateError); ok {
					return nil, se.err // a requestState refused as the arguments were read
				}
				return toolError(bad.err.Error()), nil
			}
			if isProtocolError(err) || ctx.Err() != nil {
				return nil, err
			}
			return toolError(errorText(err)), nil
		}
		res, err := outEnc.toolOutput(out, scratch)
		if err != nil || !hasOutSchema {
			return res, err
		}
		return res, checkStructured(ctx, name, outCheck, res)
	}
	return Tool{t}
}

// toolSchema is the inputSchema: the declared one (compacted), the fixed
// one of struct{} and json.RawMessage, or one derived from In.
func toolSchema(declared json.RawMessage, in reflect.Type) (json.RawMessage, error) {
	switch {
	case declared != nil:
		return compactSchema(declared)
	case in == rawMessageType:
		return json.RawMessage(`{"type":"object"}`), nil
	case in.Kind() == reflect.Struct && in.NumField() == 0:
		return json.RawMessage(`{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","additionalProperties":false}`), nil
	}
	return deriveSchema(in)
}

// deriveSchema derives a schema at start-up through package argschema,
// when the program links it.
func deriveSchema(t reflect.Type) (json.RawMessage, error) {
	if derive.Schema == nil {
		return nil, fmt.Errorf("no schema for %s: run `mcpgen tools` (go generate), which writes it into ToolInfo at build time, or import _ \"github.com/mcpgen/mcpgen/argschema\" to derive schemas from Go types at start-up", t)
	}
	return derive.Schema(t)
}

// marshalsItself reports whether t, or a type it contains, encodes itself
// (json.Marshaler, encoding.TextMarshaler; time.Time aside): a schema
// derived from its fields says nothing about its encoding then.
func marshalsItself(t reflect.Type) bool {
	return argcheck.MarshalsItself(t)
}

// compactSchema checks that a declared schema is JSON and drops its
// insignificant whitespace (generated files keep schemas indented).
func compactSchema(s json.RawMessage) (json.RawMessage, error) {
	var b bytes.Buffer
	if err := json.Compact(&b, s); err != nil {
		return nil, fmt.Errorf("not JSON: %w", err)
	}
	return b.Bytes(), nil
}

// checkStructured checks the result of a tool that declares an outputSchema
// before it is sent (server/tools.mdx: "If an output schema is provided:
// Servers MUST provide structured results that conform to this schema"): a
// successful result must carry structuredContent, and v (nil when every
// value of the result type conforms by construction) must accept it. An
// isError result needs none. A failure is a bug in the tool, not in the
// request: the call fails with -32603 naming the tool (and the offending
// fields), and the server logs it.
func checkStructured(ctx context.Context, tool string, v *argcheck.Validator, res any) error {
	var structured []byte
	switch r := res.(type) {
	case *toolText:
		if r.isError {
			return nil
		}
		structured = r.structuredJSON()
	case *mcp.CallToolResult:
		if r == nil || (r.IsError != nil && *r.IsError) {
			return nil
		}
		if r.StructuredContent != nil {
			b, err := jsonenc.Marshal(r.StructuredContent)
			if err != nil {
				return err
			}
			structured = b
		}
	default:
		return nil
	}
	if structured == nil || string(structured) == "null" {
		return rejectResult(ctx, tool, fmt.Sprintf("tool %q declares an outputSchema but returned no structuredContent", tool))
	}
	if v == nil {
		return nil
	}
	if _, err := v.Validate(structured); err != nil {
		return rejectResult(ctx, tool, fmt.Sprintf("tool %q returned structuredContent that does not match its outputSchema: %s", tool, strings.TrimPrefix(err.Error(), "invalid arguments: ")))
	}
	return nil
}

// rejectResult logs a tool result that breaks the tool's outputSchema and
// returns the -32603 error the call is answered with.
func rejectResult(ctx context.Context, tool, msg string) error {
	if r := requestFrom(ctx); r != nil && r.s != nil {
		r.s.logger.Error("tool result rejected", "tool", tool, "err", msg)
	}
	return &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: msg}
}

// checkObjectSchema checks that a schema is a JSON object with "type": "object".
func checkObjectSchema(schema json.RawMessage) error {
	if rootTypeIsObject(schema) {
		return nil
	}
	var root map[string]any
	if err := json.Unmarshal(schema, &root); err != nil {
		return fmt.Errorf("not a JSON object: %w", err)
	}
	if root["type"] != "object" {
		return errors.New(`the root must have "type": "object"`)
	}
	return nil
}

// toolRegistry holds the registered tools.
type toolRegistry struct {
	catalog[*toolImpl]
	// tasksOffered: a tool supporting tasks has been registered (see
	// servesTasks).
	tasksOffered atomic.Bool
}

func (g *toolRegistry) init(s *Server) {
	g.catalog.init(s, changeTools, itemKind{noun: "tool", typ: "Tool", key: "tool name"})
}

func (g *toolRegistry) add(tools []Tool) error {
	if err := g.catalog.add(impls(g.s.withToolMiddleware(tools), func(t Tool) *toolImpl { return t.t })); err != nil {
		return err
	}
	for _, t := range tools {
		if t.t != nil && t.t.taskSupport != TaskSupportNone {
			g.tasksOffered.Store(true)
		}
	}
	return nil
}

// AddTools adds (or replaces) tools at run time and notifies listeners
// (notifications/tools/list_changed on subscriptions/listen streams that
// asked for toolsListChanged). Invalid tools are an error and nothing is
// added.
func (s *Server) AddTools(tools ...Tool) error { return s.announce(ChangeTools, s.tools.add(tools)) }

// RemoveTools removes tools by name and notifies listeners.
func (s *Server) RemoveTools(names ...string) {
	if s.tools.remove(names) {
		s.broadcast(ChangeTools, "", "")
	}
}

// list answers tools/list from the precomputed definitions.
func (g *toolRegistry) list(ctx context.Context, r *request, p *requestParams, _ json.RawMessage) (any, error) {
	return g.set.Load().page(g.s, r, p, "tools")
}

// call answers tools/call: unknown tool → -32602; otherwise the tool runs.
func (g *toolRegistry) call(ctx context.Context, r *request, p *requestParams, _ json.RawMessage) (any, error) {
	name, err := p.nameParam()
	var t *toolImpl
	if err == nil {
		t = g.get(name)
	}
	deferred := false
	if c := r.rounds().identity; c != nil && c.pending {
		// The requestState's digest is compared now, as prepareMRTR
		// compared it, unless the tool's decoder reads the arguments next
		// with nothing before it but Options.Visible, which then runs
		// right after the comparison (mrtr_fused.go): a tool that runs
		// in the request, not as a task (runsInline).
		deferred = t != nil && t.readsArgs && t.runsInline(ctx, r) &&
			p.arguments != nil && jsonscan.Kind(p.arguments) == '{' && checkScopes(ctx, t.scopes) == nil
		if !deferred {
			if rerr := r.settleState(); rerr != nil {
				return nil, rerr
			}
		}
	}
	if err != nil {
		return nil, err
	}
	if t == nil {
		return nil, invalidParams(fmt.Sprintf("Unknown tool: %q", name))
	}
	if deferred && g.s.opts.Visible != nil {
		r.rounds().identity.then = func() *jsonrpc.Error {
			if g.s.hidden(ctx, &t.entry) {
				return invalidParams(fmt.Sprintf("Unknown tool: %q", name))
			}
			return nil
		}
	} else if g.s.hidden(ctx, &t.entry) {
		return nil, invalidParams(fmt.Sprintf("Unknown tool: %q", name))
	}
	if err := checkScopes(ctx, t.scopes); err != nil {
		return nil, err
	}
	if p.arguments != nil && jsonscan.Kind(p.arguments) != '{' { // null too: the schema says object
		return nil, invalidParams("params.arguments must be an object")
	}
	var out any
	handled := false
	if t.taskSupport != TaskSupportNone {
		out, handled, err = g.callTask(ctx, r, p, t)
	}
	if !handled {
		// The result is encoded below, before anything else runs: the
		// request lends its toolText.
		r.seals = t.seals
		out, err = t.run(ctx, p.arguments, &r.toolOut)
	}
	if err != nil {
		return nil, err
	}
	if tt, ok := out.(*toolText); ok {
		tt.encodeIn(&r.frame, g.s.metaJSON)
		return &r.frame, nil
	}
	return out, nil
}

// ListTools implements mcp.ToolsHandler over the registry.
func (g *toolRegistry) ListTools(ctx context.Context, params *mcp.PaginatedRequestParams) (*mcp.ListToolsResult, error) {
	page, next, err := decodePage[mcp.Tool](g.set.Load().visible(ctx, g.s), "tools", params.Cursor, g.s.pageSize)
	if err != nil {
		return nil, err
	}
	return &mcp.ListToolsResult{Tools: page, NextCursor: next}, nil
}

// CallTool implements mcp.ToolsHandler over the registry.
func (g *toolRegistry) CallTool(ctx context.Context, params *mcp.CallToolRequestParams) (mcp.CallToolOutcome, error) {
	t := g.get(params.Name)
	if t == nil || g.s.hidden(ctx, &t.entry) {
		return nil, invalidParams(fmt.Sprintf("Unknown tool: %q", params.Name))
	}
	if err := checkScopes(ctx, t.scopes); err != nil {
		return nil, err
	}
	out, err := t.run(ctx, params.Arguments, nil)
	if err != nil {
		return nil, err
	}
	if res, ok := asCallToolResult(out); ok {
		return res, nil
	}
	return nil, fmt.Errorf("unexpected tool output %T", out)
}

// asCallToolResult is the tools/call result of what a tool's run returned
// (its text form or a whole result); false for anything else.
func asCallToolResult(out any) (*mcp.CallToolResult, bool) {
	switch o := out.(type) {
	case *toolText:
		return o.callToolResult(), true
	case *mcp.CallToolResult:
		return o, true
	}
	return nil, false
}

var _ mcp.ToolsHandler = (*toolRegistry)(nil)
