package server

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"math"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mcpgen/mcpgen/generated/mcp"
	"github.com/mcpgen/mcpgen/internal/jsonscan"
	"github.com/mcpgen/mcpgen/jsonrpc"
)

// stdioDrain is how long ServeStdio lets in-flight requests finish (and be
// answered) after its input ends, before it cancels them.
const stdioDrain = 2 * time.Second

// ServeStdio serves newline-delimited JSON-RPC on in/out until in ends or
// ctx is done; many requests are in flight at once and one writer at a
// time keeps lines whole.
//
// Every request runs inline on the read loop and is answered when it is
// done; one that has not returned after 50 to 100 µs is promoted (the reading
// goes on on another goroutine while it finishes), so a slow request holds
// up nothing and answers may come out of order. notifications/cancelled
// cancels that request's context; nothing more is written for it. A line that is not
// JSON gets -32700, a non-request object -32600, a line over the size
// limit (16 MiB) -32600; reading goes on. Nothing but MCP messages is
// written to out (diagnostics go to Options.Logger, stderr by default).
// When a subscriptions/listen stream is ended by the server (Shutdown), its
// result is written followed by notifications/cancelled for its id, as the
// stdio binding requires.
//
// At most Limits.MaxInFlightPerConn requests (listen streams aside) are in
// flight; at the cap the next line is not read until one is answered, and
// an answer waits while the output is not being read, so a client that
// never reads stdout stops being read instead of growing the server (a
// request's notifications wait too, until it is cancelled: its Notify then
// returns the context's error). A
// request of a legacy session that waits for the client's answer to a
// server-to-client request (elicitation, sampling, roots) gives its slot
// back while it waits, so the answers are still read; at most
// 4×MaxInFlightPerConn requests wait so, past that an Ask fails with
// -32603 {"reason":"busy"}. Each request of a JSON-RPC batch line (a
// 2025-03-26 session) holds a slot in the same way; the batch response is
// written once all of them are answered.
//
// At the end of in, open listen streams are cancelled at once, other
// requests get up to 2 s to finish and be answered, then the ones left are
// answered with -32603 {"reason":"shutdown"} and cancelled, and ServeStdio
// returns nil. When the server drains (Shutdown), new requests are refused
// with that error, in-flight ones finish and are answered, listen streams
// end with their result, and ServeStdio returns nil once nothing is left
// (or Shutdown's grace ended and the requests it cancelled were answered).
// When ctx is done it cancels everything and returns ctx.Err().
//
// Stopping (ctx done, the end of in, Shutdown) waits for the client to
// read the answers, however slowly it reads (out is written 4 KiB at a time
// from then on), but not for a client that reads nothing: once a write to
// out has waited 2 s for it (counted from the stop), the output is given
// up, what was not written is dropped, and ServeStdio returns (an error
// saying so, unless ctx's). The goroutine blocked in out's Write stays
// there until it returns, and writes nothing more.
func (s *Server) ServeStdio(ctx context.Context, in io.Reader, out io.Writer) error {
	return s.serveStdio(ctx, in, out, jsonrpc.DefaultMaxMessageSize)
}

type stdioConn struct {
	s    *Server
	o    *stdioOut     // the output (stdio_write.go)
	dead chan struct{} // o.dead: closed when writing failed
	mu   sync.Mutex
	// calls holds, by id text, the requests in flight while the read loop
	// reads on: listen streams and promoted requests (stdioLoop.promote
	// registers them). A request running inline is not in it: the loop
	// reads nothing, so nothing can cancel it, repeat its id or outlive
	// it, before it is promoted or done (a key string, two map writes and
	// a lock of mu per request saved).
	calls map[string]*stdioCall
	// batches holds the batch lines whose response is not written yet
	// (legacy_stdio_batch.go): answerRemaining answers them.
	batches map[*stdioBatch]struct{}
	// ncalls is len(calls), for the read loop's duplicate check without
	// mu: only the loop adds calls, so none is added while it looks.
	ncalls atomic.Int32
	gone   *ctxRef // a cancelled child of reqs: cancelled calls' context (stdio_ctx.go)
	wg     sync.WaitGroup
	jobs   chan *stdioCall // hands a listen stream to a parked worker
	// jobsClosed is set under mu when serveStdio closes jobs (closeJobs).
	jobsClosed bool
	idle       atomic.Int32
	slots      *stdioSlots // the requests in flight (MaxInFlightPerConn); nil: no limit
	// waiting holds one token per request of a legacy session that waits
	// for the client's answer to a server request; such a request gives its
	// slot back meanwhile (see waitingForClient).
	waiting chan struct{}
	// draining is set under the read loop's mutex once the server drains
	// (stdioLoop): requests are refused from then on, so c.wg gets no Add
	// after the drain waits on it.
	draining bool
	// over is set under mu when the teardown goes on without the read
	// loop's mutex (the output was given up while the loop held it,
	// stdioLoop.locked): dispatch starts nothing from then on, so c.wg
	// gets no Add after the teardown waits on it.
	over   bool
	client string         // the connection's identity for per-client quotas
	legacy *legacySession // set by initialize (legacy_stdio.go); read loop only
}

