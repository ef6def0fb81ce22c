package server

import (
	"context"
	"encoding/json"
	"errors"
	"runtime/debug"

	"github.com/mcpgen/mcpgen/generated/mcp"
	"github.com/mcpgen/mcpgen/jsonrpc"
)

// MessageWriter carries the notifications that belong to the message being
// handled (progress, log messages, a listen stream's notifications) back to
// the client, on the same stdio connection or HTTP response stream.
// Implementations must be safe for concurrent use: a handler may report
// progress from several goroutines. params is usually a json.RawMessage.
type MessageWriter interface {
	Notify(method string, params any) error
}

// Response is the outcome of handling one message.
type Response struct {
	// Body is the encoded JSON-RPC response, nil for a notification (and
	// for a request whose context was cancelled).
	Body []byte
	// Code is the JSON-RPC error code of an error response, 0 on success;
	// HTTP maps it to a status (httpwire.StatusForCode).
	Code int64
	// refused says the error refuses the request for a limit (isRefusal):
	// HTTP answers it 503 with Retry-After.
	refused bool
	// cancelled says the client cancelled the request
	// (notifications/cancelled in a legacy session): Body is nil and no
	// response is sent for it.
	cancelled bool
}

// Handle answers one decoded message: the transport-independent entry every
// transport uses. The era is chosen from the message (era.go): a request
// with a modern _meta is served by the stateless core (by a session made
// from its _meta when that names an initialize-era version), and an
// initialize request (without a _meta, or with one naming an
// initialize-era version) is answered as the initialize of a new
// initialize-era session, the version negotiated. Handle is one-shot: it
// keeps no session between calls, so that session ends with the call; an
// initialize-era client that needs one across messages (notifications,
// logging/setLevel, subscriptions) is served by ServeStdio or HTTPHandler,
// which keep one per connection and per Mcp-Session-Id, or sends every
// request with a _meta naming its version. It blocks while the handler runs (and, for
// subscriptions/listen, until the stream ends); ctx cancellation cancels the
// handler and suppresses the response. Notifications and responses from the
// client get an empty Response (cancellation is the transport's business:
// stdio maps notifications/cancelled to ctx). Params of msg may alias a
// buffer; Handle does not keep them after it returns.
//
// A request is not under Limits.MaxInFlight (the caller bounds its own
// concurrency) but the drain counts it: once Shutdown began, Handle
// refuses a request with -32603 {"reason":"shutdown"}; one it admitted
// before is in flight, so Shutdown waits for it (it runs to its end, a
// task it creates included) and, at the end of its grace, cancels it and
// it is answered with that error.
//
// For a request, in order: a method removed in 2026-07-28 (initialize, ping,
// logging/setLevel, resources/subscribe|unsubscribe) → -32601 naming the
// supported versions; _meta missing or lacking protocolVersion or
// clientCapabilities → -32602; an unsupported version → -32022 with
// data {supported, requested}; an unknown method → -32601; bad params →
// -32602 naming the field; a handler panic → -32603.
func (s *Server) Handle(ctx context.Context, msg jsonrpc.Message, w MessageWriter) Response {
	switch msg.Kind {
	case jsonrpc.KindRequest:
	case jsonrpc.KindNotification, jsonrpc.KindResponse, jsonrpc.KindErrorResponse:
		return Response{}
	default:
		return errorResponse(msg.ID, &jsonrpc.Error{Code: jsonrpc.CodeInvalidRequest, Message: "Invalid Request"})
	}
	hctx, key, rerr := s.lim.enterDirect(ctx)
	if rerr != nil {
		return errorResponse(msg.ID, rerr)
	}
	defer s.lim.leaveDirect(key)
	var pr parsedRequest
	pr.parse(msg)
	var resp Response
	if s.chooseEra(&pr, false) == eraModern {
		resp = s.handleRequest(hctx, &pr, w) // a static call: pr stays on the stack
	} else {
		lp := pr
		resp = s.eraFor(&lp, nil, nil).handleRequest(hctx, &lp, w)
	}
	return limitOutcome(hctx, msg.ID, resp, 0)
}

