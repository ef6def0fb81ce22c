package server

import (
	"context"
	"sync"
	"time"

	"github.com/mcpgen/mcpgen/jsonrpc"
)

// limiter enforces a server's Limits at run time: the in-flight and stream
// caps, the per-request timeout, and the two stages of a drain (refusing
// new requests, then cancelling the ones left). Every transport runs a
// request's handler through (*Server).serveLimited.
type limiter struct {
	cfg Limits // resolved

	mu        sync.Mutex
	inflight  int                     // admitted requests, streams excluded
	direct    int                     // requests of Server.Handle in flight (enterDirect): drained, not capped
	streams   int                     // open listen streams (and legacy GET streams)
	perClient map[string]int          // open streams per client (Limits.MaxListenStreamsPerClient); no zero entries
	closing   bool                    // the drain began: new requests are refused
	idle      chan struct{}           // made when the drain begins; closed once no request or stream is left
	idleShut  bool                    // idle is closed
	stopCtx   context.Context         // cancelled with errShutdownCancel when the grace ends
	stopFn    context.CancelCauseFunc // ends the grace: cancels the requests left
	stopAfter time.Duration           // how long the end of the grace waits for their answers

	// The cancel functions of the admitted requests that do not watch
	// stopCtx themselves (HTTP), keyed by their admission: kept under mu,
	// which admission takes anyway, instead of one context.AfterFunc on
	// the shared stopCtx per request (two more locks of one mutex every
	// request shares, 8 % of the server's CPU at 16 HTTP clients).
	watched  map[uint64]context.CancelCauseFunc
	watchSeq uint64
	stopped  bool // stop ran: nothing more is watched
}

// stopAnswerWait is how long Shutdown waits, after cancelling what was left
// at the end of its grace, for those requests to be answered.
const stopAnswerWait = time.Second

func (l *limiter) init(cfg Limits) {
	l.cfg = cfg.resolved()
	l.stopCtx, l.stopFn = context.WithCancelCause(context.Background())
	l.stopAfter = stopAnswerWait
}

// enter admits one request (stream: a listen stream, of client: the
// client key of Server.clientID, "" for a request that is not a stream or
// has no client identity) or returns the error that refuses it. It leaves
// with leave(stream, client), the same client.
func (l *limiter) enter(stream bool, client string) *jsonrpc.Error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.enterLocked(stream, client)
}

// enterWatched is enter for a request whose context cancel cancels with
// errShutdownCancel at the end of a drain's grace (stop); the request
// leaves with leaveWatched(stream, client, key).
func (l *limiter) enterWatched(stream bool, client string, cancel context.CancelCauseFunc) (key uint64, rerr *jsonrpc.Error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if rerr := l.enterLocked(stream, client); rerr != nil {
		return 0, rerr
	}
	return l.watchLocked(cancel), nil
}

// watchLocked registers cancel to be called with errShutdownCancel at the
// end of a drain's grace (stop) and returns its key; once stop ran it
// cancels at once.
func (l *limiter) watchLocked(cancel context.CancelCauseFunc) uint64 {
	if l.stopped {
		cancel(errShutdownCancel)
		return 0
	}
	if l.watched == nil {
		l.watched = map[uint64]context.CancelCauseFunc{}
	}
	l.watchSeq++
	l.watched[l.watchSeq] = cancel
	return l.watchSeq
}