// stdioCall is one request in flight: what the loop or a worker runs and what
// notifications/cancelled and the end of the connection act on (one
// allocation per request).
//
// Its id is req.msg.ID, whose text (id.String) is its key in calls. The
// fields are ordered so that the small ones share words: 288 bytes, a size
// class below the 352 it took with the id and its key held apart.
type stdioCall struct {
	ctx       callCtx // the handler's: a child of reqs (stdio_ctx.go)
	req       stdioRequest
	w         stdioWriter
	cancelled atomic.Bool // the client sent notifications/cancelled for it
	answered  atomic.Bool // its response is written (or must not be)
	slot      stdioSlot
	inCalls   bool // under c.mu: registered in calls
	retired   bool // under c.mu: done with calls (serve): not to be registered
	listen    bool
}

// id is the request's id.
func (call *stdioCall) id() jsonrpc.ID { return call.req.msg.ID }

func (s *Server) serveStdio(ctx context.Context, in io.Reader, out io.Writer, maxLine int) error {
	ctx, cancelAll := context.WithCancel(ctx)
	defer cancelAll()
	o := newStdioOut(out)
	c := &stdioConn{s: s, o: o, dead: o.dead, calls: map[string]*stdioCall{},
		batches: map[*stdioBatch]struct{}{}, jobs: make(chan *stdioCall),
		client: nextConnID("stdio")}
	if n := s.lim.cfg.MaxInFlightPerConn; n > 0 {
		n = min(n, maxStdioSlots) // beyond it, as good as no cap
		c.slots = newStdioSlots(n)
		c.waiting = make(chan struct{}, n*waitingPerSlot)
	}
	ctx = withClientID(ctx, c.client)
	// Requests derive from reqs, which the end of a drain's grace cancels
	// with errShutdownCancel (they are then answered, see serveLimited);
	// the read loop watches ctx only.
	reqs, cancelReqs := context.WithCancelCause(ctx)
	defer cancelReqs(nil)
	c.gone = newGoneRef(reqs)
	defer context.AfterFunc(s.lim.stopCtx, func() { cancelReqs(errShutdownCancel) })()
	defer c.closeJobs() // parked workers exit

	l := &stdioLoop{c: c, ctx: ctx, reqs: reqs, lr: jsonrpc.NewLineReader(in, maxLine),
		closing: s.closing, eof: make(chan error, 1), stall: stdioStallAfter, promoteAt: stdioPromoteAfter}
	l.epoch = time.Now()
	l.timer = time.AfterFunc(time.Hour, l.promote)
	l.timer.Stop()
	l.mu.Lock()
	go l.own()
	result, swept := l.watch()
	// Input ended: listen streams end now, other requests may finish.
	c.mu.Lock()
	for _, call := range c.calls {
		if call.listen || result != nil {
			call.ctx.cancel()
		}
	}
	c.mu.Unlock()
	if swept || !waitUnlessDead(&c.wg, stdioDrain, c.dead) {
		c.answerRemaining()
		cancelAll()
		waitTimeout(&c.wg, time.Second)
	}
	o.close()
	o.stopGuard()
	if result == nil && o.err != nil {
		result = o.err
	}
	return result
}

// stdioBatchLines bounds the lines dispatched between two reads.
const stdioBatchLines = 1024