// handleRequest answers a request in the modern era from its one parse
// (see parsedRequest): the stateless core.
func (s *Server) handleRequest(ctx context.Context, pr *parsedRequest, w MessageWriter) Response {
	msg := pr.msg
	var result []byte
	var rerr *jsonrpc.Error
	if s.chain == nil {
		result, rerr = s.serveParsed(ctx, pr, w)
	} else {
		cp := *pr // the chain's Request keeps it; the common path keeps pr on the stack
		result, rerr = s.intercepted(ctx, &cp, w)
	}
	if ctx.Err() != nil {
		return Response{}
	}
	if rerr != nil {
		noteRefusal(ctx, rerr)
		return errorResponse(msg.ID, rerr)
	}
	if body := pr.frame.response(msg.ID, result); body != nil {
		return Response{Body: body} // the result stays where it was encoded (frame.go)
	}
	return Response{Body: jsonrpc.AppendResult(make([]byte, 0, len(result)+40), msg.ID, result)}
}

// HandleBytes decodes one JSON-RPC message and handles it; a message that
// does not decode gets its -32700/-32600 error response (with the id when it
// could be read).
func (s *Server) HandleBytes(ctx context.Context, data []byte, w MessageWriter) Response {
	msg, derr := jsonrpc.Decode(data)
	if derr != nil {
		return errorFor(msg, derr)
	}
	return s.Handle(ctx, msg, w)
}

// errorResponse is the response carrying e; a limit's refusal (isRefusal)
// is marked so that HTTP answers it 503 with Retry-After.
func errorResponse(id jsonrpc.ID, e *jsonrpc.Error) Response {
	return Response{Body: jsonrpc.AppendError(nil, id, e), Code: e.Code, refused: isRefusal(e)}
}

// serve runs one request and returns the encoded result or the error.
func (s *Server) serve(ctx context.Context, msg jsonrpc.Message, w MessageWriter) ([]byte, *jsonrpc.Error) {
	pr := parseRequest(msg)
	return s.serveParsed(ctx, &pr, w)
}

// serveParsed runs one parsed request and returns the encoded result or
// the error.
func (s *Server) serveParsed(ctx context.Context, pr *parsedRequest, w MessageWriter) ([]byte, *jsonrpc.Error) {
	msg := pr.msg
	method := msg.Method
	if isRemovedMethod(method) {
		return nil, s.removedMethod(method)
	}
	if pr.err != nil {
		return nil, pr.err
	}
	meta := pr.meta
	if !s.supports(meta.protocolVersion) {
		return nil, s.unsupportedVersion(meta.protocolVersion)
	}
	// The refusal of a drain is admission's (serveLimited, Handle): a
	// request that gets here was admitted and runs to its end within the
	// grace, a later round of it (a legacy session's, after the client
	// answered) or an interceptor's call of next included.
	// The routes keep p: a copy of the params in r (one allocation for
	// both), so pr itself does not escape.
	r := &request{s: s, id: msg.ID, method: method, meta: meta, w: w, params: pr.params}
	p := &r.params
	if len(meta.caps) > 2 { // not "{}": decode now so bad capabilities are -32602
		if _, err := r.capabilities(); err != nil {
			return nil, invalidParams("_meta." + keyClientCapabilities + ": " + err.Error())
		}
	}
	ctx = withRequestIn(ctx, r)
	r.ctx = ctx
	defer r.done.Store(true)

	var result any
	var err error
	if s.handles(method) {
		params := msg.Params
		if isMRTRMethod(method) {
			var rerr *jsonrpc.Error
			if params, rerr = r.takeAnswers(p, params); rerr != nil {
				return nil, rerr
			}
		}
		result, err = s.call(ctx, func(ctx context.Context) (any, error) {
			return s.dispatch.Dispatch(ctx, method, params)
		})
	} else {
		route := s.route(method)
		if route == nil {
			return nil, methodNotFound(method)
		}
		if isMRTRMethod(method) {
			if rerr := r.prepareMRTR(p, nil); rerr != nil {
				return nil, rerr
			}
		}
		result, err = s.call(ctx, func(ctx context.Context) (any, error) {
			return route(ctx, r, p, msg.Params)
		})
	}
	if err != nil {
		var ire *InputRequiredError
		if errors.As(err, &ire) && r.mrtrAllowed {
			result, err = r.inputRequired(ire)
		}
		if err != nil {
			return nil, toRPCError(err)
		}
	}
	b, rerr := s.encodeResult(r, result)
	if r.frame.buf != nil {
		pr.frame = &r.frame
	}
	return b, rerr
}

