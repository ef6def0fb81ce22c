package server

import (
	"bufio"
	"io"
	"runtime"
	"sync"
	"sync/atomic"
)

// stdioOutQueue is how many output lines may wait for the writer; a sender
// finding the queue full waits (a client that never reads stdout stops the
// requests that answer it, and so the reading).
const stdioOutQueue = 256

// stdioFlushYields bounds how often the writer, finding nothing queued
// while requests are still running, lets them run before it flushes: their
// answers then usually share one write (one syscall, one wake-up of the
// client) instead of one each.
const stdioFlushYields = 2

// stdioOut is a connection's output: whole lines queue here and one writer
// goroutine (run) writes them, everything queued at once into one buffer,
// flushed when nothing more is queued. Senders and the writer meet on a
// mutex; a sender wakes the writer only when it sleeps.
type stdioOut struct {
	mu       sync.Mutex
	space    sync.Cond // senders wait for room in queue
	ready    sync.Cond // the writer waits for lines
	queue    [][]byte
	sleeping bool // the writer waits on ready
	waiting  int  // senders waiting for room; the writer stays for them
	closed   bool // no new sends; the writer ends once the queue is written
	err      error
	dead     chan struct{} // closed when writing failed (err set)
	// running counts requests whose answer is still to come (listen
	// streams aside): the writer yields to them before flushing.
	running atomic.Int32
}

func newStdioOut() *stdioOut {
	o := &stdioOut{dead: make(chan struct{}), queue: make([][]byte, 0, 16)}
	o.space.L, o.ready.L = &o.mu, &o.mu
	return o
}

// send queues one encoded message (without its newline). It waits while
// the queue is full; it fails once writing failed or the output is closed.
func (o *stdioOut) send(b []byte) error {
	o.mu.Lock()
	if o.closed {
		o.mu.Unlock()
		return io.ErrClosedPipe
	}
	if len(o.queue) >= stdioOutQueue && o.err == nil {
		o.waiting++
		for len(o.queue) >= stdioOutQueue && o.err == nil {
			o.space.Wait()
		}
		o.waiting--
	}
	if err := o.err; err != nil {
		o.mu.Unlock()
		return err
	}
	o.queue = append(o.queue, b)
	if o.sleeping {
		o.sleeping = false
		o.ready.Signal()
	}
	o.mu.Unlock()
	return nil
}

// close ends the output: later sends fail, senders already waiting for
// room still get their line queued, and the writer ends once everything
// queued is written.
func (o *stdioOut) close() {
	o.mu.Lock()
	o.closed = true
	o.ready.Signal()
	o.mu.Unlock()
}

// run is the only writer of out. It takes everything queued at once,
// writes it into a 64 KiB buffer and flushes when the queue is empty; it
// returns once the output is closed and written, or writing failed (then
// err is set and dead closed). After a failure the queue is dropped and
// senders get the error.
func (o *stdioOut) run(out io.Writer, done chan<- struct{}) {
	defer close(done)
	bw := bufio.NewWriterSize(out, 64<<10)
	var batch [][]byte
	yields := 0
	o.mu.Lock()
	for {
		if len(o.queue) == 0 {
			if bw.Buffered() > 0 {
				// Nothing more queued: let running requests add their
				// answers to this write, a few times at most, then flush.
				if yields < stdioFlushYields && o.running.Load() > 0 {
					yields++
					o.mu.Unlock()
					runtime.Gosched()
					o.mu.Lock()
					continue
				}
				o.mu.Unlock()
				err := bw.Flush()
				o.mu.Lock()
				if err != nil {
					o.fail(err)
					return
				}
				continue
			}
			yields = 0
			if o.closed && o.waiting == 0 {
				o.mu.Unlock()
				return
			}
			o.sleeping = true
			o.ready.Wait()
			o.sleeping = false
			continue
		}
		batch, o.queue = o.queue, batch[:0]
		if o.waiting > 0 {
			o.space.Broadcast()
		}
		o.mu.Unlock()
		var err error
		for i, line := range batch {
			if err == nil {
				if _, err = bw.Write(line); err == nil {
					err = bw.WriteByte('\n')
				}
			}
			batch[i] = nil // the line may be collected once written
		}
		o.mu.Lock()
		if err != nil {
			o.fail(err)
			return
		}
	}
}

// fail records a write error (o.mu held, released here): senders get it
// from now on, the waiting ones are woken.
func (o *stdioOut) fail(err error) {
	o.err = err
	o.queue = nil
	close(o.dead)
	o.space.Broadcast()
	o.mu.Unlock()
}