// nextBatch reads the next input lines: every whole line the read brought
// in (at least one, waiting for it), copied together into one buffer (one
// allocation per read, not per line). A line over the size limit is an
// entry without bytes; a line longer than the line reader's buffer is
// handed in the buffer it was assembled in (own), not copied. err is the
// read error that ended the batch (io.EOF at the end of the input); the
// lines before it are in the batch. The lines are appended to batch (the
// previous batch's array, emptied, so that it is not grown again).
func nextBatch(lr *jsonrpc.LineReader, batch []stdioLine) ([]stdioLine, error) {
	var err error
	var buf []byte
	for len(batch) < stdioBatchLines {
		var line []byte
		line, err = lr.Next()
		if errors.Is(err, jsonrpc.ErrMessageTooLarge) {
			batch, err = append(batch, stdioLine{}), nil
		} else if err != nil {
			break
		} else if lr.Take(line) {
			// A long line: its buffer is the request's now, not a copy.
			// Uncut: its capacity is the buffer a view of it keeps (a
			// kept buffer reused for a shorter line is larger).
			batch = append(batch, stdioLine{b: line, own: true})
		} else {
			if cap(buf)-len(buf) < len(line) {
				// The lines still to come in this batch are buffered.
				buf = make([]byte, 0, len(line)+lr.Buffered())
			}
			at := len(buf)
			buf = append(buf, line...)
			batch = append(batch, stdioLine{b: buf[at:len(buf):len(buf)]})
		}
		if !lr.LineBuffered() {
			break
		}
	}
	return batch, err
}

// whenDone returns a channel closed once wg is done.
func whenDone(wg *sync.WaitGroup) <-chan struct{} {
	done := make(chan struct{})
	go func() {
		wg.Wait()
		close(done)
	}()
	return done
}

// answerRemaining answers every request still in flight with the shutdown
// error (a batch line: its response, with that error for the requests still
// running): the connection is about to close, and no request goes
// unanswered.
func (c *stdioConn) answerRemaining() {
	c.mu.Lock()
	var left []*stdioCall
	for _, call := range c.calls {
		left = append(left, call)
	}
	var batches []*stdioBatch
	for sb := range c.batches {
		batches = append(batches, sb)
	}
	c.mu.Unlock()
	for _, call := range left {
		if !call.cancelled.Load() && call.answered.CompareAndSwap(false, true) {
			c.send(jsonrpc.AppendError(nil, call.id(), shutdownCancelError()))
		}
	}
	for _, sb := range batches {
		if body := sb.cutOff(); body != nil {
			c.send(body)
		}
	}
}

// waitUnlessDead waits for wg up to d, or until dead is closed (the
// output failed: nothing can be answered any more); it reports whether wg
// finished. A nil dead is never closed (waitTimeout).
func waitUnlessDead(wg *sync.WaitGroup, d time.Duration, dead <-chan struct{}) bool {
	select {
	case <-dead:
		return false
	default:
	}
	done := whenDone(wg)
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-done:
		return true
	case <-t.C:
	case <-dead:
	}
	return false
}

// waitTimeout waits for wg up to d; it reports whether wg finished.
func waitTimeout(wg *sync.WaitGroup, d time.Duration) bool {
	return waitUnlessDead(wg, d, nil)
}

// send queues one encoded message.
func (c *stdioConn) send(b []byte) error { return c.o.send(b) }

// stdioLine is one input line of a batch (nextBatch): b is nil for a line
// over the size limit; own is set when b is in a buffer of its own (a long
// line taken from the line reader, uncut: its capacity is that buffer's
// size, which DecodeOwned weighs a view against), not in one shared with
// the other lines of its read.
type stdioLine struct {
	b   []byte
	own bool
}