// routeFunc answers one method from the registries.
type routeFunc func(ctx context.Context, r *request, p *requestParams, params json.RawMessage) (any, error)

// route returns the registry route of method, nil when nothing answers it.
// The routes are static functions (routes.go): a method value such as
// s.tools.call would be allocated on every request.
func (s *Server) route(method string) routeFunc {
	switch method {
	case mcp.MethodServerDiscover:
		return routeDiscover
	case mcp.MethodSubscriptionsListen:
		return routeListen
	case mcp.MethodToolsCall:
		return ifOffered(s.tools.offered(), routeToolsCall)
	case mcp.MethodToolsList:
		return ifOffered(s.tools.offered(), routeToolsList)
	case mcp.MethodPromptsGet:
		return ifOffered(s.prompts.offered(), routePromptsGet)
	case mcp.MethodPromptsList:
		return ifOffered(s.prompts.offered(), routePromptsList)
	case mcp.MethodResourcesRead:
		return ifOffered(s.resources.offered(), routeResourcesRead)
	case mcp.MethodResourcesList:
		return ifOffered(s.resources.offered(), routeResourcesList)
	case mcp.MethodResourcesTemplatesList:
		return ifOffered(s.resources.offered(), routeResourcesTemplates)
	case mcp.MethodCompletionComplete:
		return ifOffered(s.completions(), routeComplete)
	}
	return s.extensionRoute(method)
}

// ifOffered returns route when its feature is offered, else nil.
func ifOffered(offered bool, route routeFunc) routeFunc {
	if offered {
		return route
	}
	return nil
}

// call runs a handler, turning a panic into -32603 so the server keeps
// serving.
func (s *Server) call(ctx context.Context, fn func(context.Context) (any, error)) (result any, err error) {
	defer func() {
		if v := recover(); v != nil {
			s.logger.Error("handler panic", "method", requestFrom(ctx).method, "panic", v, "stack", string(debug.Stack()))
			result, err = nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "Internal error: the handler panicked"}
		}
	}()
	result, err = fn(ctx)
	if err != nil {
		walkError(err) // a panic here is recovered above
	}
	return result, err
}

// takeAnswers reads the inputResponses of a request to a user handler from
// its scanned params p, as for the registries (readAnswers), and returns
// params without them: the dispatcher's decoder would refuse the whole
// request for one entry that is no input response, where entries nobody
// asks for are to be ignored. beforeHandler gives the handler their view.
func (r *request) takeAnswers(p *requestParams, params json.RawMessage) (json.RawMessage, *jsonrpc.Error) {
	answers, rerr := readAnswers(p.inputResponses)
	if rerr != nil {
		return nil, rerr
	}
	if p.inputResponses == nil {
		return params, nil
	}
	r.roundsFor().answers = answers
	return withoutMember(params, "inputResponses"), nil
}

// beforeHandler prepares the request context for a user handler from its
// decoded params (multi round-trip fields). Their InputResponses are the
// answers takeAnswers read, decoded by shape where they match an input
// response (answersView); Ask decodes each by the kind it asked.
func (s *Server) beforeHandler(ctx context.Context, method string, params any) (context.Context, error) {
	r := requestFrom(ctx)
	if r == nil || !isMRTRMethod(method) {
		return ctx, nil
	}
	var in mrtrInput
	switch p := params.(type) {
	case *mcp.CallToolRequestParams:
		p.InputResponses = answersView(r.rounds().answers)
		in = mrtrInput{name: p.Name, args: p.Arguments, state: deref(p.RequestState)}
	case *mcp.GetPromptRequestParams:
		p.InputResponses = answersView(r.rounds().answers)
		args, _ := json.Marshal(p.Arguments)
		in = mrtrInput{name: p.Name, args: args, state: deref(p.RequestState)}
	case *mcp.ReadResourceRequestParams:
		p.InputResponses = answersView(r.rounds().answers)
		in = mrtrInput{name: p.URI, state: deref(p.RequestState)}
	default:
		return ctx, nil
	}
	if rerr := r.prepareMRTR(nil, &in); rerr != nil {
		return ctx, rerr
	}
	return ctx, nil
}
