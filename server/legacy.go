package server

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/mcpgen/mcpgen/generated/mcp"
	legacy "github.com/mcpgen/mcpgen/generated/mcp20251125"
	"github.com/mcpgen/mcpgen/internal/jsonscan"
	"github.com/mcpgen/mcpgen/jsonrpc"
)

// Dual-era serving (basic/versioning.mdx, "Backward Compatibility"). A
// request that carries the modern _meta is served statelessly by Handle;
// an initialize request opens a legacySession, scoped to the stdio
// connection or to the HTTP Mcp-Session-Id, which serves the client at the
// negotiated initialize-era revision with the same registries and handlers:
// requests are forwarded to the core with modern _meta filled in from the
// session, and results are converted back (legacy_convert.go).

// legacyVersions are the initialize-era protocol versions a legacySession
// negotiates, newest first. A client asking for another version gets the
// newest.
var legacyVersions = []string{legacy.ProtocolVersion, "2025-06-18", "2025-03-26", "2024-11-05"}

// negotiateLegacy returns the version a session speaks for the version the
// client asked for.
func negotiateLegacy(requested string) string {
	for _, v := range legacyVersions {
		if v == requested {
			return v
		}
	}
	return legacyVersions[0]
}

// maxLegacyRounds bounds the InputRequiredResult rounds a legacy session
// resolves through server-to-client requests for one request.
const maxLegacyRounds = 16

// legacySession serves one initialize-era client: a stdio connection whose
// client sent initialize, or one HTTP session. ServeStdio and HTTPHandler
// create sessions with newLegacySession (chooseEra decides when, era.go) and
// pass each one every message of its client; Handle answers an initialize
// with a session that lasts for that call.
//
// The session answers initialize (negotiating the version), ping,
// logging/setLevel, resources/subscribe|unsubscribe and
// notifications/initialized|cancelled itself, and forwards tools/*,
// prompts/*, resources/* and completion/complete to the server's handlers.
// Ask sends sampling/createMessage, elicitation/create or roots/list to the
// client and blocks until it answers; Log sends notifications/message at or
// above the level set with logging/setLevel (nothing before a level is set);
// list_changed notifications (for the lists the initialize result declared
// listChanged) and notifications/resources/updated (for subscribed URIs) are
// sent unsolicited.
type legacySession struct {
	s   *Server
	id  string
	out func(msg []byte) error // unsolicited messages (nil: none)
	// oneShot: the session serves one request and ends (era.go's
	// oneRequest); interceptors see no session id for it.
	oneShot bool

	ready     chan struct{} // closed after the first initialize attempt
	readyOnce sync.Once
	done      chan struct{} // closed by Close
	closeOnce sync.Once
	nextID    atomic.Int64

	mu          sync.Mutex
	initialized bool
	version     string
	caps        json.RawMessage // client capabilities, modern-decodable
	clientInfo  json.RawMessage
	level       mcp.LoggingLevel
	sub         *subscriber
	subAuth     *authState                         // the token resources/subscribe came with (mayHear)
	pending     map[string]chan jsonrpc.Message    // server-to-client requests by id
	inflight    map[string]context.CancelCauseFunc // client requests by id
	stream      chan []byte                        // HTTP: the queue of the open GET streams, nil when none
	streamGone  chan struct{}                      // closed when the last of them ends
	streamCount int                                // HTTP: open GET streams (joinStream)
}

// newLegacySession returns a session for one initialize-era client. out
// sends the messages the server originates outside any request (list_changed
// and resources/updated notifications, and server-to-client requests of a
// request whose MessageWriter cannot carry them); it may be nil. Call Close
// when the client goes away.
func (s *Server) newLegacySession(out func(msg []byte) error) *legacySession {
	return &legacySession{
		s: s, id: newSessionID(), out: out,
		ready: make(chan struct{}), done: make(chan struct{}),
		pending: map[string]chan jsonrpc.Message{}, inflight: map[string]context.CancelCauseFunc{},
	}
}

