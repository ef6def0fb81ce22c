package driver

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"sync"
	"sync/atomic"
	"time"
)

// LoadOptions shape one stdio or HTTP measurement.
type LoadOptions struct {
	// Concurrency is the number of requests in flight (stdio window) or of
	// concurrent clients (HTTP).
	Concurrency int
	// Warmup runs load before the measuring window; its results are dropped.
	Warmup time.Duration
	// Duration is the measuring window.
	Duration time.Duration
	// Timeout bounds every wait for a reply (handshake, verify, drain).
	Timeout time.Duration
	// ExtraArgs are appended to the server's arguments (e.g. -cpuprofile F).
	ExtraArgs []string
	// Sequential sends one request at a time for at least MinRequests
	// (and at least Duration): the large-payload rows (see sequence).
	Sequential  bool
	MinRequests int
}

func (o LoadOptions) timeout() time.Duration {
	if o.Timeout <= 0 {
		return 10 * time.Second
	}
	return o.Timeout
}

// Request ids: 1 for initialize (legacy), 2 for the verification call,
// then the load.
const (
	initID   = 1
	verifyID = 2
	firstID  = 3
)

// stdioConn is a started server with pipes to its stdin and stdout.
type stdioConn struct {
	proc  *process
	stdin io.WriteCloser
	w     *bufio.Writer
	r     *bufio.Reader
}

// RunStdio starts s, checks the reply to c, then keeps opt.Concurrency
// requests in flight (matching replies by id, in any order) and measures.
func RunStdio(s Server, c Call, opt LoadOptions) (LoadResult, error) {
	enc, err := newEncoder(s.Protocol, c)
	if err != nil {
		return LoadResult{}, err
	}
	proc, stdinW, stdoutR, err := startPiped(s.Binary, append(append([]string{}, s.Args...), opt.ExtraArgs...))
	if err != nil {
		return LoadResult{}, err
	}
	defer stdoutR.Close()
	conn := &stdioConn{proc: proc, stdin: stdinW, w: bufio.NewWriterSize(stdinW, 64<<10), r: bufio.NewReaderSize(stdoutR, 1<<20)}
	res, err := conn.run(s, c, enc, opt)
	stdinW.Close()
	proc.stop(3 * time.Second)
	if err != nil {
		return LoadResult{}, fmt.Errorf("%s stdio: %w", s.Name, proc.describe(err))
	}
	return res, nil
}

func (c *stdioConn) run(s Server, call Call, enc encoder, opt LoadOptions) (LoadResult, error) {
	if s.Protocol == Legacy {
		if _, err := c.roundTrip(initID, initializeRequest(initID), opt.timeout()); err != nil {
			return LoadResult{}, fmt.Errorf("initialize: %w", err)
		}
		if err := c.send(initializedNotification); err != nil {
			return LoadResult{}, err
		}
	}
	send := func(id int64) ([]byte, error) {
		return c.roundTrip(id, enc.appendRequest(make([]byte, 0, enc.size()), id), opt.timeout())
	}
	if call.MultiRound {
		var err error
		if send, err = multiRound(s.Protocol, call, func(id int64, req []byte) ([]byte, error) {
			return c.roundTrip(id, req, opt.timeout())
		}); err != nil {
			return LoadResult{}, err
		}
	}
	reply, err := send(verifyID)
	if err != nil {
		return LoadResult{}, fmt.Errorf("verify call: %w", err)
	}
	if err := call.verify(reply, verifyID); err != nil {
		return LoadResult{}, fmt.Errorf("verify call: %w", err)
	}
	if opt.Sequential || call.MultiRound {
		return sequence(c.proc.cmd.Process.Pid, opt, send)
	}
	return c.load(enc, opt)
}

func (c *stdioConn) send(msg []byte) error {
	c.w.Write(msg)
	c.w.WriteByte('\n')
	return c.w.Flush()
}

