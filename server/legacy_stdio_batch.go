package server

import (
	"context"
	"sync"

	"github.com/mcpgen/mcpgen/generated/mcp"
	"github.com/mcpgen/mcpgen/jsonrpc"
)

// dispatchBatch serves a JSON-RPC batch line of a connection whose legacy
// session negotiated batchVersion (legacy_batch.go), on the read loop l:
// notifications and responses at once, in order; then each request
// through the server's limits like a request of its own (its rate token,
// an in-flight slot of Limits.MaxInFlightPerConn that the loop takes
// before it reads on, waiting at the cap; the drain), each on a goroutine
// of its own; then the batch response, one line, once every request has
// its answer. A request that waits for the client's answer to a
// server-to-client request gives its slot back meanwhile, as a single
// request does (stdioWriter.waitingForClient). While the server drains the
// requests are refused; the ones still running when the connection ends
// are answered with the shutdown error (answerRemaining). A request whose
// id is that of a request in flight (a single one, another batch's, or an
// earlier one of this batch) is refused with Invalid Request, as on a
// single line; notifications/cancelled reaches a batched request as any
// other, and it then gets no answer in the batch response.
func (c *stdioConn) dispatchBatch(l *stdioLoop, line []byte) {
	elems, rerr := splitBatch(line)
	if rerr != nil {
		c.send(jsonrpc.AppendError(nil, jsonrpc.ID{}, rerr))
		return
	}
	b := readBatch(elems, func(msg jsonrpc.Message) {
		if msg.Kind == jsonrpc.KindNotification && msg.Method == mcp.MethodNotificationsCancelled {
			c.cancelled(msg.Params)
		}
		c.legacyMessage(l.ctx, msg)
	})
	sb := &stdioBatch{b: b, running: make([]bool, len(b.msgs)), left: 1} // left: the loop's own hold
	if b.requests > 0 {
		sb.ids = make(map[string]struct{}, b.requests)
		for _, msg := range b.msgs {
			if msg.Kind == jsonrpc.KindRequest {
				sb.ids[msg.ID.String()] = struct{}{}
			}
		}
		c.mu.Lock()
		c.batches[sb] = struct{}{}
		c.mu.Unlock()
	}
	var ids map[jsonrpc.ID]struct{} // the batch's request ids: each once
	if b.requests > 1 {
		ids = make(map[jsonrpc.ID]struct{}, b.requests)
	}
	for i, msg := range b.msgs {
		if msg.Kind != jsonrpc.KindRequest {
			continue
		}
		if _, dup := ids[msg.ID]; dup {
			// Its answer is not out yet (the batch response carries it):
			// a request of this id is still in flight.
			sb.answer(i, jsonrpc.AppendError(nil, msg.ID, inFlightIDError()))
			continue
		}
		if ids != nil {
			ids[msg.ID] = struct{}{}
		}
		if !c.startBatched(l, sb, i, msg) {
			break
		}
	}
	if body, due := c.batchDone(sb, -1, nil); due {
		c.sendBatch(sb, body)
	}
}

// startBatched starts request i of batch sb, or answers it with the error
// that refuses it; false when the connection ends (nothing more starts).
func (c *stdioConn) startBatched(l *stdioLoop, sb *stdioBatch, i int, msg jsonrpc.Message) bool {
	if c.draining {
		sb.answer(i, jsonrpc.AppendError(nil, msg.ID, shuttingDownError()))
		return true
	}
	if rr := c.s.admitRate(l.ctx); rr != nil { // ratelimit.go
		sb.answer(i, jsonrpc.AppendError(nil, msg.ID, rr.err()))
		return true
	}
	if !c.tryAcquire() {
		l.flush() // the loop may wait for a slot: answers go out first
		if !c.acquire(l.ctx, l.closing) {
			select {
			case <-l.closing:
				// The server began to drain while the loop waited (see
				// dispatch): this request and every later one is refused.
				c.draining = true
				sb.answer(i, jsonrpc.AppendError(nil, msg.ID, shuttingDownError()))
				return true
			default:
				return false
			}
		}
	}
	call := &stdioCall{req: stdioRequest{msg: msg}}
	// Its answer is an element of the batch response (batchDone, cutOff):
	// answerRemaining must not answer it alone.
	call.answered.Store(true)
	if c.slots != nil {
		call.slot.hold()
	}
	call.ctx.init(l.reqs, c.gone)
	c.mu.Lock()
	if c.over {
		c.mu.Unlock()
		c.release(&call.slot)
		return false
	}
	key := msg.ID.String()
	if _, dup := c.calls[key]; dup || c.batchedID(key, sb) {
		// The verdict of a single line (dispatch): the id is that of a
		// request in flight, on its own or in a batch (running, or
		// answered in another batch's response not written yet).
		c.mu.Unlock()
		c.release(&call.slot)
		sb.answer(i, jsonrpc.AppendError(nil, msg.ID, inFlightIDError()))
		return true
	}
	c.register(call) // notifications/cancelled reaches it, later ids see it
	c.wg.Add(1)
	c.mu.Unlock()
	sb.start(i)
	sess := c.legacy
	w := &stdioWriter{c: c, ctx: &call.ctx, slot: &call.slot}
	// Admitted here, on the read loop, in the batch's order (the
	// goroutine of a refused one only answers it).
	a, rerr := c.s.admitWatched(&call.ctx, msg)
	go func() {
		resp := serveAdmission(a, rerr, msg, handlerFunc(func(ctx context.Context) Response {
			w.ctx = ctx
			return sess.Handle(ctx, msg, w)
		}))
		c.mu.Lock()
		c.retire(call)
		c.mu.Unlock()
		body := resp.Body
		if call.cancelled.Load() {
			body = nil // the client cancelled it: no answer, as for a single line
		}
		// The request that completes the batch keeps its slot until the
		// batch response is queued (backpressure, as for a single answer).
		if out, due := c.batchDone(sb, i, body); due {
			c.sendBatch(sb, out)
		}
		c.end(call)
	}()
	return true
}

