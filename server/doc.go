// Package server is the mcpgen runtime: it serves the Model Context
// Protocol, revision 2026-07-28, statelessly, over stdio (ServeStdio), over
// Streamable HTTP (HTTPHandler) and in memory (Caller); every transport
// also serves initialize-era clients (2025-11-25, 2025-06-18, 2025-03-26,
// 2024-11-05), in legacy sessions.
//
// # Building a server
//
// Tools, prompts and resources are typed Go functions bound with NewTool,
// NewPrompt, NewResource and NewResourceTemplate (the code `mcpgen tools`
// generates calls these, and BindTool, NewTool without generics) and
// registered through Options or at run time
// (AddTools, RemoveTools, AddPrompts, AddResources, …). Hand-written values
// implementing the generated handler interfaces (mcp.ToolsHandler, …) passed
// in Options.Handlers take over their methods instead. New reports every
// configuration mistake (invalid or duplicate tool names, schemas that are
// not objects, bad x-mcp-header annotations, …).
//
// # Requests
//
// Handle is the transport-independent core. Every request must carry
// _meta with io.modelcontextprotocol/protocolVersion and
// io.modelcontextprotocol/clientCapabilities (-32602 otherwise); an
// unsupported version is -32022 with data {supported, requested}, supported
// being SupportedVersions; unknown methods, and removed ones (ping,
// logging/setLevel, resources/subscribe|unsubscribe, initialize) sent with
// a modern _meta, are -32601. server/discover is always
// answered, with the capabilities the registries and handlers imply. Every
// result carries resultType and _meta.io.modelcontextprotocol/serverInfo;
// discover, the list results and resources/read carry ttlMs and cacheScope
// (Options.Cache, SetCachePolicy, or the result's own). Handlers read the
// request's context with ClientCapabilities, ProtocolVersion and
// ClientInfo, report with Progress and Log (sent only when the request asked
// with a progressToken / logLevel), and refuse with RequireCapabilities
// (-32021).
//
// # Limits, rate limits and CORS
//
// Options.Limits bounds what clients can make the server hold (Limits); a
// request a limit refuses is answered at once with -32603 and data.reason
// "busy", "quota" or "shutdown" (HTTP 503 with Retry-After). Limits.Rate
// throttles each client (RateLimit: the principal, else the HTTP remote
// IP or the stdio connection) with a token bucket; a request over it gets
// -32603 with data {"reason":"rate_limited","retryAfter":N}, over HTTP 429
// Too Many Requests with Retry-After: N. HTTPOptions.CORS (CORSOptions,
// off by default) answers browsers' preflights from the listed origins
// before authentication and exposes Mcp-Session-Id, WWW-Authenticate and
// Retry-After to their pages.
//
// # Multi round-trip requests
//
// A tool, prompt or resource that needs client input calls Ask; while the
// client has not answered, the request ends with an InputRequiredResult
// listing every unanswered request. State for later rounds is stored with
// SetState and read with State; it travels in requestState, sealed with
// AES-256-GCM under Options.StateKey and bound to the request's method,
// name and arguments with an expiry, so any replica sharing the key can
// continue the request and tampered or foreign state is -32602. An input
// request, from Ask or from an InputRequiredError the handler returns,
// goes only to a client that declared its capability (-32021); each answer
// is decoded as the result of the request its key asked for.
//
// # Extensions
//
// An Extension (Options.Extensions) declares a protocol extension: its ID,
// the settings object the server declares under capabilities.extensions,
// the methods it adds (NewMethod: typed params and result) and what it
// needs (server features, the client's declaration). Extension methods are
// served like core methods: the same _meta checks and error codes, results
// completed with resultType, serverInfo and, for cacheable methods, ttlMs
// and cacheScope. The tasks extension below is built on it; package skills
// (the Skills extension, SEP-2640) uses it from outside.
//
// # Tasks extension
//
// A tool whose ToolInfo.TaskSupport is optional or required serves the
// io.modelcontextprotocol/tasks extension (SEP-2663; advertised in
// server/discover's capabilities.extensions). On a tools/call whose
// clientCapabilities declare the extension, the tool runs in its own
// goroutine and the answer is a flat CreateTaskResult (resultType "task",
// taskId, status, createdAt, lastUpdatedAt, ttlMs, pollIntervalMs);
// tasks/get returns the task with the tool's result (or the JSON-RPC error,
// status failed) inlined once terminal, tasks/update answers the input
// requests of a task parked input_required (Ask works in a task as in a
// multi round-trip request), and tasks/cancel stops it. Without the
// extension, optional tools answer inline, required ones and the tasks
// methods are -32021. ToolInfo.BeforeTask gathers input inline before the
// task exists. Tasks are kept in memory for their ttlMs, bounded in number
// and per client (Limits.MaxTasksPerClient); Shutdown lets running tasks
// finish within its grace and marks the rest failed with a reason. A
// subscriptions/listen whose filter lists taskIds (the caller's own tasks;
// the extension declared, else -32021) gets notifications/tasks, the
// DetailedTask tasks/get would answer, once at the start and on every
// status change — from every replica of a cluster.
//
// # Subscriptions
//
// subscriptions/listen streams run inside Handle: the acknowledgement (with
// the honoured filter) comes first, then tools/prompts/resources
// list_changed and resources/updated notifications (ResourceUpdated), all
// tagged with io.modelcontextprotocol/subscriptionId, until the client
// cancels or Shutdown ends the stream with its result.
//
// # Legacy clients (dual era)
//
// The era is chosen in one place for every transport, from the one parse
// of the message (basic/versioning.mdx, "Backward Compatibility"): a
// request carrying a usable modern _meta is served statelessly as above
// (when it names an initialize-era version, by a session made from that
// _meta, for that request); an initialize request without it (or with one
// naming an initialize-era version) opens a legacy session — for that call
// with Handle and the in-memory Caller, for the rest of the stdio
// connection, or for the Mcp-Session-Id the HTTP response mints (GET
// opens the session's SSE stream, DELETE ends it, an unknown id is 404).
// The session negotiates the
// client's version when it is a legacy one (else 2025-11-25), answers ping,
// logging/setLevel and resources/subscribe|unsubscribe itself, and serves
// tools, prompts, resources and completion with the same handlers,
// converting results to the negotiated revision (no resultType, ttlMs,
// cacheScope or serverInfo _meta; content kinds the revision lacks become
// text). In a session, Ask sends a real elicitation/create,
// sampling/createMessage or roots/list request to the client and blocks
// for the answer (not in a request served on its own from an
// initialize-era _meta, whose answer could not come back: there Ask fails
// at once with -32603 saying the request needs a session); Log follows
// logging/setLevel; list_changed and
// resources/updated notifications are sent unsolicited. One process serves
// both eras at once; SupportedVersions (and server/discover) list them all.
//
// # Middleware and observability
//
// Options.Interceptors wrap every request the server answers, in both eras
// and on every transport (an Interceptor sees the method, id, params,
// _meta, name, session and version of a Request, the caller through
// Principal(ctx), and the result or error; it may refuse a request or
// replace its outcome). Chain composes them, the first outermost. Recover
// turns a panic into -32603 and logs it (the server also recovers on its
// own); LogRequests logs each request through a *slog.Logger at a level
// chosen by its outcome (Outcome.Level). Tool execution has its own
// middleware: WrapTool for one tool, Options.ToolMiddleware for all.
// Options.Visible hides tools, prompts, resources and templates per
// request: from the lists and from calls, which are answered as for an
// unknown name. ClientLogHandler is a slog.Handler that sends records to
// the client as notifications/message when the client asked for that
// level (LoggingLevel maps the levels). With none of this configured the
// request path is unchanged. OpenTelemetry tracing and metrics are in the
// module github.com/mcpgen/mcpgen/otel.
package server
