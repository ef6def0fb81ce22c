package server

import (
	"context"
	"encoding/json"
	"net/http"
	"strconv"
	"time"

	"github.com/mcpgen/mcpgen/internal/httpwire"
	"github.com/mcpgen/mcpgen/internal/jsonscan"
	"github.com/mcpgen/mcpgen/jsonrpc"
)

// HTTPOptions configure the Streamable HTTP handler.
type HTTPOptions struct {
	// Origins and Hosts allowed besides loopback (DNS-rebinding protection).
	// An internationalized name must be written in its ASCII form, the one
	// browsers send (xn--bcher-kva.example, not bücher.example): New
	// refuses a name that is not ASCII, and HTTPHandler panics on one.
	AllowedOrigins, AllowedHosts []string
	// MaxBodyBytes limits a request body (default 4 MiB).
	MaxBodyBytes int64
	// Auth, when set, makes the endpoint an OAuth 2.1 resource server:
	// every request needs a valid bearer token (auth_http.go). Serve its
	// Protected Resource Metadata too (Auth.Mount).
	Auth *Auth
	// CORS lets web pages of the listed origins call the endpoint from a
	// browser (preflights, exposed headers); off by default (cors.go).
	CORS CORSOptions
	// KeepAlive is the longest a subscriptions/listen stream (or a legacy
	// GET stream) stays silent before it gets an SSE comment, so that
	// proxies and load balancers do not drop it as idle. 0 means the
	// default, 15 s; a value under 1 s is raised to 1 s; a negative value
	// sends none (for deployments where nothing between the client and the
	// server drops quiet connections: idle streams then cost no CPU).
	KeepAlive time.Duration
}

// HTTPHandler serves Streamable HTTP; mount it at /mcp in any mux.
//
// The handler is path-agnostic: it serves every request routed to it as the
// MCP endpoint. Each POST carries one JSON-RPC message. A request is
// answered with application/json, or with a text/event-stream (SSE) response
// as soon as its handler sends a notification (progress, log messages, the
// acknowledgement of subscriptions/listen) before the response; a
// notification is answered 202 Accepted. The client closing the connection
// cancels the request's context. With opts.CORS, a browser's preflight from
// an allowed origin is answered first (204, before authentication) and its
// requests get the CORS headers (cors.go). With opts.Auth, every request first needs
// a valid bearer token (auth_http.go: Host/Origin, then 400/401/403 with a
// WWW-Authenticate challenge). Requests are checked before they reach
// the core, in this order: Host/Origin (403; loopback names plus
// opts.AllowedHosts/AllowedOrigins), method (405, POST only), Content-Type
// (415), Accept (406), body size (413), JSON-RPC envelope (400 -32700/-32600)
// and the request metadata headers against the body (400 -32020, or -32022
// for an unsupported version). Mcp-Session-Id is minted only for legacy
// (initialize-era) sessions; see the package doc, "Legacy clients".
//
// Served by an http.Server, the handler applies Options.Limits per request:
// the body read deadline (ReadTimeout, lifted once the body is read), a
// deadline on every write (WriteTimeout, renewed as a stream goes on), the
// in-flight and stream caps (503 with Retry-After), the client's rate
// (Limits.Rate: 429 with Retry-After). Leave the http.Server's
// own ReadTimeout and WriteTimeout unset: they would end long listen
// streams. For a graceful stop, call http.Server.Shutdown (it closes the
// listener at once and waits for open requests) and (*Server).Shutdown
// together, as Run does (drain.go): listen streams end with their result,
// in-flight requests finish within the grace, the rest are answered.
//
// HTTPHandler panics when opts lists a Host or Origin name that is not
// ASCII (see HTTPOptions.AllowedOrigins): such a name never matches what
// a browser sends. New returns the same error for Options.HTTP.
func (s *Server) HTTPHandler(opts HTTPOptions) http.Handler {
	if err := opts.checkNames(); err != nil {
		panic(err.Error())
	}
	return s.limitHTTP(newHTTPHandler(s, opts).withCORS(newCORSPolicy(opts.CORS)))
}

