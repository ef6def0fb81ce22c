package server

import (
	"context"
	"errors"
	"io"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mcpgen/mcpgen/jsonrpc"
)

// stdioPromoteAfter is how long a request may run inline on the read loop
// (at least; at most twice that, see stdioLoop) before another goroutine
// takes the loop over (stdioLoop.promote); each connection reads it once.
// A variable only so that BenchmarkStdioDispatch can keep promotions,
// which depend on the machine's timing, out of its instruction count, and
// tests can rule them out or provoke them.
var stdioPromoteAfter = 50 * time.Microsecond

// stdioLoop is a connection's read loop: one goroutine at a time reads a
// batch of lines (nextBatch) and dispatches them, then reads on. A request
// (listen streams aside) runs inline, on that goroutine: no hand-off to a
// reader, a loop or a worker, no wake-up. So that a slow handler does not
// hold up the connection (notifications/cancelled, other requests, a
// legacy session's answers to the server's requests), a request that has
// run inline for one to two stdioPromoteAfter is promoted: the timer's
// goroutine takes the loop over (the rest of the batch, then the reading),
// and the goroutine of the slow request finishes it as a worker would,
// then leaves.
//
// The timer is not reset for each request (a Reset and a Stop per request
// were 150–200 ns, 3 % of the stdio server's CPU per request), and an
// inline request does not read the clock either (time.Since per request
// was 0.7 % of the server's CPU at 256 in flight): the timer, armed by the
// first inline request of a batch for stdioPromoteAfter, notes in seen
// which request (its seq) runs when it is armed or fires. When it fires
// and the same request still runs, that request has run for at least a
// whole period and is promoted; otherwise it notes the one running now
// and waits another period. So a request is promoted after running
// between one and two periods (the runtime's timers may add to both). The
// clock is read only when the timer is armed (armedAt), so that a fire of
// an earlier arming, which the loop stopped too late before it read on,
// is told apart and promotes nothing.
//
// armed says the timer is armed: only whoever moves it from false to true
// resets the timer (and sets seen); the timer clears it before it looks at
// seq and an inline request sets seq odd before it looks at armed, so one
// of them re-arms it for a request that runs (both atomics, sequentially
// consistent). The loop stops the timer before it waits for input.
//
// The owner holds mu from taking a batch until it is dispatched (not while
// it reads); watch, on serveStdio's goroutine, takes mu to start a drain
// and to end the loop, so no request is dispatched once the teardown has
// begun. A promoted request hands mu over without unlocking it: ownership
// changes hands through seq, which an inline request makes odd; whoever
// moves it from that odd value to the next even one (the request when it
// returns, or the timer) owns the loop, and the CAS orders the previous
// owner's writes before the new owner's reads. The fields below seq are
// the owner's.
type stdioLoop struct {
	c         *stdioConn
	ctx, reqs context.Context // the connection's; requests derive from reqs
	closing   <-chan struct{} // the server drains
	eof       chan error      // the read error that ended the input
	timer     *time.Timer     // promote, armed while requests run inline
	stall     time.Duration   // stdioStallAfter, read once
	promoteAt time.Duration   // stdioPromoteAfter, read once
	mu        sync.Mutex
	armed     atomic.Bool   // timer is armed
	seen      atomic.Uint64 // seq when the timer was armed or last fired
	epoch     time.Time     // armedAt's origin (monotonic)
	armedAt   atomic.Int64  // when the timer was last armed: time since epoch
	seq       atomic.Uint64
	cur       *stdioCall // the request running inline; its promoter reads it after its CAS

	lr      *jsonrpc.LineReader
	ended   bool        // watch ended the loop: dispatch nothing more
	batch   []stdioLine // lines still to dispatch
	lines   []stdioLine // the array of batch, reused by the next read (its lines are cleared as they are dispatched)
	err     error       // the read error after batch
	pending [][]byte    // answers of inline requests, not queued yet (flush)
	mid     int         // len(batch) when the first half's answers go out (midpoint), 0: none
}

// stdioPendingMax bounds the answers the read loop holds back (flush).
const stdioPendingMax = 64