// newSessionID returns 32 hex digits from crypto/rand (visible ASCII, as
// Mcp-Session-Id requires).
func newSessionID() string {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic("server: no randomness for a session id: " + err.Error())
	}
	return hex.EncodeToString(b[:])
}

// ID returns the session id (the HTTP Mcp-Session-Id).
func (l *legacySession) ID() string { return l.id }

// ProtocolVersion returns the negotiated version, "" before initialize.
func (l *legacySession) ProtocolVersion() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.version
}

// Close ends the session: unsolicited notifications stop and pending
// server-to-client requests fail. It is idempotent.
func (l *legacySession) Close() {
	l.closeOnce.Do(func() { close(l.done) })
}

func (l *legacySession) closed() bool {
	select {
	case <-l.done:
		return true
	default:
		return false
	}
}

func (l *legacySession) logLevel() mcp.LoggingLevel {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.level
}

// Handle serves one message of the session's client: requests are answered
// (blocking while the handler runs), notifications and responses to the
// server's own requests give an empty Response. ctx cancellation, or the
// client's notifications/cancelled for the request, cancels the handler and
// suppresses the response (the Response of a request the client cancelled
// says so: its transport sends nothing for it).
func (l *legacySession) Handle(ctx context.Context, msg jsonrpc.Message, w MessageWriter) Response {
	switch msg.Kind {
	case jsonrpc.KindRequest:
	case jsonrpc.KindNotification:
		l.notification(msg)
		return Response{}
	case jsonrpc.KindResponse, jsonrpc.KindErrorResponse:
		l.deliver(msg)
		return Response{}
	default:
		return errorResponse(msg.ID, &jsonrpc.Error{Code: jsonrpc.CodeInvalidRequest, Message: "Invalid Request"})
	}
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	key := msg.ID.String()
	l.mu.Lock()
	l.inflight[key] = cancel
	l.mu.Unlock()
	defer func() {
		l.mu.Lock()
		delete(l.inflight, key)
		l.mu.Unlock()
	}()
	var result []byte
	var rerr *jsonrpc.Error
	if l.s.chain == nil {
		result, rerr = l.serve(ctx, msg, w)
	} else {
		result, rerr = l.intercepted(ctx, msg, w)
	}
	if ctx.Err() != nil {
		return Response{cancelled: context.Cause(ctx) == errClientCancelled}
	}
	if rerr != nil {
		noteRefusal(ctx, rerr)
		return errorResponse(msg.ID, rerr)
	}
	return Response{Body: jsonrpc.AppendResult(make([]byte, 0, len(result)+40), msg.ID, result)}
}

// serve answers one request of the session. What the session answers
// itself runs user code too (Options.Visible on resources/subscribe), so a
// panic is recovered here as the core's handlers are: -32603, logged.
func (l *legacySession) serve(ctx context.Context, msg jsonrpc.Message, w MessageWriter) (result []byte, rerr *jsonrpc.Error) {
	defer func() {
		if v := recover(); v != nil {
			l.s.logger.Error("handler panic", "method", msg.Method, "panic", v, "stack", string(debug.Stack()))
			result, rerr = nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "Internal error: the handler panicked"}
		}
	}()
	if dup, repeated, _ := jsonscan.Members(msg.Params, func(_, _ []byte) {}); repeated {
		// jsonrpc.Decode leaves params to its reader: the session's
		// decoders would keep the last value, the core the first.
		return nil, invalidParams("params: duplicate member " + strconv.Quote(dup))
	}
	switch msg.Method {
	case legacy.MethodInitialize:
		return l.initialize(msg.Params)
	case legacy.MethodPing:
		return []byte("{}"), nil
	}
	select {
	case <-l.ready:
	case <-ctx.Done():
		return nil, toRPCError(ctx.Err())
	}
	l.mu.Lock()
	ok := l.initialized
	l.mu.Unlock()
	switch {
	case !ok:
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidRequest, Message: "Invalid Request: the session is not initialized (send initialize first)"}
	case l.closed():
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidRequest, Message: "Invalid Request: the session has ended"}
	}
	switch msg.Method {
	case legacy.MethodLoggingSetLevel:
		return l.setLevel(msg.Params)
	case legacy.MethodResourcesSubscribe, legacy.MethodResourcesUnsubscribe:
		return l.subscribe(ctx, msg.Method == legacy.MethodResourcesSubscribe, msg.Params)
	case legacy.MethodToolsList, legacy.MethodToolsCall, legacy.MethodPromptsList, legacy.MethodPromptsGet,
		legacy.MethodResourcesList, legacy.MethodResourcesRead, legacy.MethodResourcesTemplatesList,
		legacy.MethodCompletionComplete:
		return l.forward(ctx, msg, w)
	}
	if l.s.servesLegacy(msg.Method) {
		return l.forward(ctx, msg, w)
	}
	return nil, methodNotFound(msg.Method)
}

