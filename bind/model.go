package bind

import (
	"go/token"
	"go/types"
)

// MCPPackagePath is the import path of the generated protocol types that
// tool, prompt and resource funcs may return.
const MCPPackagePath = "github.com/mcpgen/mcpgen/generated/mcp"

// Package is everything `mcpgen tools` needs to bind one Go package.
type Package struct {
	Name  string         // Go package name
	Path  string         // import path
	Dir   string         // absolute directory
	Types *types.Package // type-checked package, e.g. for a types.Qualifier

	Tools     []Tool             // in source order (file name, then offset)
	Prompts   []Prompt           // in source order
	Resources []Resource         // in source order
	Templates []ResourceTemplate // in source order

	fset      *token.FileSet  // positions of Types' objects; nil when not loaded
	info      *types.Info     // uses of Types' objects in the package's files; nil when not loaded
	generated map[string]bool // files marked as generated: their names do not clash with emitted ones
}

// Func is the Go func or method that implements a tool, prompt or resource.
type Func struct {
	Name         string         // Go name of the func or method
	Recv         string         // receiver base type name; "" for a package-level func
	RecvPointer  bool           // the receiver is *Recv
	TakesContext bool           // the first parameter is a context.Context
	Pos          token.Position // position of the func name
}

// IsMethod reports whether the func is a method.
func (f Func) IsMethod() bool { return f.Recv != "" }

// TypeRef is a type used in a bound signature.
type TypeRef struct {
	Type    types.Type // the type as declared in the signature
	Expr    string     // Go expression relative to the package: "WeatherArgs", "*geo.Point", "[]mcp.ContentBlock"
	PkgPath string     // import path of the named type (after one pointer); "" for unnamed and predeclared types
	Name    string     // name of the named type (after one pointer); "" for unnamed types
	Pointer bool       // Type is a pointer to the named type
}

// ResultKind says how a func's first result becomes an MCP result.
type ResultKind int

// Result kinds. Which kinds are accepted depends on what is bound; see doc.go.
const (
	ResultInvalid            ResultKind = iota
	ResultStruct                        // a named struct or a pointer to one: tools → structuredContent + outputSchema; resources → JSON text
	ResultString                        // a type whose underlying type is string: one text content
	ResultBytes                         // []byte: a blob resource
	ResultContentBlocks                 // []mcp.ContentBlock: the tool's content as is
	ResultCallToolResult                // *mcp.CallToolResult: the whole tool result
	ResultGetPromptResult               // *mcp.GetPromptResult: the whole prompt result
	ResultPromptMessages                // []mcp.PromptMessage: the prompt's messages
	ResultReadResourceResult            // *mcp.ReadResourceResult: the whole resource result
)

var resultKindNames = [...]string{"invalid", "struct", "string", "bytes", "content blocks", "*mcp.CallToolResult", "*mcp.GetPromptResult", "prompt messages", "*mcp.ReadResourceResult"}

// String returns a short description of the kind.
func (k ResultKind) String() string {
	if k < 0 || int(k) >= len(resultKindNames) {
		return "invalid"
	}
	return resultKindNames[k]
}

// ToolAnnotations are the behaviour hints of a tool; nil means "not stated"
// (the MCP defaults apply: readOnly=false, destructive=true, idempotent=false,
// openWorld=true).
type ToolAnnotations struct {
	ReadOnly    *bool
	Destructive *bool
	Idempotent  *bool
	OpenWorld   *bool
}

// Tool is a func bound by //mcp:tool.
type Tool struct {
	Name        string   // tool name (directive name= or snake_case of the func name)
	Title       string   // title=; "" when absent
	Description string   // doc comment without directive lines
	Icons       []string // icon= values (icon source URIs), in order
	Scopes      []string // scopes= (space separated): OAuth scopes a caller needs
	Annotations ToolAnnotations

	// InputSchema is the tool's inputSchema, derived from Args at build
	// time (or named by inputSchema=); zero for a tool without arguments.
	InputSchema Schema
	// OutputSchema is the outputSchema of a struct result (or outputSchema=).
	OutputSchema Schema
	TaskSupport  string // taskSupport=: "", "optional" or "required"
	Meta         string // meta=: the name of a string constant holding the tool's _meta (a JSON object)

	Func       Func
	Args       *TypeRef // the argument struct; nil for a tool without arguments
	Result     TypeRef
	ResultKind ResultKind     // ResultStruct, ResultString, ResultContentBlocks or ResultCallToolResult
	Pos        token.Position // position of the directive
}

// Schema is a JSON Schema a tool declares: derived JSON, or the name of a
// string constant of the package that holds it.
type Schema struct {
	JSON  string // indented JSON derived from Go types; "" when Const is set or there is none
	Const string // the constant named by inputSchema= or outputSchema=
	Text  string // the constant's value, when Const is set
	// FromType: JSON was derived from the Go type and every value of it
	// encodes to that shape (no type in it marshals itself), so the
	// runtime checks only the value constraints (OutputSchemaFromType).
	FromType bool
}

// IsZero reports whether there is no schema.
func (s Schema) IsZero() bool { return s.JSON == "" && s.Const == "" }

// Prompt is a func bound by //mcp:prompt.
type Prompt struct {
	Name        string
	Title       string
	Description string
	Icons       []string
	Scopes      []string // scopes= (space separated): OAuth scopes a caller needs

	Func       Func
	Args       *TypeRef   // the argument struct; nil for a prompt without arguments
	Arguments  []ArgField // the argument struct's fields (all string-kinded), in order
	Complete   string     // complete=: the completion method (on the receiver) or func
	Result     TypeRef
	ResultKind ResultKind // ResultGetPromptResult, ResultPromptMessages or ResultString
	Pos        token.Position
}

// ArgField is one field of an argument or variables struct, by JSON name.
type ArgField struct {
	Name        string         // JSON name (json tag name or Go field name)
	GoPath      string         // Go selector from the struct value: "City", or "Place.City" through embedded structs
	Type        types.Type     // field type
	Required    bool           // tagged `jsonschema:"required"`
	Title       string         // jsonschema title= (prompt arguments)
	Description string         // jsonschema description= or jsonschema_description (prompt arguments)
	Tag         string         // the field's struct tag
	Pos         token.Position // position of the field
}

// Resource is a func bound by //mcp:resource.
type Resource struct {
	URI         string
	Name        string
	Title       string
	MIMEType    string
	Description string
	Icons       []string
	Scopes      []string // scopes= (space separated): OAuth scopes a caller needs

	Func       Func
	Result     TypeRef
	ResultKind ResultKind // ResultString, ResultBytes, ResultStruct or ResultReadResourceResult
	Pos        token.Position
}

// ResourceTemplate is a func bound by //mcp:resourceTemplate.
type ResourceTemplate struct {
	URITemplate string // RFC 6570 template, e.g. "weather://{city}/current"
	Name        string
	Title       string
	MIMEType    string
	Description string
	Icons       []string
	Scopes      []string // scopes= (space separated): OAuth scopes a caller needs

	Func       Func
	Args       *TypeRef   // the variables struct; nil only when the template has no variables
	Vars       []ArgField // one per template variable, in template order; Name is the variable name
	Complete   string     // complete=: the completion method (on the receiver) or func
	Result     TypeRef
	ResultKind ResultKind // as for Resource
	Pos        token.Position
}
