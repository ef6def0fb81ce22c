package server

import (
	"context"
	"encoding/json"
	"log/slog"
	"runtime/debug"
	"unicode/utf8"

	"github.com/mcpgen/mcpgen/internal/jsonscan"
	"github.com/mcpgen/mcpgen/jsonrpc"
)

// Interceptors (Options.Interceptors) wrap the handling of every request
// the server answers, in both eras and on every transport: the stateless
// core's requests and every request of a legacy session (initialize, ping
// and logging/setLevel included). They run after the request was admitted
// by the server's limits (a request refused busy or shutdown never reaches
// them), in the handler's context, so Principal, ClientCapabilities,
// ProtocolVersion and ClientInfo work there, and a request cut off by
// Limits.RequestTimeout or the end of a drain reaches them as a context
// error.

// Request is one JSON-RPC request as an Interceptor sees it. It is read
// only: the server has already parsed the message once, and what its
// handlers act on is that parse (an interceptor cannot rewrite params).
type Request struct {
	// Method is the JSON-RPC method ("tools/call", "initialize", …).
	Method string
	// ID is the request's id.
	ID jsonrpc.ID
	// Params are the request's params as received, _meta included. They
	// may alias the transport's read buffer: copy what you keep after the
	// call returns.
	Params json.RawMessage
	// Meta is params._meta as received (nil when absent).
	Meta json.RawMessage
	// Name is what the request is about: params.name (tools/call,
	// prompts/get), params.uri (resources/read, resources/subscribe,
	// resources/unsubscribe) or params.taskId (tasks/*), chosen by the
	// method, never by which of them the params hold (targetMember); for
	// an extension method the one its MethodInfo.Target or Params names;
	// for another method the first of them the params hold as a string,
	// else "". It is "" when the method's member is absent or not a
	// string.
	Name string
	// SessionID is the id of the legacy session serving the request (the
	// HTTP Mcp-Session-Id; a stdio session's own id), "" in the stateless
	// era and for a request served alone in the revision its _meta names.
	SessionID string

	s    *Server
	pr   *parsedRequest // the core's parse (stateless era)
	sess *legacySession // the serving session (legacy era)
	msg  jsonrpc.Message
	w    MessageWriter
	// result is what the core answered (innermost): a result the chain
	// returns in its place is an interceptor's own, checked before it is
	// sent (runChain).
	result []byte
}

// ProtocolVersion returns the protocol version serving the request: the
// _meta's in the stateless era ("" when the server does not speak it: the
// request is refused -32022, and the string is whatever the client
// wrote), the session's negotiated version in a legacy session ("" while
// an initialize has not been answered; read it after calling next to see
// what initialize negotiated).
func (r *Request) ProtocolVersion() string {
	if r.sess != nil {
		return r.sess.ProtocolVersion()
	}
	if r.pr != nil && r.s != nil && r.s.supports(r.pr.meta.protocolVersion) {
		return r.pr.meta.protocolVersion
	}
	return ""
}

// Handler answers a request: the encoded result (the JSON-RPC result
// member, without the envelope), or an error. A *jsonrpc.Error is sent as
// it is; any other error is -32603 with its text. A result or error data
// an interceptor returns of its own must be JSON in UTF-8, or the request
// is answered -32603. A request whose context is cancelled gets no
// response whatever the handler returns.
type Handler func(ctx context.Context, req *Request) (json.RawMessage, error)

// Interceptor wraps a Handler: it can look at the request before calling
// next, refuse it by returning an error without calling next, and look at
// (or replace) the result or error next returns. The errors next returns
// are *jsonrpc.Error values, or the context's error when the request was
// cancelled or cut off by a limit.
type Interceptor func(next Handler) Handler

// Chain composes interceptors into one: the first is the outermost (it
// sees the request first and the outcome last), as with grpc's chained
// interceptors and connect-go's. Options.Interceptors are chained this way.
func Chain(interceptors ...Interceptor) Interceptor {
	return func(next Handler) Handler {
		for i := len(interceptors) - 1; i >= 0; i-- {
			if interceptors[i] != nil {
				next = interceptors[i](next)
			}
		}
		return next
	}
}