// maxLegacyClientDescription bounds the bytes of an initialize's
// capabilities and clientInfo together: a session keeps both for its life
// and sends them to the core with every request it forwards (the modern
// _meta), so their size must not be the client's choice. An initialize
// past it is refused with -32602 and opens no session.
const maxLegacyClientDescription = 64 << 10

// initialize negotiates the version and records the client's capabilities.
func (l *legacySession) initialize(params json.RawMessage) ([]byte, *jsonrpc.Error) {
	defer l.readyOnce.Do(func() { close(l.ready) })
	if jsonscan.IsNullOrAbsent(params) {
		return nil, invalidParams("params: missing required member (protocolVersion, capabilities, clientInfo)")
	}
	var p legacy.InitializeRequestParams
	if rerr := decodeLegacyParams(params, &p); rerr != nil {
		return nil, rerr
	}
	var caps, info json.RawMessage
	jsonscan.EachMember(params, func(key, value []byte) {
		switch {
		case jsonscan.KeyEquals(key, "capabilities"):
			caps = append(json.RawMessage(nil), value...)
		case jsonscan.KeyEquals(key, "clientInfo"):
			info = append(json.RawMessage(nil), value...)
		}
	})
	if len(caps)+len(info) > maxLegacyClientDescription {
		return nil, invalidParams("params: capabilities and clientInfo hold " + strconv.Itoa(len(caps)+len(info)) +
			" bytes; a session keeps at most " + strconv.Itoa(maxLegacyClientDescription>>10) + " KiB of them")
	}
	var modern mcp.ClientCapabilities
	if jsonscan.Kind(caps) != '{' || json.Unmarshal(caps, &modern) != nil {
		caps = json.RawMessage("{}")
	}
	if jsonscan.Kind(info) != '{' {
		info = nil
	}
	version := negotiateLegacy(p.ProtocolVersion)

	l.mu.Lock()
	if l.initialized {
		l.mu.Unlock()
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidRequest, Message: "Invalid Request: the session is already initialized"}
	}
	l.initialized, l.version, l.caps, l.clientInfo = true, version, caps, info
	l.mu.Unlock()

	sc := l.serverCapabilities(version)
	l.startNotifications(sc)
	res := legacy.InitializeResult{
		ProtocolVersion: version,
		Capabilities:    sc,
		ServerInfo:      legacy.Implementation{Name: l.s.info.Name, Version: l.s.info.Version},
		Instructions:    l.s.opts.Instructions,
	}
	if version >= "2025-06-18" {
		res.ServerInfo.Title = l.s.info.Title
	}
	b, err := json.Marshal(res)
	if err != nil {
		return nil, toRPCError(err)
	}
	return l.s.withLegacyExtensions(b, version), nil
}

// decodeLegacyParams decodes the params of a request the session answers
// itself into p, or returns their -32602: "params must be an object" (as
// the core says for tools/call) when they are not an object, else the
// decoder's error at its place under params (params.level: …).
func decodeLegacyParams(params json.RawMessage, p any) *jsonrpc.Error {
	if jsonscan.Kind(params) != '{' {
		return invalidParams("params must be an object")
	}
	if err := json.Unmarshal(params, p); err != nil {
		return legacyParamsError(err)
	}
	return nil
}