// defaultKeepAlive is the longest a subscriptions/listen stream (or a
// legacy GET stream) stays silent: one that carried nothing for that long
// gets an SSE comment (keepalive.go). 15 s is what the WHATWG SSE text
// suggests against proxies that drop quiet connections ("every 15 seconds
// or so") and stays under the idle timeouts of common intermediaries with
// room to spare (nginx proxy_read_timeout 60 s, Debian's haproxy.cfg 50 s,
// and the 20–30 s some load balancers use). Its cost is one small write
// per idle stream per interval: about 10 µs of CPU each on the bench
// machine, 0.6 ms/s for 1 000 idle streams.
const defaultKeepAlive = 15 * time.Second

// minKeepAlive is the shortest HTTPOptions.KeepAlive: shorter intervals
// would make the shared keep-alive loop the busiest part of an idle server.
const minKeepAlive = time.Second

// keepAliveOf is the keep-alive interval HTTPOptions.KeepAlive asks for;
// 0 means none.
func keepAliveOf(d time.Duration) time.Duration {
	switch {
	case d == 0:
		return defaultKeepAlive
	case d < 0:
		return 0
	}
	return max(d, minKeepAlive)
}

// methodListen is the long-lived subscription request.
const methodListen = "subscriptions/listen"

// methodCancelled is the stdio-only cancellation notification; on HTTP
// closing the response stream cancels a request (transports/streamable-http).
const methodCancelled = "notifications/cancelled"

// httpHandler is the http.Handler returned by HTTPHandler.
type httpHandler struct {
	core      httpCore
	params    paramHeaderSource // nil: no Mcp-Param-* checks
	policy    httpwire.OriginPolicy
	maxBody   int64
	keepAlive time.Duration
	auth      *Auth // nil: no authorization
	// versions is core.SupportedVersions(), read once: the header checks
	// of every request use it (it was copied per request).
	versions []string
}

func newHTTPHandler(core httpCore, opts HTTPOptions) *httpHandler {
	policy := httpwire.LoopbackPolicy()
	policy.AllowedOrigins = append(policy.AllowedOrigins, opts.AllowedOrigins...)
	policy.AllowedOrigins = append(policy.AllowedOrigins, opts.CORS.AllowedOrigins...)
	policy.AllowedHosts = append(policy.AllowedHosts, opts.AllowedHosts...)
	h := &httpHandler{core: core, policy: policy, maxBody: opts.MaxBodyBytes, keepAlive: keepAliveOf(opts.KeepAlive), auth: opts.Auth,
		versions: core.SupportedVersions()}
	if h.maxBody <= 0 {
		h.maxBody = httpwire.DefaultMaxBodyBytes
	}
	h.params, _ = core.(paramHeaderSource)
	return h
}

// ServeHTTP implements http.Handler.
//
// A POST body is read and parsed once (jsonrpc.Decode, then parseRequest):
// the era choice, the header checks and the core all act on that one parse.
// Legacy (initialize-era) traffic — an initialize POST without a usable
// modern _meta, a request without one that carries Mcp-Session-Id, a
// session's notifications and responses, its GET stream or DELETE — is
// served by the server's legacy sessions (legacy_http.go).
func (h *httpHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if h.auth != nil {
		var ok bool
		if r, ok = h.auth.admit(w, r, h.policy, h.logger()); !ok {
			return
		}
	}
	if h.serveLegacyStream(w, r) {
		return
	}
	if rej := h.checkTransport(r); rej != nil {
		_ = rej.Write(w, nil)
		return
	}
	body, rej := httpwire.ReadBody(w, r, h.maxBody)
	if rej != nil {
		_ = rej.Write(w, nil)
		return
	}
	if jsonscan.Kind(body) == '[' && h.serveLegacyBatch(w, r, body) { // legacy_batch.go
		return
	}
	msg, derr := jsonrpc.DecodeOwned(body) // the body is read into a buffer of its own
	if derr != nil {
		writeJSON(w, httpwire.StatusForCode(derr.Code), jsonrpc.AppendError(nil, msg.ID, derr))
		return
	}
	var pr parsedRequest
	if msg.Kind == jsonrpc.KindRequest {
		pr = parseRequest(msg)
	} else {
		pr.msg = msg
	}
	if h.serveLegacyPost(w, r, &pr) {
		return
	}
	checked, rej := h.checkHeaders(r, &pr)
	if rej != nil {
		_ = rej.Write(w, rawID(msg.ID))
		return
	}
	if msg.Kind == jsonrpc.KindNotification {
		// On HTTP, notifications/cancelled is not used (closing the stream
		// cancels): it must not reach a cancellation table keyed by ids
		// that other clients chose.
		if msg.Method != methodCancelled {
			h.core.Handle(r.Context(), msg, discardWriter{})
		}
		w.WriteHeader(http.StatusAccepted)
		return
	}
	h.serveRequest(w, r, &pr, checked)
}