// dispatch handles one input line (nil: a line over the size limit) on
// the read loop l; own says the line is in a buffer of its own
// (stdioLine). Requests run in contexts derived from l.reqs, inline (listen
// streams on a worker). It returns false when an inline request was
// promoted: the loop is another goroutine's now.
func (c *stdioConn) dispatch(l *stdioLoop, line []byte, own bool) bool {
	ctx, reqs := l.ctx, l.reqs
	if line == nil {
		c.send(jsonrpc.AppendError(nil, jsonrpc.ID{}, &jsonrpc.Error{Code: jsonrpc.CodeInvalidRequest, Message: "Invalid Request: message exceeds the maximum size"}))
		return true
	}
	if c.legacy != nil && jsonscan.Kind(line) == '[' && c.legacy.ProtocolVersion() == batchVersion {
		c.dispatchBatch(l, line) // legacy_stdio_batch.go
		return true
	}
	decode := jsonrpc.Decode
	if own {
		// Nothing else uses or reuses the line's buffer: a large string
		// argument may be decoded as a view of it.
		decode = jsonrpc.DecodeOwned
	}
	msg, derr := decode(line)
	if derr != nil {
		if msg.Kind != jsonrpc.KindNotification {
			c.send(jsonrpc.AppendError(nil, msg.ID, derr))
		}
		return true
	}
	switch msg.Kind {
	case jsonrpc.KindNotification:
		if msg.Method == mcp.MethodNotificationsCancelled {
			c.cancelled(msg.Params)
		}
		c.legacyMessage(ctx, msg)
		return true
	case jsonrpc.KindRequest:
	default:
		c.legacyMessage(ctx, msg) // answers to a legacy session's requests; else ignored
		return true
	}
	if c.draining {
		c.send(jsonrpc.AppendError(nil, msg.ID, shuttingDownError()))
		return true
	}
	if rr := c.s.admitRate(ctx); rr != nil { // ratelimit.go
		c.send(jsonrpc.AppendError(nil, msg.ID, rr.err()))
		return true
	}
	listen := msg.Method == mcp.MethodSubscriptionsListen
	if listen {
		// A stream may live as long as the connection: its params must
		// not keep the whole batch its line was read with.
		msg, _ = jsonrpc.Decode(bytes.Clone(line))
	}
	if !listen && !c.tryAcquire() {
		l.flush() // the loop may wait for a slot: answers go out first
		if !c.acquire(ctx, l.closing) {
			select {
			case <-l.closing:
				// The server began to drain while the loop waited: the
				// request is refused, as every later one is (the loop
				// holds its mutex here, so the drain waits for it).
				c.draining = true
				c.send(jsonrpc.AppendError(nil, msg.ID, shuttingDownError()))
			default:
			}
			return true
		}
	}
	call := &stdioCall{req: stdioRequest{msg: msg}, listen: listen}
	if !listen && c.slots != nil {
		call.slot.hold()
	}
	call.ctx.init(reqs, c.gone)
	c.mu.Lock()
	if c.over {
		// The teardown goes on without the loop (the output was given
		// up): nothing can be answered, nothing must start.
		c.mu.Unlock()
		c.release(&call.slot)
		return true
	}
	if listen || c.ncalls.Load() > 0 || len(c.batches) > 0 {
		// A request of this id in flight is in calls (no other runs
		// inline now), or in a batch whose response is not written yet.
		key := msg.ID.String()
		if _, dup := c.calls[key]; dup || c.batchedID(key, nil) {
			c.mu.Unlock()
			c.release(&call.slot)
			c.send(jsonrpc.AppendError(nil, msg.ID, inFlightIDError()))
			return true
		}
		if listen {
			c.register(call)
		}
	}
	c.wg.Add(1)
	c.mu.Unlock()
	c.eraOf(ctx, msg, &call.req)
	call.w = stdioWriter{c: c, ctx: &call.ctx, slot: &call.slot}
	if listen {
		c.spawn(call) // a stream lives long: its own goroutine
		return true
	}
	return l.inline(call)
}

// inFlightIDError refuses a request whose id is that of a request in
// flight on the connection.
func inFlightIDError() *jsonrpc.Error {
	return &jsonrpc.Error{Code: jsonrpc.CodeInvalidRequest, Message: "Invalid Request: a request with this id is still in flight"}
}

// run serves one request on a worker (a listen stream; other requests run
// inline, stdioLoop) and answers it.
func (c *stdioConn) run(call *stdioCall) {
	body, code := c.serve(call)
	if body != nil && c.send(body) == nil && call.listen && code == 0 {
		// The server ended the stream: on stdio it also sends
		// notifications/cancelled for the listen request's id.
		params := append(append([]byte(`{"requestId":`), call.id().String()...), `,"reason":"subscription closed by the server"}`...)
		c.send(jsonrpc.AppendNotification(nil, mcp.MethodNotificationsCancelled, params))
	}
	c.end(call)
}

// serve runs call's handler and returns its answer (answer).
func (c *stdioConn) serve(call *stdioCall) (body []byte, code int64) {
	return c.answer(call, c.runCall(call))
}

// runCall runs call's handler under the server's limits.
func (c *stdioConn) runCall(call *stdioCall) Response {
	resp, _ := c.s.serveLimitedIn(&call.ctx, true, call.req.msg, call)
	return resp
}

