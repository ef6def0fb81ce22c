// Package bind finds the //mcp: directives of one Go package and checks the
// funcs they annotate, producing the model `mcpgen tools` emits adapters from.
//
// It is a build-time package (it loads code with golang.org/x/tools/go/packages)
// and is never imported by a running server. It also derives every tool's
// inputSchema and outputSchema from go/types (schema.go), in the tag dialect
// of github.com/invopop/jsonschema, whose Schema type models and encodes
// them; [Emit] writes them into mcp_gen.go, so a server built from it links
// the validator but not the reflection library.
//
// # Directives
//
// A directive is a line comment in the doc comment of a func or method,
// written like a Go directive, with no space after the slashes:
//
//	// CurrentWeather gets current weather information for any location worldwide.
//	//
//	//mcp:tool name=weather_current title="Weather Information" readOnly openWorld
//	func (s *Service) CurrentWeather(ctx context.Context, in WeatherArgs) (WeatherReport, error)
//
// Grammar (whitespace separates items; keys are case-sensitive):
//
//	directive = "//mcp:" kind { item }
//	kind      = "tool" | "prompt" | "resource" | "resourceTemplate"
//	item      = key [ "=" value ]
//	key       = letter { letter | digit | "_" }
//	value     = bare | quoted
//	bare      = any characters up to the next space
//	quoted    = a Go double-quoted string literal ("a \"b\" c")
//
// A flag key alone means true; flag=true and flag=false are also accepted
// (use destructive=false or openWorld=false to contradict the MCP defaults).
// Every other key needs a value. A key may appear once, except icon.
//
//	kind              keys
//	tool              name, title, icon, readOnly, destructive, idempotent, openWorld (flags), scopes,
//	                  taskSupport, meta, inputSchema, outputSchema
//	prompt            name, title, icon, scopes, complete
//	resource          uri (required, absolute URI), name, title, mimeType, icon, scopes
//	resourceTemplate  uriTemplate (required, RFC 6570), name, title, mimeType, icon, scopes, complete
//
// taskSupport=optional|required makes the tool run as a task of the tasks
// extension (server.ToolInfo.TaskSupport). meta=C, inputSchema=C and
// outputSchema=C name string constants of the package: the tool's _meta (a
// JSON object), and schemas used verbatim instead of derived ones (for
// keywords tags cannot express; checked at generate time). complete=M names
// the completion method of a prompt or template: a method of the bound
// method's receiver type (so it reaches the server's state), or a func of
// the package for a package-level func, shaped
// func(ctx context.Context, argument, value string, context map[string]string) ([]string, error).
//
// Values with spaces must be quoted (title="Weather Information"); an
// unquoted second word is an error saying so. "// mcp:tool" (a space after
// the slashes) is an ordinary Go comment and an error, not a silent no-op.
//
// scopes="a b" lists the OAuth scopes (space separated) a caller's access
// token needs to use the item (server.ToolInfo.Scopes and the like).
// icon=<URI> adds one icon source and may be repeated. When name is absent it
// is the snake_case of the Go func name (CurrentWeather → current_weather,
// GetHTTPStatus → get_http_status). Tool names must follow the MCP rules:
// 1 to 128 characters from A-Z, a-z, 0-9, '_', '-' and '.'. Tool names,
// prompt names, resource URIs and URI templates must be unique in the package.
//
// The description is the doc comment without its directive lines, written
// for a model rather than for Go doc: a leading func name is dropped
// ("CurrentWeather gets…" → "Gets…") and the lines of each paragraph are
// joined; paragraphs, list items and indented blocks are kept. A func carries at most one
// directive. Directives anywhere else (on types, vars, fields, inside bodies,
// or separated from the func by a blank line) are errors. Files marked
// "// Code generated … DO NOT EDIT." are not searched.
//
// # Signatures
//
// ctx is a context.Context, optional everywhere, and always the first
// parameter (anywhere else is an error). Args (and Vars) must be
// a named struct type taken by value; R is the first result, the second is
// always error. Generic and variadic funcs are rejected.
//
//	tool      func(ctx, Args) (R, error)  or  func(ctx) (R, error) for a tool without arguments
//	          R: a named struct or pointer to one (→ structuredContent + outputSchema),
//	             a string type (→ one text content), []mcp.ContentBlock, *mcp.CallToolResult
//	prompt    func(ctx, Args) (R, error)  or  func(ctx) (R, error)
//	          Args fields must be string types (or pointers to them): MCP prompt arguments are strings.
//	          R: *mcp.GetPromptResult, []mcp.PromptMessage, or a string type (→ one user message)
//	resource  func(ctx) (R, error)
//	          R: a string type (text), []byte (blob), a named struct (JSON text), *mcp.ReadResourceResult
//	template  func(ctx, Vars) (R, error)  — R as for resources
//	          Every template variable must match a string field of Vars by JSON name
//	          (json tag, else the Go field name; embedded structs are flattened).
//
// A func returning only error is not accepted: return a string such as "ok"
// (or a struct) so the model learns what happened. mcp is the package
// github.com/mcpgen/mcpgen/generated/mcp ([MCPPackagePath]).
//
// # Schemas
//
// The inputSchema of Args and the outputSchema of a struct result are
// derived from the Go types; argschema's package documentation describes
// the shape. Besides it: a named struct that contains itself is emitted
// once under "$defs" and referenced with "$ref" (the root with "#"); a
// named string type with declared constants (type Units string; const
// Metric Units = "metric") is an enum of their values, in source order,
// unless the field's tags list enum= values; in an outputSchema a field
// without omitempty (or omitzero) is required, and a nil-able one (pointer,
// slice, map) may be null. A description= (or title=) value keeps its
// commas when what follows cannot be a tag item (it starts with a space,
// or is a word that is no key): `description=City name, address, or
// lat,long` is all description. Every tag mistake is an error at its
// field: an unknown or misspelled key (with a did-you-mean), a key for
// another JSON type (minLength on an int), a value that does not parse
// (minimum=abc, uniqueItems=maybe, a bad pattern= regular expression), a
// default= or enum= value its own schema rejects, chan, func and complex
// fields, a JSONSchema or JSONSchemaExtend method (which only reflection
// could call: use inputSchema=).
//
// # Emitted file
//
// [Emit] renders the file `mcpgen tools` writes next to the funcs
// ([OutputFile], mcp_gen.go): for package-level funcs, and for each receiver
// type T, MCPTools, MCPPrompts, MCPResources and MCPResourceTemplates (those
// whose kind is bound) returning the runtime's values, and MCPRegister(opts
// *server.Options) appending them all:
//
//	opts := server.Options{Name: "weather", Version: "1.0.0"}
//	svc.MCPRegister(&opts) // methods of *Service
//	MCPRegister(&opts)     // package-level funcs
//	srv, err := server.New(opts)
//
// # Errors
//
// [Load] reports every problem it finds, not just the first, as an
// [ErrorList] of "file:line:col: message" entries sorted by position, file
// names relative to the working directory. Type errors elsewhere in the
// package (for example a stale generated file) are ignored unless they touch
// a bound signature.
package bind