// Recover returns an interceptor that turns a panic in what it wraps (the
// interceptors after it, the handler) into -32603 "Internal error: the
// handler panicked", logged at Error level to logger (the server's
// Options.Logger when nil is passed, then slog.Default) with the method,
// the request id and the stack; the server keeps serving. The server
// already recovers panics of tool, prompt and resource functions and of
// handlers, and runs the whole chain under a recovery of its own; put
// Recover where an interceptor outside it should see the -32603 (for
// example after a logging or tracing interceptor).
func Recover(logger *slog.Logger) Interceptor {
	return func(next Handler) Handler {
		return func(ctx context.Context, req *Request) (result json.RawMessage, err error) {
			defer func() {
				if v := recover(); v != nil {
					log := logger
					if log == nil && req.s != nil {
						log = req.s.logger
					}
					if log == nil {
						log = slog.Default()
					}
					log.ErrorContext(ctx, "handler panic", "method", req.Method, "id", req.ID.String(), "panic", v, "stack", string(debug.Stack()))
					result, err = nil, panicError()
				}
			}()
			result, err = next(ctx, req)
			if err != nil {
				walkError(err) // a panic here is recovered above
			}
			return result, err
		}
	}
}

func panicError() *jsonrpc.Error {
	return &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "Internal error: the handler panicked"}
}

// buildChain composes Options.Interceptors around the core once, at New;
// nil when there are none (the request path then does not look at them).
func (s *Server) buildChain(interceptors []Interceptor) {
	if len(interceptors) == 0 {
		return
	}
	s.chain = Recover(s.logger)(Chain(interceptors...)(s.innermost))
}

// innermost is the end of the chain: the request served in its era.
func (s *Server) innermost(ctx context.Context, req *Request) (json.RawMessage, error) {
	var b []byte
	var rerr *jsonrpc.Error
	if req.sess != nil {
		b, rerr = req.sess.serve(ctx, req.msg, req.w)
	} else {
		b, rerr = s.serveParsed(ctx, req.pr, req.w)
	}
	if rerr != nil {
		if ctx.Err() != nil {
			return nil, context.Cause(ctx)
		}
		return nil, rerr
	}
	req.result = b
	return b, nil
}

// intercepted runs the stateless core's request pr through the chain.
func (s *Server) intercepted(ctx context.Context, pr *parsedRequest, w MessageWriter) ([]byte, *jsonrpc.Error) {
	req := &Request{Method: pr.msg.Method, ID: pr.msg.ID, Params: pr.msg.Params, Meta: pr.params.meta, s: s, pr: pr, msg: pr.msg, w: w}
	if field := s.targetOf(pr.msg.Method); field != "" {
		req.Name, _ = pr.nameParam(field)
	} else {
		req.Name = firstTarget(pr.msg.Params)
	}
	return s.runChain(ctx, req)
}

// intercepted runs a request of the session through the server's chain.
func (l *legacySession) intercepted(ctx context.Context, msg jsonrpc.Message, w MessageWriter) ([]byte, *jsonrpc.Error) {
	req := &Request{Method: msg.Method, ID: msg.ID, Params: msg.Params, s: l.s, sess: l, msg: msg, w: w}
	if !l.oneShot {
		req.SessionID = l.id
	}
	// Members unescapes names as the legacy layer does, so the chain sees
	// the target the request acts on (`"n\u0061me"` is "name"; a repeated
	// name is refused by the legacy layer before anything runs).
	// The target is the member the method names (Server.targetOf), else
	// the first of name, uri and taskId (firstTarget).
	scan := targetScan{field: l.s.targetOf(msg.Method)}
	jsonscan.Members(msg.Params, func(key, value []byte) {
		if string(key) == "_meta" {
			req.Meta = value
		}
		scan.member(key, value)
	})
	req.Name = scan.name
	return l.s.runChain(ctx, req)
}

// runChain calls the chain and maps its error to the JSON-RPC error sent.
func (s *Server) runChain(ctx context.Context, req *Request) ([]byte, *jsonrpc.Error) {
	b, err := s.chain(ctx, req)
	if err != nil {
		return nil, toRPCError(err)
	}
	if b == nil {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "Internal error: an interceptor returned neither a result nor an error"}
	}
	if !sameBytes(b, req.result) && !(jsonscan.Valid(b) && utf8.Valid(b)) {
		// An interceptor's own result is sent as raw JSON: it must be
		// JSON, in UTF-8, or the message would not be one.
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "Internal error: an interceptor returned a result that is not valid JSON"}
	}
	return b, nil
}

// sameBytes reports whether a and b are the same bytes in memory (not
// only equal ones).
func sameBytes(a, b []byte) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}
