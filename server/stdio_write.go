package server

import (
	"bufio"
	"context"
	"io"
	"sync"
)

// stdioOutQueue is how many output lines may wait to be written; a sender
// finding the queue full waits (a client that never reads stdout stops the
// requests that answer it, and so the reading).
const stdioOutQueue = 256

// stdioOut is a connection's output: whole lines queue here and one
// sender at a time writes them (no writer goroutine to wake): the sender
// that finds nobody writing writes its lines at once into one buffer and
// flushes when nothing more is queued; what others queued meanwhile a
// goroutine writes on (write). The read loop sends the answers it ran
// inline together (stdioLoop.flush), so they share a write, as the raw
// floor's do: at the end of a batch, at its midpoint (batches of 8 to 32
// lines) and every stdioPendingMax answers.
type stdioOut struct {
	mu      sync.Mutex
	space   sync.Cond // senders wait for room in queue
	idle    sync.Cond // close waits for the writing to end
	queue   [][]byte
	spare   [][]byte // the queue last written, reused
	bw      *bufio.Writer
	pw      *progressWriter // under bw: when the write under way began (stdio_stall.go)
	writing bool            // a sender writes (with mu released)
	waiting int             // senders waiting for room
	closed  bool            // no new sends
	err     error
	dead    chan struct{} // closed when writing failed (err set)

	guard     chan struct{} // closed to end guardStalls' goroutine
	guardDone bool          // stopGuard ran
}

func newStdioOut(out io.Writer) *stdioOut {
	pw := newProgressWriter(out)
	o := &stdioOut{dead: make(chan struct{}), queue: make([][]byte, 0, 16), pw: pw, bw: bufio.NewWriterSize(pw, 64<<10)}
	o.space.L, o.idle.L = &o.mu, &o.mu
	return o
}

// send queues one encoded message (without its newline), writing it when
// nobody else writes. It waits while the queue is full; it fails once
// writing failed or the output is closed.
func (o *stdioOut) send(b []byte) error {
	return o.sendAll(context.Background(), [][]byte{b})
}

// sendFor is send for a request's own message (a notification, a legacy
// session's request to the client): while the queue is full it also stops
// waiting when ctx is done, and then returns ctx's error without queuing
// b, so a handler cancelled while the client does not read is not held up.
func (o *stdioOut) sendFor(ctx context.Context, b []byte) error {
	return o.sendAll(ctx, [][]byte{b})
}

// sendAll queues every message of bs in order, as send would one by one,
// taking the lock once (or once per queue's worth). A ctx that can be
// done ends the waiting for room as sendFor says (the messages not queued
// yet are dropped).
func (o *stdioOut) sendAll(ctx context.Context, bs [][]byte) error {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.closed {
		return io.ErrClosedPipe
	}
	for len(bs) > 0 {
		if len(o.queue) >= stdioOutQueue && o.err == nil {
			if err := o.waitForRoom(ctx); err != nil {
				return err
			}
		}
		if o.err != nil {
			return o.err
		}
		n := min(len(bs), stdioOutQueue-len(o.queue))
		o.queue = append(o.queue, bs[:n]...)
		bs = bs[n:]
		if !o.writing {
			o.write(false)
		}
	}
	return o.err
}

// waitForRoom waits (o.mu held) until the queue has room or writing
// failed, or ctx is done, whose error it then returns.
func (o *stdioOut) waitForRoom(ctx context.Context) error {
	cancellable := ctx.Done() != nil
	if cancellable {
		// Cond waits cannot select: wake every waiter when ctx ends (the
		// others wait on).
		stop := context.AfterFunc(ctx, func() {
			o.mu.Lock()
			o.space.Broadcast()
			o.mu.Unlock()
		})
		defer stop()
	}
	o.waiting++
	defer func() {
		if o.waiting--; o.waiting == 0 {
			o.idle.Broadcast()
		}
	}()
	for len(o.queue) >= stdioOutQueue && o.err == nil {
		if cancellable && ctx.Err() != nil {
			return ctx.Err()
		}
		o.space.Wait()
	}
	return nil
}

// write writes the queue (o.mu held, released while writing) until it is
// empty and flushed, or writing failed (then err is set and dead closed;
// the queue is dropped and senders get the error). A sender calls it with
// rest false: it writes its own lines (while nobody writes the queue holds
// nothing else) and flushes them when nothing more is queued; lines others
// queue meanwhile are left to a goroutine that writes on (rest true). A
// sender must not go on writing others' lines for as long as they send
// faster than the client reads: the read loop would stop reading, and a
// request flooding notifications would never see the
// notifications/cancelled that stops it.
func (o *stdioOut) write(rest bool) {
	o.writing = true
	own := !rest // the next batch is the sender's own lines
	for o.err == nil {
		if len(o.queue) == 0 {
			if o.bw.Buffered() == 0 {
				break
			}
			o.mu.Unlock()
			err := o.bw.Flush()
			o.mu.Lock()
			if err != nil {
				o.fail(err)
			}
			continue
		}
		if !rest && !own {
			// Others' lines: a goroutine writes them (writing stays set).
			go func() {
				o.mu.Lock()
				o.write(true)
				o.mu.Unlock()
			}()
			return
		}
		own = false
		batch := o.queue
		o.queue = o.spare[:0]
		if o.waiting > 0 {
			o.space.Broadcast()
		}
		o.mu.Unlock()
		var err error
		for i, line := range batch {
			if err == nil {
				if _, err = o.bw.Write(line); err == nil {
					err = o.bw.WriteByte('\n')
				}
			}
			batch[i] = nil // the line may be collected once written
		}
		o.mu.Lock()
		o.spare = batch[:0]
		if err != nil {
			o.fail(err)
		}
	}
	o.writing = false
	o.idle.Broadcast()
}

// close ends the output: later sends fail; it returns once what was sent
// is written (senders already waiting for room still get their line
// written), or writing failed or was given up (guardStalls: a write may
// still be blocked in the client's Write).
func (o *stdioOut) close() {
	o.mu.Lock()
	o.closed = true
	for o.err == nil && (o.writing || o.waiting > 0) {
		o.idle.Wait()
	}
	o.mu.Unlock()
}

// fail records a write error (o.mu held): senders get it from now on, the
// waiting ones and close are woken. The first error stays.
func (o *stdioOut) fail(err error) {
	if o.err != nil {
		return
	}
	o.err = err
	o.pw.off.Store(true) // a write under way writes nothing more when it returns
	o.queue, o.spare = nil, nil
	close(o.dead)
	o.space.Broadcast()
	o.idle.Broadcast()
}
