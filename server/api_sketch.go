package server

// API SKETCH — the public surface of the runtime that other code is written
// against (the code `mcpgen tools` emits, examples, tests). The runtime
// author replaces the panics with real implementations and may split this
// file; the names and signatures below are a contract.

import (
	"context"
	"encoding/json"
	"io"
	"net/http"

	"github.com/mcpgen/mcpgen/jsonrpc"

	"github.com/mcpgen/mcpgen/generated/mcp"
)

// APIVersion1 is referenced by generated code (`const _ = server.APIVersion1`)
// so that code generated for another runtime fails to build with a clear name.
const APIVersion1 = true

// Options configure a Server. Configuration mistakes are reported by New.
type Options struct {
	// Name, Version and Title identify the server (serverInfo, discover).
	Name, Version, Title string
	// Instructions are returned by server/discover.
	Instructions string
	// Cache is the default ttlMs/cacheScope of cacheable results.
	Cache CachePolicy
	// StateKey seals requestState (multi round-trip). Replicas that must
	// continue each other's requests share one key; empty means a random key
	// per process.
	StateKey []byte
	// PageSize is the number of items per page of list results (0: all).
	PageSize int
	// Tools, Prompts, Resources and ResourceTemplates are registered at New.
	Tools             []Tool
	Prompts           []Prompt
	Resources         []Resource
	ResourceTemplates []ResourceTemplate
	// Handlers are user values implementing generated handler interfaces
	// (mcp.ToolsHandler, mcp.CompletionHandler, …) that take over the
	// matching requests from the registries.
	Handlers []any
}

// CachePolicy is the ttlMs and cacheScope a cacheable result carries.
type CachePolicy struct {
	TTLMs int64
	Scope string // "public" or "private"
}

// Server serves MCP 2026-07-28 (and, later, legacy clients) over any
// transport. It is safe for concurrent use.
type Server struct{ _ struct{} }

// New builds a server; invalid or duplicate tool names and other
// configuration errors are returned here, not at the first call.
func New(opts Options) (*Server, error) { panic("TODO") }

// AddTools adds (or replaces) tools at run time and notifies listeners.
func (s *Server) AddTools(tools ...Tool) error { panic("TODO") }

// RemoveTools removes tools by name and notifies listeners.
func (s *Server) RemoveTools(names ...string) { panic("TODO") }

// ToolInfo is what a tool declares besides its function.
type ToolInfo struct {
	Name, Title, Description string
	Annotations              *mcp.ToolAnnotations
	Icons                    []mcp.Icon
}

// Tool is a tool ready to register, made by NewTool.
type Tool struct{ _ struct{} }

// NewTool binds a typed function as a tool. The inputSchema is derived from
// In (a struct, via argschema) and, when Out is a struct, the outputSchema
// from Out. Arguments are validated (defaults applied) before fn runs. Out
// may be a struct (structuredContent plus a JSON text rendering), a string,
// []mcp.ContentBlock or *mcp.CallToolResult. An error from fn becomes a
// result with isError and the error's text; a panic becomes -32603.
func NewTool[In, Out any](info ToolInfo, fn func(ctx context.Context, in In) (Out, error)) Tool {
	panic("TODO")
}

// PromptInfo is what a prompt declares besides its function.
type PromptInfo struct {
	Name, Title, Description string
	Icons                    []mcp.Icon
}

// Prompt is a prompt ready to register, made by NewPrompt.
type Prompt struct{ _ struct{} }

// NewPrompt binds a typed function as a prompt; the fields of In (strings)
// are its arguments. Out may be *mcp.GetPromptResult, []mcp.PromptMessage or
// string (one user message).
func NewPrompt[In, Out any](info PromptInfo, fn func(ctx context.Context, in In) (Out, error)) Prompt {
	panic("TODO")
}

// ResourceInfo describes a fixed resource.
type ResourceInfo struct {
	URI, Name, Title, Description, MIMEType string
	Icons                                   []mcp.Icon
}

// Resource is a resource ready to register, made by NewResource.
type Resource struct{ _ struct{} }

// NewResource binds a function that reads one resource. Out may be string
// (text), []byte (blob), a struct (JSON text) or *mcp.ReadResourceResult.
func NewResource[Out any](info ResourceInfo, fn func(ctx context.Context) (Out, error)) Resource {
	panic("TODO")
}

// ResourceTemplateInfo describes a resource template (RFC 6570).
type ResourceTemplateInfo struct {
	URITemplate, Name, Title, Description, MIMEType string
	Icons                                           []mcp.Icon
}

// ResourceTemplate is a template ready to register.
type ResourceTemplate struct{ _ struct{} }

// NewResourceTemplate binds a function reading the resources that match a
// URI template; the template's variables fill the string fields of Vars by
// their json names.
func NewResourceTemplate[Vars, Out any](info ResourceTemplateInfo, fn func(ctx context.Context, vars Vars) (Out, error)) ResourceTemplate {
	panic("TODO")
}