// legacyParamsError is the -32602 for params that do not decode, naming
// the place of the fault under params.
func legacyParamsError(err error) *jsonrpc.Error {
	var de *legacy.DecodeError
	if errors.As(err, &de) {
		switch {
		case de.Path == "":
			return invalidParams("params: " + de.Msg)
		case strings.HasPrefix(de.Path, "["):
			return invalidParams("params" + de.Error())
		}
		return invalidParams("params." + de.Error())
	}
	return invalidParams("params: " + err.Error())
}

// setLevel answers logging/setLevel with exactly {}.
func (l *legacySession) setLevel(params json.RawMessage) ([]byte, *jsonrpc.Error) {
	var p legacy.SetLevelRequestParams
	if jsonscan.IsNullOrAbsent(params) {
		return nil, invalidParams("params.level: missing required member")
	}
	if rerr := decodeLegacyParams(params, &p); rerr != nil {
		return nil, rerr
	}
	level := mcp.LoggingLevel(p.Level)
	if !level.Valid() {
		return nil, invalidParams("params.level: must be one of debug, info, notice, warning, error, critical, alert, emergency")
	}
	l.mu.Lock()
	l.level = level
	l.mu.Unlock()
	return []byte("{}"), nil
}

// maxSessionSubscriptions is the most URIs a legacy session subscribes to
// at once (resources/subscribe): each is held, with its pending update,
// for as long as the session lives.
const maxSessionSubscriptions = 1024

// maxSessionSubscriptionBytes is the most bytes of URIs a legacy session
// holds subscriptions to.
const maxSessionSubscriptionBytes = 256 << 10

// subscribe answers resources/subscribe and resources/unsubscribe with {};
// a subscription past maxSessionSubscriptions URIs or
// maxSessionSubscriptionBytes of them is refused with -32602, as a listen
// naming too many task ids is: waiting does not lift the cap, an
// unsubscribe does (not a limit's refusal, HTTP 503).
func (l *legacySession) subscribe(ctx context.Context, on bool, params json.RawMessage) ([]byte, *jsonrpc.Error) {
	if !l.s.offers("resources") {
		return nil, methodNotFound(map[bool]string{true: legacy.MethodResourcesSubscribe, false: legacy.MethodResourcesUnsubscribe}[on])
	}
	var p legacy.SubscribeRequestParams
	if jsonscan.IsNullOrAbsent(params) {
		return nil, invalidParams("params.uri: missing required member")
	}
	if rerr := decodeLegacyParams(params, &p); rerr != nil {
		return nil, rerr
	}
	if p.URI == "" {
		return nil, invalidParams("params.uri: must be a non-empty URI")
	}
	if on {
		// Updates of what the caller may not read are not theirs to hear.
		if err := l.s.resources.checkSubscribe(l.callerCtx(ctx), p.URI); err != nil {
			return nil, toRPCError(err)
		}
	}
	l.mu.Lock()
	if st := authFrom(ctx); st != nil && on {
		// Delivery checks again (mayHear: a resource registered at the
		// URI since may be hidden or need more): for the subscriber's token.
		l.subAuth = &authState{info: st.info, gate: st.gate}
	}
	sub := l.sub
	l.mu.Unlock()
	if sub != nil {
		l.s.subs.mu.Lock()
		held, n := sub.uris[p.URI], len(sub.uris)
		full := on && !held && (n >= maxSessionSubscriptions || sub.uriBytes+len(p.URI) > maxSessionSubscriptionBytes)
		switch {
		case full:
		case on && !held:
			sub.uris[p.URI] = true
			sub.uriBytes += len(p.URI)
		case !on && held:
			delete(sub.uris, p.URI)
			sub.uriBytes -= len(p.URI)
		}
		l.s.subs.mu.Unlock()
		if full {
			return nil, invalidParams("params.uri: the session holds " + strconv.Itoa(n) + " resource subscriptions, the most it may (" +
				strconv.Itoa(maxSessionSubscriptions) + " URIs, " + strconv.Itoa(maxSessionSubscriptionBytes>>10) + " KiB of them); unsubscribe from one first")
		}
	}
	return []byte("{}"), nil
}

