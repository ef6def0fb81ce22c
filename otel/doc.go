// Package mcpotel traces and measures an mcpgen server with OpenTelemetry
// (go.opentelemetry.io/otel). It is its own Go module,
// github.com/mcpgen/mcpgen/otel, so a server without telemetry links none
// of it.
//
// Interceptor returns a server.Interceptor (put it in
// server.Options.Interceptors) that follows the OpenTelemetry semantic
// conventions for MCP (open-telemetry/semantic-conventions-genai,
// docs/gen-ai/mcp.md, status Development; written against commit 0393513
// of that repository):
//
//   - one SERVER span per request, in both protocol eras and on every
//     transport, named "{mcp.method.name} {target}" where the target is
//     the name of a tool (tools/call) or prompt (prompts/get) the server
//     has registered, else "{mcp.method.name}" (resource URIs and names
//     the server does not know are not put in span names: their
//     cardinality is unbounded), and "_OTHER" for a method the server does
//     not know (server.Request.KnownMethod, KnownName);
//   - attributes mcp.method.name, jsonrpc.request.id, mcp.session.id
//     (legacy sessions), mcp.protocol.version, gen_ai.tool.name and
//     gen_ai.operation.name "execute_tool" (tools/call),
//     gen_ai.prompt.name (prompts/get), mcp.resource.uri (resources/read,
//     resources/subscribe, resources/unsubscribe); on failure error.type
//     (the JSON-RPC error code as a string, or "tool_error" for a
//     tools/call result with isError) and rpc.response.status_code (the
//     code), with the span status Error and the error message as its
//     description. A request the client cancelled ends without error.type.
//     The method, tool and prompt names are recorded as the client sent
//     them, cut to 256 bytes; mcp.protocol.version only when the server
//     speaks that version (a request refused -32022 has none). A panic in
//     what the interceptor wraps ends the span as the server answers it
//     (-32603, with an exception event) and goes on to the server's
//     recovery;
//   - the parent is the trace context in the request's params._meta
//     (traceparent, tracestate, baggage; basic/index.mdx reserves these
//     keys), extracted with the configured propagator (W3C Trace Context
//     and Baggage by default); a span already in the request's context
//     (an HTTP server span, for example) is linked, as the conventions
//     ask, and is the parent only when _meta carries none;
//   - the server span's context (traceparent, tracestate) is written
//     into the _meta of what the server sends for the request: the
//     result, its progress and log notifications, and a legacy session's
//     requests to the client (server.WithOutgoingMeta), so the client
//     sees which server span answered or asked
//     (Options.NoResultTraceContext turns this off);
//   - metrics: mcp.server.operation.duration (histogram, seconds, with the
//     conventions' bucket boundaries and the attributes above that have
//     low cardinality: mcp.method.name, error.type,
//     rpc.response.status_code, gen_ai.tool.name, gen_ai.prompt.name,
//     gen_ai.operation.name, mcp.protocol.version) whose count is the
//     number of requests and, with error.type, of errors. A client chooses
//     the method and the tool or prompt name freely, so a method the
//     server does not know, and a tool or prompt it has not registered
//     (or that only an Options.Handlers value answers), is recorded as
//     "_OTHER", the placeholder the OpenTelemetry conventions use for an
//     unknown http.request.method or rpc.method: a client sending made-up
//     names cannot push the server's real series past the SDK's
//     cardinality limit. Two more that the conventions do not define yet,
//     named after http.server.active_requests: mcp.server.active_requests
//     (requests in flight, by mcp.method.name, "_OTHER" as above) and
//     mcp.server.active_listen_streams (open subscriptions/listen
//     streams).
//
// Requests refused by the server's limits before they run (busy, shutdown)
// are answered before interceptors and are not traced; legacy HTTP GET
// streams are not requests and are not counted as listen streams.
package mcpotel