// own runs the loop from where it stands, mu held: the rest of the batch,
// then reading on, until the input ends, the loop is ended, or a request
// is promoted (the loop is then the timer goroutine's).
func (l *stdioLoop) own() {
	for {
		if !l.dispatchBatch() {
			return
		}
		if l.err != nil {
			l.eof <- l.err
			l.mu.Unlock()
			return
		}
		l.mu.Unlock()
		// Nothing runs inline while the loop waits for input.
		if l.armed.CompareAndSwap(true, false) {
			l.timer.Stop()
		}
		clear(l.lines) // lines a loop that stopped early left undispatched
		batch, err := nextBatch(l.lr, l.lines[:0])
		l.mu.Lock()
		if l.ended {
			l.mu.Unlock()
			return
		}
		l.lines, l.batch, l.err = batch, batch, err
		l.mid = midpoint(len(batch))
	}
}

// watch waits, on serveStdio's goroutine, for the loop to end: the input
// ended, the drain has nothing left (or its grace ended and what was left
// is answered: swept), the connection's context is done, or writing
// failed. It returns why (nil: the end of the input or the drain).
//
// The loop holds mu over a whole batch, waiting for room in the output
// (or writing) while the client is slow, so a drain never ends it halfway
// through one. Once watch sees the end begin it guards the output against
// a client that reads nothing (guardStalls): the output is then given up
// within the stall limit, and watch no longer waits for mu (locked).
func (l *stdioLoop) watch() (result error, swept bool) {
	c := l.c
	closing := l.closing
	var drained <-chan struct{} // closed once the drain has nothing left
	var stopped <-chan struct{} // the drain's grace ended
	var sweep <-chan time.Time  // then: answer what is still unanswered
loop:
	for {
		select {
		case <-closing:
			closing = nil
			c.o.guardStalls(l.stall)
			l.locked(func() { c.draining = true }) // no request is dispatched from now on: no wg.Add
			drained, stopped = whenDone(&c.wg), c.s.lim.stopCtx.Done()
		case <-drained:
			break loop
		case <-stopped:
			stopped, sweep = nil, time.After(c.s.lim.stopAfter)
		case <-sweep:
			swept = true
			break loop
		case err := <-l.eof:
			if !errors.Is(err, io.EOF) {
				c.s.logger.Warn("stdio: reading input", "err", err)
				result = err
			}
			break loop
		case <-l.ctx.Done():
			result = l.ctx.Err()
			break loop
		case <-c.dead:
			result = c.o.err
			break loop
		}
	}
	c.o.guardStalls(l.stall)
	l.locked(func() { l.ended = true })
	l.timer.Stop()
	if swept {
		c.answerRemaining()
	}
	return result, swept
}

// locked runs f under mu as soon as the loop lets go of it. It returns
// once f has run, or before when the output is dead: the loop may then be
// stuck in a write to a client that reads nothing, holding mu, and f runs
// when (if ever) that write returns. Once the output is dead the loop
// dispatches nothing more (dispatchBatch, and c.over for a dispatch under
// way), with or without f.
func (l *stdioLoop) locked(f func()) {
	if l.mu.TryLock() {
		f()
		l.mu.Unlock()
		return
	}
	done := make(chan struct{})
	go func() {
		l.mu.Lock()
		f()
		l.mu.Unlock()
		close(done)
	}()
	select {
	case <-done:
	case <-l.c.dead:
		// The loop goes on once its write returns, perhaps in the middle
		// of a dispatch (waiting for a slot): it must start nothing.
		l.c.mu.Lock()
		l.c.over = true
		l.c.mu.Unlock()
	}
}

// midpoint is how many lines of a batch of n are left when the answers of
// the first half go out (0: none before the end). A client that sent the
// batch and waits on its answers can then send more while the second half
// runs, for one more write (stdio-16: 1.04–1.23× the requests a second,
// median 1.11×, p50 latency 0.77–0.92×, in seven A/B measurements of six
// runs; bench/README.md). Not for batches under 8 lines, nor over
// stdioMidpointMax: at 64 in flight the extra write cost about 10 % more
// CPU a request (median of six runs) for no more throughput.
func midpoint(n int) int {
	if n >= 8 && n <= stdioMidpointMax {
		return n / 2
	}
	return 0
}