// Completer is an optional interface of a prompt's or template's Vars/In
// struct value: argument completion for completion/complete.
type Completer interface {
	Complete(ctx context.Context, argument, value string, context map[string]string) ([]string, error)
}

// Ask returns the client's answer to an input request for this request (a
// multi round-trip request: elicitation, sampling or roots). When the client
// has not answered yet, it returns an *InputRequiredError: the handler
// returns it as its error and the runtime answers with InputRequiredResult
// (modern clients) or sends the request to the client (legacy sessions).
func Ask(ctx context.Context, key string, req mcp.InputRequest) (mcp.InputResponse, error) {
	panic("TODO")
}

// InputRequiredError carries the input requests a handler still needs.
type InputRequiredError struct {
	Requests map[string]mcp.InputRequest
}

func (e *InputRequiredError) Error() string { return "input required" }

// State returns the requestState the handler stored in an earlier round
// (verified; nil when none); SetState stores state for the next round.
func State(ctx context.Context) json.RawMessage                 { panic("TODO") }
func SetState(ctx context.Context, state json.RawMessage) error { panic("TODO") }

// Progress reports progress for the current request when the client asked
// for it (a progressToken); otherwise it does nothing.
func Progress(ctx context.Context, progress, total float64, message string) { panic("TODO") }

// Log sends a log message for the current request when the client asked
// for one at this level (io.modelcontextprotocol/logLevel); otherwise nothing.
func Log(ctx context.Context, level mcp.LoggingLevel, logger string, data any) { panic("TODO") }

// ClientCapabilities returns the capabilities the current request declared.
func ClientCapabilities(ctx context.Context) *mcp.ClientCapabilities { panic("TODO") }

// RequireCapabilities returns an error answered with -32021
// (MissingRequiredClientCapability, data.requiredCapabilities) unless the
// current request declared the given client capabilities.
func RequireCapabilities(ctx context.Context, required mcp.ClientCapabilities) error {
	panic("TODO")
}

// ---- transports ----

// MessageWriter carries the notifications that belong to the message being
// handled (progress, log messages, a listen stream's notifications) back to
// the client, on the same stdio connection or HTTP response stream.
type MessageWriter interface {
	Notify(method string, params any) error
}

// Response is the outcome of handling one message.
type Response struct {
	// Body is the encoded JSON-RPC response, nil for a notification.
	Body []byte
	// Code is the JSON-RPC error code of an error response, 0 on success;
	// HTTP maps it to a status (httpwire.StatusForCode).
	Code int64
}

// Handle answers one decoded message: the transport-independent core every
// transport calls. It blocks while the handler runs (and, for
// subscriptions/listen, until the stream ends); ctx cancellation cancels the
// handler and suppresses the response.
func (s *Server) Handle(ctx context.Context, msg jsonrpc.Message, w MessageWriter) Response {
	panic("TODO")
}

// SupportedVersions lists the protocol versions the server speaks, newest first.
func (s *Server) SupportedVersions() []string { panic("TODO") }

// ServeStdio serves newline-delimited JSON-RPC on in/out until in ends or
// ctx is done; many requests are in flight at once and one writer keeps
// lines whole.
func (s *Server) ServeStdio(ctx context.Context, in io.Reader, out io.Writer) error { panic("TODO") }

// HTTPOptions configure the Streamable HTTP handler.
type HTTPOptions struct {
	// Origins and Hosts allowed besides loopback (DNS-rebinding protection).
	AllowedOrigins, AllowedHosts []string
	// MaxBodyBytes limits a request body (default 4 MiB).
	MaxBodyBytes int64
}

// HTTPHandler serves Streamable HTTP; mount it at /mcp in any mux.
func (s *Server) HTTPHandler(opts HTTPOptions) http.Handler { panic("TODO") }

// Run serves stdio when httpAddr is empty, else Streamable HTTP at /mcp on
// httpAddr, until ctx is done; then it shuts down, closing listen streams.
func (s *Server) Run(ctx context.Context, httpAddr string) error { panic("TODO") }

// Shutdown ends every open listen stream with its result and stops new work.
func (s *Server) Shutdown(ctx context.Context) error { panic("TODO") }

// ResourceUpdated notifies listeners subscribed to uri.
func (s *Server) ResourceUpdated(uri string) { panic("TODO") }

// Caller returns an in-memory mcp.Caller for mcp.NewClient: each call goes
// through Handle with the modern _meta filled in, as tests and Go hosts use it.
func (s *Server) Caller(opts CallerOptions) mcp.Caller { panic("TODO") }

// CallerOptions set the _meta an in-memory caller sends.
type CallerOptions struct {
	ClientInfo         mcp.Implementation
	ClientCapabilities mcp.ClientCapabilities
	LogLevel           mcp.LoggingLevel
}