// startNotifications subscribes the session to the changes its initialize
// result declared (list_changed) and to resources/updated for the URIs it
// subscribes to, and sends them through out until the session or the
// server ends.
func (l *legacySession) startNotifications(sc legacy.ServerCapabilities) {
	sub := newSubscriber()
	sub.uris = map[string]bool{}
	sub.tools = sc.Tools != nil && sc.Tools.ListChanged != nil && *sc.Tools.ListChanged
	sub.prompts = sc.Prompts != nil && sc.Prompts.ListChanged != nil && *sc.Prompts.ListChanged
	sub.resources = sc.Resources != nil && sc.Resources.ListChanged != nil && *sc.Resources.ListChanged
	l.mu.Lock()
	l.sub = sub
	l.mu.Unlock()
	l.s.subs.add(sub)
	go func() {
		defer l.s.subs.remove(sub)
		var events []event
		for {
			select {
			case <-l.done:
				return
			case <-l.s.closing:
				return
			case <-sub.pending.wake:
				events = sub.pending.take(events)
				for _, ev := range events {
					l.notify(ev)
				}
			}
		}
	}()
}

// notify sends the session the notification of one event.
func (l *legacySession) notify(ev event) {
	var msg []byte
	switch ev.kind {
	case changeTools:
		msg = jsonrpc.AppendNotification(nil, legacy.MethodNotificationsToolsListChanged, nil)
	case changePrompts:
		msg = jsonrpc.AppendNotification(nil, legacy.MethodNotificationsPromptsListChanged, nil)
	case changeResources:
		msg = jsonrpc.AppendNotification(nil, legacy.MethodNotificationsResourcesListChanged, nil)
	case changeResourceUpdated:
		if !l.mayHear(ev.uri) {
			return
		}
		params := append(append([]byte(`{"uri":`), jsonrpc.AppendString(nil, ev.uri)...), '}')
		msg = jsonrpc.AppendNotification(nil, legacy.MethodNotificationsResourcesUpdated, params)
	}
	if msg != nil && l.out != nil {
		if err := l.out(msg); err != nil {
			l.s.logger.Debug("legacy notification not delivered", "session", l.id, "err", err)
		}
	}
}

// mayHear reports whether the session's subscriber may hear of updates of
// uri: the rule of a listen stream (resourceRegistry.readable), asked now,
// whatever was registered at uri since it subscribed, for the caller that
// subscribed: Options.Visible does not hide uri from it, and its token
// (when it subscribed with one) grants the scopes reading uri needs. A
// Visible that panics (on the session's notification goroutine, outside
// any request) hides the update, logged.
func (l *legacySession) mayHear(uri string) (may bool) {
	defer func() {
		if v := recover(); v != nil {
			l.s.logger.Error("Options.Visible panic delivering resources/updated", "uri", uri, "panic", v, "stack", string(debug.Stack()))
			may = false
		}
	}()
	l.mu.Lock()
	st := l.subAuth
	l.mu.Unlock()
	ctx := context.Background()
	if st != nil {
		ctx = withAuth(ctx, &authState{info: st.info, gate: st.gate})
	}
	return l.s.resources.readable(l.callerCtx(ctx), uri)
}

// callerCtx is ctx as Options.Visible sees a request of this session: its
// ProtocolVersion is the version initialize negotiated, its ClientInfo and
// ClientCapabilities what initialize declared. A legacy session answers
// resources/subscribe itself, and delivers updates outside any request, so
// without it Visible would decide for no client at all.
func (l *legacySession) callerCtx(ctx context.Context) context.Context {
	l.mu.Lock()
	version, caps, info := l.version, l.caps, l.clientInfo
	l.mu.Unlock()
	return withRequest(ctx, &request{s: l.s, ctx: ctx,
		meta: requestMeta{protocolVersion: version, caps: caps, clientInfo: info}})
}