// answer takes call, whose handler returned resp, out of calls (if it was
// registered; once retired it is not) and returns its answer, nil when
// nothing is to be written for it; code is the answer's error code (0: a
// result). end must follow once the answer is queued.
func (c *stdioConn) answer(call *stdioCall, resp Response) (body []byte, code int64) {
	c.mu.Lock()
	c.retire(call)
	c.mu.Unlock()
	// A request the client cancelled gets nothing more; one that ended
	// while the connection shuts down is still answered.
	if resp.Body == nil || call.cancelled.Load() || !call.answered.CompareAndSwap(false, true) {
		return nil, 0
	}
	return resp.Body, resp.Code
}

// retire takes call out of calls, if it is there, for good (c.mu held):
// adopt does not register it afterwards.
func (c *stdioConn) retire(call *stdioCall) {
	call.retired = true
	if call.inCalls {
		call.inCalls = false
		delete(c.calls, call.id().String())
		c.ncalls.Add(-1)
	}
}

// register enters call in calls under its id's text (c.mu held; the read
// loop only).
func (c *stdioConn) register(call *stdioCall) {
	call.inCalls = true
	c.calls[call.id().String()] = call
	c.ncalls.Add(1)
}

// adopt registers call, a request just promoted (by the loop's new owner,
// before it reads on), unless its handler returned meanwhile and it was
// retired (answer).
func (c *stdioConn) adopt(call *stdioCall) {
	c.mu.Lock()
	if !call.retired {
		c.register(call)
	}
	c.mu.Unlock()
}

// end ends call once its answer is queued (backpressure: the slot is
// given back only then).
func (c *stdioConn) end(call *stdioCall) {
	call.ctx.cancel()
	c.release(&call.slot)
	c.wg.Done()
}

// handleLimited answers the request (limitedHandler: serveLimitedIn runs
// the call itself, no closure is made for it).
func (call *stdioCall) handleLimited(ctx context.Context) Response { return call.w.c.handle(ctx, call) }

// acquire takes an in-flight slot of the connection, waiting while all are
// taken: the read loop stops reading (backpressure). false when the
// connection ends first, or the server begins to drain (closing): the
// drain, whose grace ends stuck requests, must not wait for a slot that
// only they can give back.
func (c *stdioConn) acquire(ctx context.Context, closing <-chan struct{}) bool {
	return c.slots == nil || c.slots.take(ctx.Done(), c.dead, closing)
}

// tryAcquire takes a free in-flight slot, if there is one, without
// waiting.
func (c *stdioConn) tryAcquire() bool {
	return c.slots == nil || c.slots.tryTake()
}

// stdioSlot says whether a request holds an in-flight slot of its
// connection (listen streams hold none): slotHeld, slotFree while it waits
// for the client's answer (waitingForClient), slotEnded once the request
// ended (release). Atomic: with Limits.RequestTimeout the handler runs on a
// goroutine of its own, which may take the slot back after the request
// timed out and ended; it then sees slotEnded and gives the slot straight
// back instead of keeping it for good.
type stdioSlot struct{ state atomic.Uint32 }

const (
	slotFree uint32 = iota
	slotHeld
	slotEnded
)

// hold records the slot acquire took for the request about to run.
func (slot *stdioSlot) hold() { slot.state.Store(slotHeld) }

// release ends the request's hold on its slot for good: the slot goes back
// if the request holds it, and the request can take none again.
func (c *stdioConn) release(slot *stdioSlot) {
	if slot.state.Swap(slotEnded) == slotHeld {
		c.slots.give()
	}
}

// waitingPerSlot bounds the requests of a connection that wait for the
// client's answers: MaxInFlightPerConn times this.
const waitingPerSlot = 4

// maxStdioSlots is the largest per-connection cap counted as set
// (Limits.MaxInFlightPerConn): the slots count in an int32 and the waiting
// requests in a channel of waitingPerSlot per slot. A larger cap, which no
// connection can reach, is taken as this one.
const maxStdioSlots = math.MaxInt32 / waitingPerSlot