// roundTrip sends msg and returns the reply with the given id, skipping
// anything else; on timeout it kills the server.
func (c *stdioConn) roundTrip(id int64, msg []byte, timeout time.Duration) ([]byte, error) {
	if err := c.send(msg); err != nil {
		return nil, err
	}
	type result struct {
		line []byte
		err  error
	}
	ch := make(chan result, 1)
	go func() {
		for {
			line, err := c.r.ReadBytes('\n')
			if err != nil {
				ch <- result{err: fmt.Errorf("reading reply %d: %w", id, err)}
				return
			}
			if got, _, ok := parseResponse(line); ok && got == id {
				ch <- result{line: line}
				return
			}
		}
	}()
	select {
	case r := <-ch:
		return r.line, r.err
	case <-time.After(timeout):
		c.proc.dumpAndKill()
		<-ch
		return nil, fmt.Errorf("no reply to request %d within %v", id, timeout)
	}
}

// load is the measured phase: a window of opt.Concurrency outstanding ids.
func (c *stdioConn) load(enc encoder, opt LoadOptions) (LoadResult, error) {
	n := max(opt.Concurrency, 1)
	var (
		sem      = make(chan struct{}, n) // one token per request in flight
		failed   = make(chan struct{})
		failOnce sync.Once
		failErr  error
		closing  atomic.Bool
		mu       sync.Mutex
		pending  = make(map[int64]time.Duration, n)
		samples  []sample
		base     = time.Now()
		from     = opt.Warmup
		to       = opt.Warmup + opt.Duration
		done     = make(chan struct{})
		pid      = c.proc.cmd.Process.Pid
		cpu      = newCPUWindow(pid, base, from, to)
		skip     skippedLines
	)
	fail := func(err error) {
		failOnce.Do(func() { failErr = err; close(failed) })
	}
	go func() { // reader
		defer close(done)
		for {
			line, err := c.r.ReadSlice('\n')
			if err != nil {
				if !closing.Load() {
					fail(fmt.Errorf("reading replies: %w", err))
				}
				return
			}
			id, isErr, ok := parseResponse(line)
			if !ok {
				skip.add(line)
				continue
			}
			now := time.Since(base)
			mu.Lock()
			start, found := pending[id]
			delete(pending, id)
			mu.Unlock()
			switch {
			case !found:
				fail(fmt.Errorf("reply for unknown id %d", id))
				return
			case isErr:
				fail(fmt.Errorf("error reply: %.300s", line))
				return
			}
			samples = append(samples, sample{end: now, lat: now - start})
			<-sem
		}
	}()
	acquire := func() bool {
		select {
		case sem <- struct{}{}:
			return true
		case <-failed:
			return false
		case <-time.After(opt.timeout()):
		}
		// The timer and a reply race when the whole machine stalled (a VM
		// paused, a load of 15 on 2 cores): a server that answers within a
		// second of the deadline is slow, not stuck.
		select {
		case sem <- struct{}{}:
			return true
		case <-failed:
			return false
		case <-time.After(time.Second):
		}
		mu.Lock()
		ids := pendingIDs(pending)
		mu.Unlock()
		fail(fmt.Errorf("no reply within %v (window %d; waiting for ids %v; %s)", opt.timeout(), n, ids, skip.String()))
		c.proc.dumpAndKill()
		return false
	}
	isFailed := func() bool {
		select {
		case <-failed:
			return true
		default:
			return false
		}
	}
	var buf []byte
	id := int64(firstID)
send:
	for time.Since(base) < to && !isFailed() {
		select {
		case sem <- struct{}{}:
		default: // window full: let the server see what we have, then wait
			if err := c.w.Flush(); err != nil {
				fail(err)
				break send
			}
			if !acquire() {
				break send
			}
		}
		mu.Lock()
		pending[id] = time.Since(base)
		mu.Unlock()
		buf = append(enc.appendRequest(buf[:0], id), '\n')
		id++
		if _, err := c.w.Write(buf); err != nil {
			fail(err)
			break send
		}
	}
	if err := c.w.Flush(); err != nil {
		fail(err)
	}
	for range n { // drain: get every token back
		if !acquire() {
			break
		}
	}
	closing.Store(true)
	if isFailed() {
		return LoadResult{}, failErr
	}
	used, rss := cpu.wait(), peakRSS(pid)
	c.stdin.Close()
	select {
	case <-done:
	case <-time.After(opt.timeout()):
		c.proc.kill()
		<-done
	}
	if isFailed() {
		return LoadResult{}, failErr
	}
	if len(samples) == 0 {
		return LoadResult{}, errors.New("no request completed")
	}
	return summarize(samples, from, to).withServer(used, rss), nil
}