// stdioMidpointMax is the longest batch whose first half's answers go out
// before its end (midpoint).
const stdioMidpointMax = 32

// dispatchBatch dispatches the lines left in batch and queues the inline
// answers, those of the first half once its second half begins (midpoint);
// false when a request was promoted meanwhile (the rest is the new
// owner's, midpoint included).
func (l *stdioLoop) dispatchBatch() bool {
	for len(l.batch) > 0 {
		if len(l.batch) == l.mid {
			l.flush()
		}
		line := l.batch[0]
		l.batch[0] = stdioLine{}
		l.batch = l.batch[1:]
		// The server may have begun to drain, or the connection ended,
		// since the batch was read.
		if l.ctx.Err() != nil {
			l.batch = nil
			break
		}
		// Two selects of one case each: each is a non-blocking receive
		// that takes no lock while its channel is open and empty; one
		// select of both cases locks both channels (selectgo), 540
		// instructions per line.
		select {
		case <-l.c.dead:
			// Nothing can be answered; watch ends the loop, perhaps
			// without waiting for mu (locked).
			l.batch = nil
			return true
		default:
		}
		select {
		case <-l.closing:
			l.c.draining = true
		default:
		}
		if !l.c.dispatch(l, line.b, line.own) {
			return false
		}
	}
	l.batch = nil
	l.flush()
	return true
}

// inline runs call on the loop's goroutine; false when it was promoted
// meanwhile: the loop is another goroutine's now.
func (l *stdioLoop) inline(call *stdioCall) bool {
	l.cur = call
	g := l.seq.Add(1) // odd: a request runs inline
	if !l.armed.Load() && l.armed.CompareAndSwap(false, true) {
		l.arm(g)
	}
	resp := l.c.runCall(call)
	if !l.seq.CompareAndSwap(g, g+1) {
		// Promoted: answer as a worker would (the promoter registers
		// the request in calls unless answer retires it first).
		if body, _ := l.c.answer(call, resp); body != nil {
			l.c.send(body)
		}
		l.c.end(call)
		return false
	}
	// Never in calls: nothing cancelled it, nothing else answers it.
	l.cur = nil
	if body := resp.Body; body != nil {
		// The loop's own answers go out together: at the batch's midpoint
		// and at its end (dispatchBatch), and every stdioPendingMax.
		l.pending = append(l.pending, body)
		if len(l.pending) >= stdioPendingMax {
			l.flush()
		}
	}
	l.c.end(call)
	return true
}

// promote takes the loop over from a request that has run inline since
// the timer was armed or last fired, stdioPromoteAfter ago (the timer's
// goroutine): the request's goroutine finishes it and leaves. When another
// request runs now, it is noted and given a whole period (the timer is
// armed again); with none inline the timer stays idle until the next
// inline request arms it.
func (l *stdioLoop) promote() {
	if time.Since(l.epoch)-time.Duration(l.armedAt.Load()) < l.promoteAt {
		// The fire of an earlier arming (the loop stopped the timer too
		// late, then armed it again): the timer is armed and fires again.
		return
	}
	l.armed.Store(false)
	g := l.seq.Load()
	if g%2 == 0 {
		return
	}
	if l.seen.Load() != g {
		if l.armed.CompareAndSwap(false, true) {
			l.arm(g)
		}
		return
	}
	if l.seq.CompareAndSwap(g, g+1) {
		call := l.cur
		l.cur = nil
		l.c.adopt(call)
		l.own()
	}
}

// arm arms the timer for a period from now, noting g as the request
// running (whoever moved armed from false to true).
func (l *stdioLoop) arm(g uint64) {
	l.seen.Store(g)
	l.armedAt.Store(int64(time.Since(l.epoch)))
	l.timer.Reset(l.promoteAt)
}

// flush queues the answers of the requests the loop ran inline: at the
// midpoint and the end of a batch (before reading on), before the loop may
// wait for a slot, and every stdioPendingMax answers. Like every send it
// waits while the output queue is full: a client that never reads stops
// the reading.
func (l *stdioLoop) flush() {
	if len(l.pending) == 0 {
		return
	}
	l.c.o.sendAll(context.Background(), l.pending)
	clear(l.pending)
	l.pending = l.pending[:0]
}