// waitingForClient is called by a legacy session's request before it
// waits for the client's answer to a server-to-client request (an Ask).
// The request gives its in-flight slot back while it waits: the read loop
// must go on reading to see the answer, and a client that sends more
// requests before answering (a pipelining client) would otherwise leave
// the read loop stuck at the cap, and every request waiting, for good. The
// waiting requests are bounded too (waitingPerSlot per slot): past that
// the Ask fails with the busy error. done takes a slot again (waiting for
// one) before the request goes on.
func (w *stdioWriter) waitingForClient() (done func(), err error) {
	c, slot := w.c, w.slot
	if slot == nil || slot.state.Load() != slotHeld {
		return func() {}, nil
	}
	select {
	case c.waiting <- struct{}{}:
	default:
		return nil, limitError(reasonBusy, "Internal error: too many requests of this connection wait for the client's answers; answer them, then retry")
	}
	if !slot.state.CompareAndSwap(slotHeld, slotFree) {
		<-c.waiting // the request ended meanwhile (timed out): nothing to give back
		return func() {}, nil
	}
	c.slots.give()
	return func() {
		<-c.waiting
		if c.slots.take(w.ctx.Done(), c.dead, nil) && !slot.state.CompareAndSwap(slotFree, slotHeld) {
			c.slots.give() // the request ended while it waited: not its slot any more
		}
	}, nil
}

// maxIdleWorkers bounds the request goroutines kept parked for reuse.
const maxIdleWorkers = 64

// spawn runs call on a parked worker, or on a new one when none is idle.
// Reusing goroutines keeps their grown stacks: with a goroutine per request,
// stack growth (runtime.copystack) was 14% of the CPU profile under load.
// Only the read loop calls spawn; serveStdio closes jobs when it returns
// (closeJobs). The hand-off is made under mu, so that a loop that runs on
// after serveStdio ended without it (its output given up while the loop
// held its mutex, stdioLoop.locked) neither sends on the closed channel
// nor starts a handler: the call is ended unserved.
func (c *stdioConn) spawn(call *stdioCall) {
	c.mu.Lock()
	if c.jobsClosed {
		c.retire(call)
		c.mu.Unlock()
		c.end(call)
		return
	}
	select {
	case c.jobs <- call: // a parked worker receives without mu
		c.mu.Unlock()
		return
	default:
	}
	c.mu.Unlock()
	go c.worker(call)
}

// closeJobs closes jobs under mu (spawn): parked workers exit.
func (c *stdioConn) closeJobs() {
	c.mu.Lock()
	c.jobsClosed = true
	close(c.jobs)
	c.mu.Unlock()
}

// worker runs calls until too many workers are idle or jobs is closed.
func (c *stdioConn) worker(call *stdioCall) {
	for {
		c.run(call)
		if c.idle.Add(1) > maxIdleWorkers {
			c.idle.Add(-1)
			return
		}
		var ok bool
		call, ok = <-c.jobs
		c.idle.Add(-1)
		if !ok {
			return
		}
	}
}

// cancelled handles notifications/cancelled: the request's context is
// cancelled and nothing more is written for it. Unknown ids and malformed
// params (not an object, a member named twice) are ignored.
func (c *stdioConn) cancelled(params []byte) {
	var raw []byte
	_, repeated, ok := jsonscan.Members(params, func(key, value []byte) {
		if string(key) == "requestId" {
			raw = value
		}
	})
	var id jsonrpc.ID
	if repeated || !ok || raw == nil || json.Unmarshal(raw, &id) != nil {
		// Malformed (a repeated member among them, as a legacy session's
		// exactObject refuses): ignored, as cancellation asks.
		return
	}
	c.mu.Lock()
	call := c.calls[id.String()]
	c.mu.Unlock()
	if call != nil {
		call.cancelled.Store(true)
		call.ctx.cancel()
	}
}

// stdioWriter sends a request's notifications on the connection.
type stdioWriter struct {
	c    *stdioConn
	ctx  context.Context
	slot *stdioSlot // the request's in-flight slot
}

func (w *stdioWriter) Notify(method string, params any) error {
	if err := w.ctx.Err(); err != nil {
		return err
	}
	raw, err := notifyParams(params)
	if err != nil {
		return err
	}
	return w.c.o.sendFor(w.ctx, jsonrpc.AppendNotification(nil, method, raw))
}

// notifyParams encodes notification params (json.RawMessage as is).
func notifyParams(params any) ([]byte, error) {
	switch p := params.(type) {
	case nil:
		return nil, nil
	case json.RawMessage:
		return p, nil
	case []byte:
		return p, nil
	}
	return json.Marshal(params)
}