// stdioBatch is a batch line being served on a stdio connection, in
// stdioConn.batches until its response is due.
type stdioBatch struct {
	b       *legacyBatch
	mu      sync.Mutex // guards b.answers and what follows
	running []bool     // by position: the request runs
	left    int        // requests running, plus one while the loop starts them
	sent    bool       // the response is due (or was given up): nothing more is added
	// ids holds the keys (ID.String) of the batch's requests, set before
	// the batch enters stdioConn.batches and never changed after: each is
	// in flight until the batch response is written (batchedID).
	ids map[string]struct{}
}

// batchedID reports whether key is the id of a request of a batch other
// than except whose response is not written yet: its answer, even when
// its handler has returned, has not reached the client. c.mu is held.
func (c *stdioConn) batchedID(key string, except *stdioBatch) bool {
	for sb := range c.batches {
		if _, ok := sb.ids[key]; ok && sb != except {
			return true
		}
	}
	return false
}

// sendBatch writes the response of sb, which is due, and forgets sb. A
// batch whose every request was cancelled has no response (body nil): it
// is forgotten all the same, its requests having ended.
func (c *stdioConn) sendBatch(sb *stdioBatch, body []byte) {
	if body != nil {
		c.send(body)
	}
	c.batchSent(sb)
}

// batchSent forgets sb once its response is queued for writing: its ids
// are no longer in flight.
func (c *stdioConn) batchSent(sb *stdioBatch) {
	c.mu.Lock()
	delete(c.batches, sb)
	c.mu.Unlock()
}

// answer records the answer of request i, which does not run.
func (sb *stdioBatch) answer(i int, body []byte) {
	sb.mu.Lock()
	sb.b.answers[i] = body
	sb.mu.Unlock()
}

// start records that request i runs.
func (sb *stdioBatch) start(i int) {
	sb.mu.Lock()
	sb.running[i] = true
	sb.left++
	sb.mu.Unlock()
}

// batchDone records the end of request i of sb with its answer (i -1:
// the loop has started every request it will); due reports that the batch
// response is due now (false: not yet, or already given), out being that
// response (nil when every request was cancelled); the caller then calls
// sendBatch.
func (c *stdioConn) batchDone(sb *stdioBatch, i int, body []byte) (out []byte, due bool) {
	sb.mu.Lock()
	if i >= 0 {
		sb.running[i] = false
		if !sb.sent {
			sb.b.answers[i] = body
		}
	}
	sb.left--
	if sb.left > 0 || sb.sent {
		sb.mu.Unlock()
		return nil, false
	}
	sb.sent = true
	out = sb.b.response()
	sb.mu.Unlock()
	return out, true
}

// cutOff returns the response of sb with the requests still running
// answered with the shutdown error, the connection being about to close;
// nil when the response was already due.
func (sb *stdioBatch) cutOff() []byte {
	sb.mu.Lock()
	defer sb.mu.Unlock()
	if sb.sent {
		return nil
	}
	sb.sent = true
	for i, run := range sb.running {
		if run {
			sb.b.answers[i] = jsonrpc.AppendError(nil, sb.b.msgs[i].ID, shutdownCancelError())
		}
	}
	return sb.b.response()
}
