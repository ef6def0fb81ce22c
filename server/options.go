package server

import (
	"context"
	"log/slog"
	"time"
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
	// Cache is the default ttlMs/cacheScope of cacheable results
	// (server/discover, the list results, resources/read). The zero value
	// is ttlMs 0 and cacheScope "public".
	Cache CachePolicy
	// StateKeys is the requestState key ring (multi round-trip): the first
	// key seals, every key opens, each at least 16 bytes. Replicas that must
	// continue each other's requests share the ring; rotation is described
	// in statekeys.go and the README. ParseStateKeys reads the
	// MCPGEN_STATE_KEYS form. With no key, a random key per process is used
	// and Run says so once at start-up.
	StateKeys [][]byte
	// StateKey is a single key, put before StateKeys in the ring (kept for
	// callers that set one key).
	StateKey []byte
	// StateTTL is how long a sealed requestState stays valid (default 15
	// minutes), to the millisecond.
	StateTTL time.Duration
	// PageSize is the number of items per page of list results (0: all).
	// A list's cursor names the list and the items around the page's end,
	// with no secret: another replica with the same registrations reads it,
	// and removing items between pages skips none that stayed.
	PageSize int
	// Tools, Prompts, Resources and ResourceTemplates are registered at New.
	Tools             []Tool
	Prompts           []Prompt
	Resources         []Resource
	ResourceTemplates []ResourceTemplate
	// Extensions are the protocol extensions the server serves besides the
	// built-in tasks extension (see Extension).
	Extensions []Extension
	// Handlers are user values implementing generated handler interfaces
	// (mcp.ToolsHandler, mcp.CompletionHandler, …) that take over the
	// matching requests from the registries.
	Handlers []any
	// HTTP configures the Streamable HTTP handler Run serves: the Host and
	// Origin values accepted besides loopback (a server behind a load
	// balancer or in a container lists its public names, or "*"), limits.
	HTTP HTTPOptions
	// Cluster connects the server to its other replicas behind a load
	// balancer (the modules under cluster/: NATS, Redis): list changes and
	// resource updates reach every replica's listen streams, and tasks are
	// shared. nil (the default) is one process that shares nothing.
	Cluster Cluster
	// OnRemoteChange is called for every list change or resource update
	// another replica published, before this replica's listen streams hear
	// it, so the application can apply it here through Server.Local()
	// (which does not publish it again).
	OnRemoteChange func(*Server, Change)
	// Limits bound requests in flight, their duration, streams (per client too), sessions,
	// tasks per client, the HTTP server of Run, and the drain on shutdown;
	// the zero value has safe defaults (see Limits).
	Limits Limits
	// Logger receives the server's own diagnostics (never stdout); the
	// default writes warnings and errors to stderr.
	Logger *slog.Logger
	// Interceptors wrap the handling of every request, in both eras and on
	// every transport, the first outermost (see Interceptor and Chain;
	// Recover and LogRequests are two). None: the request path does not
	// look for them.
	Interceptors []Interceptor
	// ToolMiddleware wraps the execution of every registered tool (see
	// ToolMiddleware), the first outermost, outside the middleware a tool
	// got from WrapTool.
	ToolMiddleware []ToolMiddleware
	// Visible, when set, decides for each request which registered tools,
	// prompts, resources and resource templates exist for its caller (by
	// Principal, ClientCapabilities, ClientInfo, …): the lists leave out
	// the others, and calling one is answered as for an unknown name
	// (tools/call, prompts/get: -32602 unknown; resources/read: -32602
	// Resource not found; completion/complete: -32602 unknown reference).
	// It applies to the registries, not to Options.Handlers.
	Visible func(ctx context.Context, item Item) bool
}

// CachePolicy is the ttlMs and cacheScope a cacheable result carries.
type CachePolicy struct {
	TTLMs int64
	// Scope is "public" or "private"; empty means "public". Any other
	// value fails closed: the result is sent as "private", never shared.
	Scope string
}

func (p CachePolicy) normalized() CachePolicy {
	if p.TTLMs < 0 {
		p.TTLMs = 0
	}
	switch p.Scope {
	case "", "public":
		p.Scope = "public"
	default:
		p.Scope = "private" // "private", or a scope we do not know: fail closed
	}
	return p
}