// checkTransport applies the checks that need no body: Host/Origin, HTTP
// method, Content-Type and Accept.
func (h *httpHandler) checkTransport(r *http.Request) *httpwire.Rejection {
	if rej := h.policy.Check(r); rej != nil {
		return rej
	}
	if rej := httpwire.CheckMethod(r.Method); rej != nil {
		return rej
	}
	if rej := httpwire.CheckContentType(r.Header); rej != nil {
		return rej
	}
	return httpwire.CheckAccept(r.Header)
}

// checkHeaders validates the request metadata headers against the one
// parse of the body; checked reports whether they were validated. Responses
// from the client are refused. A request whose _meta is not usable (missing
// or malformed protocolVersion or clientCapabilities, duplicate members)
// skips the header checks: the core answers it with -32602, which takes
// precedence over a header mismatch (SERVER-CHECKLIST A-order; conformance
// server-stateless probe 102), and nothing runs. Every fact compared comes
// from pr, which is exactly what the core acts on: members the core does
// not read (METHOD, NAME, _META, Arguments, PARAMS, case or Unicode-folded
// variants) are not read here either.
func (h *httpHandler) checkHeaders(r *http.Request, pr *parsedRequest) (checked bool, rej *httpwire.Rejection) {
	msg := pr.msg
	facts := httpwire.BodyFacts{Method: msg.Method}
	switch msg.Kind {
	case jsonrpc.KindResponse, jsonrpc.KindErrorResponse:
		return false, &httpwire.Rejection{Status: http.StatusBadRequest, Code: httpwire.CodeInvalidRequest,
			Message: "Invalid Request: clients must not send JSON-RPC responses"}
	case jsonrpc.KindNotification:
		facts.Kind = httpwire.KindNotification
	case jsonrpc.KindRequest:
		if !pr.metaUsable() {
			return false, nil
		}
		facts.ProtocolVersion = pr.meta.protocolVersion
		if field, ok := httpwire.NameField(msg.Method); ok {
			facts.Name, facts.HasName = pr.nameParam(field)
		}
		if msg.Method == "tools/call" {
			facts.Arguments = pr.params.arguments
			if facts.HasName && h.params != nil {
				facts.ParamHeaders = h.params.toolParamHeaders(facts.Name)
			}
		}
	}
	rules := httpwire.HeaderRules{SupportedVersions: h.versions}
	return true, rules.Check(r.Header, facts)
}

// serveRequest runs a request through the core and writes its response as
// JSON or, once a notification preceded it, as the end of an SSE stream.
// An error for a request whose headers were not checked (its _meta is
// not usable) gets 400 whatever its code: such a request fails the
// transport's validation, and a legacy client's initialize is "rejected per
// server validation with 400" (versioning.mdx, compatibility matrix).
func (h *httpHandler) serveRequest(w http.ResponseWriter, r *http.Request, pr *parsedRequest, checked bool) {
	st := newHTTPStream(r.Context(), w, pr.msg.Method == methodListen, h.keepAlive)
	st.invalid = !checked
	resp, ok := h.serveLimited(w, r, pr.msg, func(ctx context.Context) Response { return h.core.serveStateless(ctx, pr, st) })
	if !ok {
		return
	}
	if h.auth != nil && st.finishDenied(r, pr.msg.ID) {
		return
	}
	st.finish(pr.msg.ID, resp)
}

// rawID returns the JSON text of id for a Rejection, nil for the zero ID.
func rawID(id jsonrpc.ID) json.RawMessage {
	if id.IsZero() {
		return nil
	}
	return json.RawMessage(id.String())
}

// writeJSON writes one JSON body with the given status. Its length goes in
// Content-Length, so a large reply is one write, not a chunked stream, and
// the client can size its buffer.
func writeJSON(w http.ResponseWriter, status int, body []byte) {
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(status)
	_, _ = w.Write(body)
}

// discardWriter drops notifications (a notification has no response stream).
type discardWriter struct{}

func (discardWriter) Notify(string, any) error { return errNoStream }
