package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"

	"github.com/mcpgen/mcpgen/generated/mcp"
	"github.com/mcpgen/mcpgen/internal/jsonscan"
)

// Extension is a protocol extension the server serves (SEP-2133): an
// identifier, the settings object the server declares for it under
// capabilities.extensions, and the methods it adds. The runtime serves
// extension methods exactly like core methods: the same _meta and version
// checks, the same error codes, and results completed with resultType,
// _meta.io.modelcontextprotocol/serverInfo and, for cacheable methods,
// ttlMs and cacheScope.
//
// The tasks extension (TasksExtension) is built on this type; the skills
// extension (package skills) is a user of it like any other.
type Extension struct {
	// ID identifies the extension ("io.modelcontextprotocol/skills"): the
	// key of its settings in capabilities.extensions and in a client's
	// clientCapabilities.extensions. It is a vendor prefix and a name
	// separated by "/", following the _meta key naming rules (basic/index.mdx):
	// dot-separated prefix labels that start with a letter and end with a
	// letter or digit (hyphens inside), and a name that starts and ends with
	// a letter or digit (hyphens, underscores and dots inside). New refuses
	// any other ID.
	ID string
	// Settings is the settings object declared under
	// capabilities.extensions[ID]; nil declares {}. It must encode to a
	// JSON object.
	Settings any
	// Methods are the methods the extension adds, made by NewMethod. Their
	// names must not be core methods or another extension's.
	Methods []ExtensionMethod
	// Requires names the server features the extension depends on
	// ("tools", "prompts", "resources"). While the server does not offer
	// all of them, the extension is not declared and its methods are
	// -32601.
	Requires []string
	// ClientMustDeclare makes every method of the extension answer -32021
	// (data.requiredCapabilities.extensions[ID]) unless the request's
	// clientCapabilities.extensions declares the extension.
	ClientMustDeclare bool
	// Offered, when set, reports whether the extension is offered right
	// now (for example only while some tool supports tasks); nil means
	// always. An extension not offered is not declared and its methods are
	// -32601.
	Offered func() bool
	// Legacy also serves the methods in initialize-era sessions: a legacy
	// client that knows the extension may call them, and gets the result
	// converted like any other (no resultType, ttlMs, cacheScope). A
	// 2025-11-25 session's initialize result declares the extension under
	// capabilities.extensions (not part of that revision, but allowed by
	// its schema, and where backporting clients look); older revisions do
	// not declare it.
	Legacy bool
}

// MethodInfo describes an extension method.
type MethodInfo struct {
	// Name is the JSON-RPC method name ("skills/list").
	Name string
	// Cacheable results carry ttlMs and cacheScope (the server's Cache
	// policy, or SetCachePolicy's) unless the result sets them itself.
	Cacheable bool
	// Target is the params member the method acts on, "name", "uri" or
	// "taskId", which an interceptor's Request.Name reports. When empty
	// it is the one of them that Params declares, if it declares exactly
	// one (GetParams{URI string `json:"uri"`}: "uri"); else Request.Name
	// is the first of them the params hold as a string.
	Target string
}

// ExtensionMethod is one method of an Extension, made by NewMethod.
type ExtensionMethod struct{ m *methodImpl }

type methodImpl struct {
	info   MethodInfo
	target string // Request.Name's member (MethodInfo.Target, or Params'); "" when neither says
	call   func(ctx context.Context, params json.RawMessage) (any, error)
	err    error
}

// NewMethod binds fn as an extension method. Params decodes the request's
// params (without _meta, which the runtime has checked): a struct whose
// json field names must match exactly, at any depth (a member that differs
// from a field name only in case, ASCII or Unicode folding as encoding/json
// matches it, or a duplicate member anywhere, is -32602), a type with its own UnmarshalJSON (generated types), or
// json.RawMessage for the raw params.
// Absent or null params decode as the zero Params. Result must encode to a
// JSON object; the runtime adds resultType "complete" (unless the result
// sets its own), _meta.io.modelcontextprotocol/serverInfo and, for
// Cacheable methods, ttlMs and cacheScope. A returned *jsonrpc.Error is sent
// as is; other errors are -32603, as for core handlers.
func NewMethod[Params, Result any](info MethodInfo, fn func(ctx context.Context, params Params) (Result, error)) ExtensionMethod {
	m := &methodImpl{info: info}
	if info.Name == "" {
		m.err = errors.New("an extension method needs a name")
		return ExtensionMethod{m}
	}
	if fn == nil {
		m.err = fmt.Errorf("method %q: nil function", info.Name)
		return ExtensionMethod{m}
	}
	pt := reflect.TypeFor[Params]()
	switch info.Target {
	case "":
		m.target = paramsTarget(pt)
	case "name", "uri", "taskId":
		m.target = info.Target
	default:
		m.err = fmt.Errorf("method %q: Target %q is not \"name\", \"uri\" or \"taskId\"", info.Name, info.Target)
		return ExtensionMethod{m}
	}
	m.call = func(ctx context.Context, raw json.RawMessage) (any, error) {
		var p Params
		if !jsonscan.IsNullOrAbsent(raw) {
			if jsonscan.Kind(raw) != '{' {
				return nil, invalidParams("params must be an object")
			}
			if err := checkMembers(raw, pt, "params", 0); err != nil {
				return nil, err
			}
			if err := json.Unmarshal(raw, &p); err != nil {
				return nil, extensionParamsError(err)
			}
		}
		return fn(ctx, p)
	}
	return ExtensionMethod{m}
}

// extensionParamsError is the -32602 for params that do not decode, naming
// the field.
func extensionParamsError(err error) error {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) && te.Field != "" {
		return invalidParams(fmt.Sprintf("params.%s: must be %s, not %s", te.Field, te.Type, te.Value))
	}
	if isProtocolError(err) {
		return err
	}
	var de *mcp.DecodeError
	if errors.As(err, &de) {
		return paramsError(err)
	}
	return invalidParams("params: " + err.Error())
}

var unmarshalerType = reflect.TypeFor[json.Unmarshaler]()