// enterDirect admits a request of Server.Handle (a program's own
// transport, Server.Caller) whose caller's context is ctx: not under the
// in-flight cap, whose transports bound their own concurrency, but counted
// so that a drain waits for it like any other request. It returns the
// handler's context, which the end of the grace cancels with
// errShutdownCancel (for a caller's context.Background, the limiter's own
// stopCtx: no context is made per request), or the refusal once the drain
// began. The request leaves with leaveDirect(key).
func (l *limiter) enterDirect(ctx context.Context) (hctx context.Context, key uint64, rerr *jsonrpc.Error) {
	hctx = l.stopCtx
	var cancel context.CancelCauseFunc
	if ctx != context.Background() {
		hctx, cancel = context.WithCancelCause(ctx)
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closing {
		if cancel != nil {
			cancel(nil)
		}
		return nil, 0, shuttingDownError()
	}
	l.direct++
	if cancel != nil {
		key = l.watchLocked(cancel)
	}
	return hctx, key, nil
}

// leaveDirect ends a request admitted by enterDirect, releasing its
// context.
func (l *limiter) leaveDirect(key uint64) {
	l.mu.Lock()
	cancel := l.watched[key]
	delete(l.watched, key)
	l.direct--
	l.idleIfDone()
	l.mu.Unlock()
	if cancel != nil {
		cancel(nil)
	}
}

// leaveWatched ends a request admitted by enterWatched.
func (l *limiter) leaveWatched(stream bool, client string, key uint64) {
	l.mu.Lock()
	delete(l.watched, key)
	l.leaveLocked(stream, client)
	l.mu.Unlock()
}

// stop ends a drain's grace: every admitted request's context is
// cancelled with errShutdownCancel.
func (l *limiter) stop() {
	l.stopFn(errShutdownCancel)
	l.mu.Lock()
	l.stopped = true
	watched := l.watched
	l.watched = nil
	l.mu.Unlock()
	for _, cancel := range watched {
		cancel(errShutdownCancel)
	}
}

// errClientStreams refuses a stream of a client that already holds
// Limits.MaxListenStreamsPerClient open streams.
var errClientStreams = limitError(reasonBusy, "Internal error: this client has too many open subscription streams (Limits.MaxListenStreamsPerClient); close one first")

func (l *limiter) enterLocked(stream bool, client string) *jsonrpc.Error {
	switch {
	case l.closing:
		return shuttingDownError()
	case stream:
		if l.cfg.MaxListenStreams > 0 && l.streams >= l.cfg.MaxListenStreams {
			return limitError(reasonBusy, "Internal error: too many open subscription streams; retry later")
		}
		if per := l.cfg.MaxListenStreamsPerClient; per > 0 && client != "" {
			if l.perClient[client] >= per {
				return errClientStreams
			}
			if l.perClient == nil {
				l.perClient = map[string]int{}
			}
			l.perClient[client]++
		}
		l.streams++
	default:
		if l.cfg.MaxInFlight > 0 && l.inflight >= l.cfg.MaxInFlight {
			return busyError()
		}
		l.inflight++
	}
	return nil
}

// leave ends a request admitted by enter.
func (l *limiter) leave(stream bool, client string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.leaveLocked(stream, client)
}

func (l *limiter) leaveLocked(stream bool, client string) {
	if stream {
		l.streams--
		if l.cfg.MaxListenStreamsPerClient > 0 && client != "" {
			if n := l.perClient[client] - 1; n > 0 {
				l.perClient[client] = n
			} else {
				delete(l.perClient, client)
			}
		}
	} else {
		l.inflight--
	}
	l.idleIfDone()
}

// idleIfDone closes idle once the drain began and no request is left,
// streams included: a listen stream admitted before the drain may still be
// in its interceptors, not yet a stream the drain can end (Server.streams
// counts it only once it runs), and is waited for like any other request.
func (l *limiter) idleIfDone() {
	if l.closing && l.inflight == 0 && l.direct == 0 && l.streams == 0 && !l.idleShut {
		l.idleShut = true
		close(l.idle)
	}
}

// beginDrain refuses new requests from now on; the channel it returns is
// closed once no admitted request or stream is left.
func (l *limiter) beginDrain() <-chan struct{} {
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.closing {
		l.closing = true
		l.idle = make(chan struct{})
		l.idleIfDone()
	}
	return l.idle
}

// serveLimited runs fn, the handling of one request msg, under the server's
// limits. A request a limit refuses is not run: refused is true and resp is
// its error (busy, or shutdown once the drain began). Otherwise fn runs with
// a context that Limits.RequestTimeout and the end of a drain's grace
// cancel; a request they cut off is answered with its -32603 error instead
// of the empty Response a cancelled handler gives. When the client itself
// went away (ctx is done) resp stays empty: nothing is written for it.
func (s *Server) serveLimited(ctx context.Context, msg jsonrpc.Message, fn func(context.Context) Response) (resp Response, refused bool) {
	return s.serveLimitedIn(ctx, false, msg, handlerFunc(fn))
}

// limitedHandler is the handling of one request that serveLimitedIn runs:
// a func (handlerFunc), or a value of the transport whose method it is, so
// that no closure is allocated per request (stdio: *stdioCall).
type limitedHandler interface {
	handleLimited(ctx context.Context) Response
}

// handlerFunc is a func as a limitedHandler.
type handlerFunc func(context.Context) Response

func (f handlerFunc) handleLimited(ctx context.Context) Response { return f(ctx) }

// serveLimitedIn is serveLimited running h; stopAware says ctx is already
// cancelled with errShutdownCancel at the end of a drain's grace (stdio
// derives every request from such a context, which saves two allocations
// per request).
func (s *Server) serveLimitedIn(ctx context.Context, stopAware bool, msg jsonrpc.Message, h limitedHandler) (resp Response, refused bool) {
	before := liveBefore(len(msg.Params))
	defer func() { collectAfterLarge(len(msg.Params)+len(resp.Body), before) }() // collect.go
	if !stopAware {
		a, rerr := s.admitWatched(ctx, msg)
		if rerr != nil {
			return errorResponse(msg.ID, rerr), true
		}
		return a.run(msg, h), false
	}
	l := &s.lim
	stream, client, timeout := s.requestLimits(ctx, msg)
	if rerr := l.enter(stream, client); rerr != nil {
		return errorResponse(msg.ID, rerr), true
	}
	if timeout <= 0 {
		// stdio without a timeout: inline (no end closure); a handler
		// still running at the end of a drain's grace is answered by
		// the connection itself (stdioConn.answerRemaining).
		resp = h.handleLimited(ctx)
		l.leave(stream, client)
		return limitOutcome(ctx, msg.ID, resp, timeout), false
	}
	a := admitted{hctx: ctx, end: func() { l.leave(stream, client) }, timeout: timeout}
	return a.run(msg, h), false
}

// requestLimits are the limits msg runs under: whether it is a listen
// stream, then its client (for Limits.MaxListenStreamsPerClient, else ""),
// and its timeout (none for a stream).
func (s *Server) requestLimits(ctx context.Context, msg jsonrpc.Message) (stream bool, client string, timeout time.Duration) {
	l := &s.lim
	if msg.Method != methodListen {
		return false, "", l.cfg.RequestTimeout
	}
	if l.cfg.MaxListenStreamsPerClient > 0 {
		client = s.clientID(ctx)
	}
	return true, client, 0
}

// admitted is a request the limits admitted, not yet run: the context its
// handler runs in, which the end of a drain's grace cancels, the release
// of its slot and its timeout.
type admitted struct {
	hctx    context.Context
	end     func()
	timeout time.Duration
}

// admitWatched admits msg under the in-flight or stream caps, its handler
// context watched by the drain (its end cancels it with
// errShutdownCancel), or returns the refusal. The caller must run the
// result (admitted.run), which releases the slot.
func (s *Server) admitWatched(ctx context.Context, msg jsonrpc.Message) (admitted, *jsonrpc.Error) {
	l := &s.lim
	stream, client, timeout := s.requestLimits(ctx, msg)
	hctx, cancel := context.WithCancelCause(ctx)
	key, rerr := l.enterWatched(stream, client, cancel)
	if rerr != nil {
		cancel(nil)
		return admitted{}, rerr
	}
	end := func() {
		cancel(nil)
		l.leaveWatched(stream, client, key)
	}
	return admitted{hctx: hctx, end: end, timeout: timeout}, nil
}

// serveAdmission is serveLimited for msg once admitWatched judged it: the
// error response of its refusal rerr, else its run.
func serveAdmission(a admitted, rerr *jsonrpc.Error, msg jsonrpc.Message, h limitedHandler) Response {
	if rerr != nil {
		return errorResponse(msg.ID, rerr)
	}
	before := liveBefore(len(msg.Params))
	resp := a.run(msg, h)
	collectAfterLarge(len(msg.Params)+len(resp.Body), before) // collect.go
	return resp
}

// run runs h, the handling of the admitted request msg, and releases its
// slot. The handler runs on its own goroutine, so that the client is
// answered when a limit ends the request (its timeout, the end of a
// drain's grace) even if the handler ignores its context; the handler
// keeps its in-flight slot until it really returns.
func (a admitted) run(msg jsonrpc.Message, h limitedHandler) Response {
	rctx, tcancel := a.hctx, context.CancelFunc(func() {})
	if a.timeout > 0 {
		rctx, tcancel = context.WithTimeoutCause(a.hctx, a.timeout, errRequestTimeout)
	}
	done := make(chan Response, 1)
	handlerWorkers.run(func() {
		defer a.end()
		defer tcancel()
		done <- h.handleLimited(rctx)
	})
	var resp Response
	select {
	case resp = <-done:
	case <-rctx.Done():
		select {
		case resp = <-done:
		default:
		}
	}
	return limitOutcome(rctx, msg.ID, resp, a.timeout)
}

// limitOutcome is the response of a request whose handler context was
// hctx: resp, or the timeout/shutdown error when a limit cancelled it
// before it answered. A context cancelled for another cause (the client
// went away or cancelled the request) leaves resp empty: nothing is sent.
func limitOutcome(hctx context.Context, id jsonrpc.ID, resp Response, timeout time.Duration) Response {
	if resp.Body != nil || hctx.Err() == nil {
		return resp
	}
	switch context.Cause(hctx) {
	case errRequestTimeout:
		return cutOffResponse(id, timeoutError(timeout))
	case errShutdownCancel:
		return cutOffResponse(id, shutdownCancelError())
	}
	return resp
}

// cutOffResponse answers a request a limit ended while it ran: an error
// response but not a refusal (the request ran; over HTTP its status stays
// the one of its error code).
func cutOffResponse(id jsonrpc.ID, e *jsonrpc.Error) Response {
	return Response{Body: jsonrpc.AppendError(nil, id, e), Code: e.Code}
}