// notification handles a client notification.
func (l *legacySession) notification(msg jsonrpc.Message) {
	if msg.Method != legacy.MethodNotificationsCancelled {
		return // notifications/initialized, roots/list_changed, progress: nothing to do
	}
	params, rerr := exactObject(msg.Params, "params")
	if rerr != nil {
		return
	}
	var id jsonrpc.ID
	if json.Unmarshal(params["requestId"], &id) != nil || id.IsZero() {
		return
	}
	l.mu.Lock()
	cancel := l.inflight[id.String()]
	l.mu.Unlock()
	if cancel != nil {
		cancel(errClientCancelled)
	}
}

// errClientCancelled is the cancellation cause of a request the client
// cancelled with notifications/cancelled. The server sends no response
// for it (basic/utilities/cancellation: receivers SHOULD not send a
// response for the cancelled request).
var errClientCancelled = errors.New("server: the client cancelled the request")

// deliver hands a client's response to the server request waiting for it;
// responses nobody waits for are dropped.
func (l *legacySession) deliver(msg jsonrpc.Message) {
	l.mu.Lock()
	ch := l.pending[msg.ID.String()]
	delete(l.pending, msg.ID.String())
	l.mu.Unlock()
	if ch == nil {
		l.s.logger.Debug("legacy session: response to no pending request", "session", l.id, "id", msg.ID.String())
		return
	}
	msg.Params = nil
	msg.Result = append(json.RawMessage(nil), msg.Result...)
	ch <- msg // buffered, one response per request
}

// clientWaiter is a MessageWriter whose transport must know while its
// request waits for the client's answer to a server-to-client request
// (stdio gives the request's in-flight slot back meanwhile). done is called
// once the wait is over.
type clientWaiter interface {
	waitingForClient() (done func(), err error)
}

// rawSender is a MessageWriter that can also carry an encoded message on
// the response stream of the client request being handled (stdio: the
// connection; HTTP: the POST's SSE stream): a legacy session's
// server-to-client request, or a listen stream's list_changed encoded once
// (listen_messages.go). msg is not modified afterwards.
type rawSender interface {
	sendRaw(msg []byte) error
}

var errSessionClosed = errors.New("server: the legacy session has ended")

// request sends a server-to-client request and waits for the client's
// answer: its result, or its error as a *jsonrpc.Error. When ctx ends first
// the client is told with notifications/cancelled.
func (l *legacySession) request(ctx context.Context, method string, params json.RawMessage, w MessageWriter) (json.RawMessage, error) {
	if l.oneShot {
		// Nothing can bring the answer back: a one-request session is in
		// no transport's table (an HTTP answer without Mcp-Session-Id is
		// refused, a stdio answer goes to the connection's own session),
		// so the request would wait for ever and hold its slot.
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "Internal error: " + method +
			" needs a session: this request was served on its own (its _meta names " + l.ProtocolVersion() +
			"), so the client could not answer; initialize a session, or use protocol version " + mcp.ProtocolVersion}
	}
	id := jsonrpc.IntID(l.nextID.Add(1))
	ch := make(chan jsonrpc.Message, 1)
	l.mu.Lock()
	l.pending[id.String()] = ch
	l.mu.Unlock()
	defer func() {
		l.mu.Lock()
		delete(l.pending, id.String())
		l.mu.Unlock()
	}()
	send := l.out
	if rs, ok := w.(rawSender); ok {
		send = rs.sendRaw
	}
	if send == nil {
		return nil, errors.New("server: this legacy session cannot carry server-to-client requests")
	}
	if cw, ok := w.(clientWaiter); ok {
		done, err := cw.waitingForClient()
		if err != nil {
			return nil, err
		}
		defer done()
	}
	params = l.s.withOutgoingMeta(ctx, params)
	if err := send(jsonrpc.AppendRequest(nil, id, method, params)); err != nil {
		return nil, err
	}
	select {
	case m := <-ch:
		if m.Kind == jsonrpc.KindErrorResponse {
			return nil, m.Error
		}
		return m.Result, nil
	case <-ctx.Done():
		params := append(append([]byte(`{"requestId":`), id.String()...), `,"reason":"the server request was cancelled"}`...)
		note := jsonrpc.AppendNotification(nil, legacy.MethodNotificationsCancelled, params)
		if send(note) != nil && l.out != nil { // the request's own stream may be gone with ctx
			_ = l.out(note)
		}
		return nil, ctx.Err()
	case <-l.done:
		return nil, errSessionClosed
	}
}

