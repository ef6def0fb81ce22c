package server

import (
	"errors"
	"io"
	"sync/atomic"
	"time"
)

// stdioStallAfter is how long, once ServeStdio has begun to stop (its ctx
// is done, its input ended or the server drains), one chunk of output may
// go unread before the output is given up (stdioOut.guardStalls): a client
// that reads nothing then no longer keeps ServeStdio from returning. A var
// for tests.
var stdioStallAfter = 2 * time.Second

// stdioChunk bounds one write to the client (a pipe's default capacity),
// so that a stall is told from a large line being read.
const stdioChunk = 64 << 10

// stdioStopChunk bounds one write once the stall guard runs (a page: a
// write to a full pipe returns once the client read that much), so that a
// client reading slowly but steadily (at least stdioStopChunk per stall
// limit) is told from one that reads nothing. A write under way when the
// guard starts keeps its size (up to stdioChunk, to be read within the
// limit from the guard's start).
const stdioStopChunk = 4 << 10

// errStdioStalled is the output's error once it was given up.
var errStdioStalled = errors.New("stdio: output given up: the client read none of it for " +
	"the stall limit while the server stopped; what was not written is dropped")

// progressWriter is the client's stdout, written in chunks of at most
// stdioChunk; it records when the chunk being written began, so that a
// write stuck on a client that reads nothing is told from a slow one.
type progressWriter struct {
	w     io.Writer
	epoch time.Time    // monotonic base of since
	since atomic.Int64 // when the chunk being written began, after epoch; 0: none is
	small atomic.Bool  // chunks of stdioStopChunk (the stall guard runs)
	off   atomic.Bool  // the output failed or was given up: write nothing more
}

func newProgressWriter(w io.Writer) *progressWriter {
	return &progressWriter{w: w, epoch: time.Now()}
}

func (p *progressWriter) Write(b []byte) (n int, err error) {
	for len(b) > 0 {
		if p.off.Load() {
			return n, errStdioStalled
		}
		size := stdioChunk
		if p.small.Load() {
			size = stdioStopChunk
		}
		chunk := b[:min(len(b), size)]
		p.since.Store(int64(time.Since(p.epoch)) + 1) // +1: never 0
		m, err := p.w.Write(chunk)
		p.since.Store(0)
		n += m
		if err != nil {
			return n, err
		}
		if m < len(chunk) {
			return n, io.ErrShortWrite
		}
		b = b[m:]
	}
	return n, nil
}

// stuckFor is how long the chunk being written has waited for the client
// (0 when no write is under way).
func (p *progressWriter) stuckFor() time.Duration {
	since := p.since.Load()
	if since == 0 {
		return 0
	}
	return time.Since(p.epoch) - time.Duration(since-1)
}

// guardStalls gives the output up once one chunk has waited for the
// client for longer than after (counted from the guard's start for a
// chunk begun before it): writing fails with errStdioStalled, every
// sender waiting for room (the read loop too) and close return at once. A
// goroutine blocked in the client's Write stays there until it returns;
// nothing is written after it. ServeStdio calls it once it begins to stop,
// never before: until then a client that does not read stops the reading
// (backpressure), however long it takes. Calls after the first do nothing;
// stopGuard ends it.
func (o *stdioOut) guardStalls(after time.Duration) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.guard != nil || o.guardDone {
		return
	}
	stop := make(chan struct{})
	o.guard = stop
	o.pw.small.Store(true)
	start := time.Now()
	go func() {
		tick := time.NewTicker(max(after/4, time.Millisecond))
		defer tick.Stop()
		for {
			select {
			case <-stop:
				return
			case <-tick.C:
				// A chunk begun before the stop may have waited while
				// the client paused, as it may until then.
				if min(o.pw.stuckFor(), time.Since(start)) > after {
					o.mu.Lock()
					o.fail(errStdioStalled)
					o.mu.Unlock()
					return
				}
			}
		}
	}()
}

// stopGuard ends guardStalls' goroutine, if it runs; guardStalls does
// nothing after it.
func (o *stdioOut) stopGuard() {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.guard != nil && !o.guardDone {
		close(o.guard)
	}
	o.guardDone = true
}