// legacyCall is the per-request state of a request served in a legacy
// session, reachable from the handler's context.
type legacyCall struct {
	sess     *legacySession
	mu       sync.Mutex
	answers  map[string]mcp.InputResponse
	progress progressState // the last progress sent for the client's request, across its rounds
}

type legacyKey struct{}

func legacyFrom(ctx context.Context) *legacyCall {
	c, _ := ctx.Value(legacyKey{}).(*legacyCall)
	return c
}

// ask answers an Ask in a legacy session: the input request goes to the
// client as a real request and the answer comes back (one per key and
// request: asking the same key again returns the same answer).
func (c *legacyCall) ask(ctx context.Context, key string, req mcp.InputRequest, w MessageWriter) (mcp.InputResponse, error) {
	c.mu.Lock()
	if resp, ok := c.answers[key]; ok {
		c.mu.Unlock()
		return resp, nil
	}
	c.mu.Unlock()
	method, params, err := legacyInputRequest(req, c.sess.ProtocolVersion())
	if err != nil {
		return nil, err
	}
	raw, err := c.sess.request(ctx, method, params, w)
	if err != nil {
		return nil, err
	}
	resp, err := decodeAnswer(req, raw) // as an answer in inputResponses
	if err != nil {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "Internal error: the client's " + method + " result does not answer it: " + err.Error()}
	}
	c.mu.Lock()
	c.answers[key] = resp
	c.mu.Unlock()
	return resp, nil
}

// forward serves a feature request through the core with the session's
// modern _meta, converts the result to the session's revision, and resolves
// an InputRequiredResult (a handler that returned InputRequiredError itself)
// by asking the client and running the request again.
func (l *legacySession) forward(ctx context.Context, msg jsonrpc.Message, w MessageWriter) ([]byte, *jsonrpc.Error) {
	call := &legacyCall{sess: l, answers: map[string]mcp.InputResponse{}}
	ctx = context.WithValue(ctx, legacyKey{}, call)
	params, rerr := l.modernParams(msg.Params, nil, "")
	if rerr != nil {
		return nil, rerr
	}
	m := msg
	for round := 0; ; round++ {
		m.Params = params
		b, rerr := l.s.serve(ctx, m, w)
		if rerr != nil {
			return nil, legacyError(msg.Method, rerr)
		}
		if !isMRTRMethod(msg.Method) || resultTypeOf(b) != "input_required" {
			return l.convertResult(msg.Method, b)
		}
		if round+1 >= maxLegacyRounds {
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "Internal error: the handler kept asking for input"}
		}
		var ir mcp.InputRequiredResult
		if err := json.Unmarshal(b, &ir); err != nil {
			return nil, toRPCError(err)
		}
		responses := mcp.InputResponses{}
		for key, req := range ir.InputRequests {
			resp, err := call.ask(ctx, key, req, w)
			if err != nil {
				return nil, toRPCError(err)
			}
			responses[key] = resp
		}
		if params, rerr = l.modernParams(msg.Params, responses, deref(ir.RequestState)); rerr != nil {
			return nil, rerr
		}
	}
}

// resultTypeOf returns the resultType member of an encoded result.
func resultTypeOf(b []byte) string {
	rt := ""
	jsonscan.EachMember(b, func(key, value []byte) {
		if jsonscan.KeyEquals(key, "resultType") {
			rt, _ = jsonscan.String(value)
		}
	})
	return rt
}
