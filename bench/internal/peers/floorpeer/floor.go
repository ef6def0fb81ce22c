// Package floorpeer holds the floor servers: what a transport costs with no
// MCP and no JSON work at all. Each request's id is found by a byte scan and
// a canned reply carrying that id is written. The raw floor does it on one
// goroutine (read a line or body, scan, write); the concurrent floor has
// mcpgen's stdio goroutine shape (a read loop answering each batch of
// lines inline, with a timer per request that would promote a slow one to
// a goroutine of its own, and an output written by whichever sender finds
// nobody writing), so the gap between the two is the price of that shape
// alone.
package floorpeer

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"net/http"
	"sync"
	"sync/atomic"
	"time"
)

const (
	replyPrefix = `{"jsonrpc":"2.0","id":`
	replySuffix = `,"result":{"content":[{"type":"text","text":"Paris: 21.50 (metric)"}],"resultType":"complete"}}`
)

var idKey = []byte(`"id":`)

// ScanID returns the raw id token of a request by a byte scan: the bytes
// after the first `"id":` up to the next ',' or '}'. ok is false when there
// is none (a notification). It does not validate JSON: the floor does no
// JSON work, and the benchmark driver writes the id as the second member.
func ScanID(line []byte) (id []byte, ok bool) {
	i := bytes.Index(line, idKey)
	if i < 0 {
		return nil, false
	}
	rest := line[i+len(idKey):]
	end := bytes.IndexAny(rest, ",}")
	if end <= 0 {
		return nil, false
	}
	return bytes.TrimSpace(rest[:end]), true
}

// AppendReply appends the canned reply for the request in line (no trailing
// newline) to dst; a line without an id appends nothing.
func AppendReply(dst, line []byte) []byte {
	id, ok := ScanID(line)
	if !ok {
		return dst
	}
	dst = append(dst, replyPrefix...)
	dst = append(dst, id...)
	return append(dst, replySuffix...)
}

// lines calls fn with every newline-delimited, non-blank line of r (the
// slice is only valid during the call) until EOF; after each line, flush is
// called when no more input is buffered.
func lines(r io.Reader, fn func(line []byte) error, flush func() error) error {
	in := bufio.NewReaderSize(r, 64<<10)
	var long []byte
	for {
		line, err := in.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) { // rare: line longer than the buffer
			long = append(long[:0], line...)
			for errors.Is(err, bufio.ErrBufferFull) {
				line, err = in.ReadSlice('\n')
				long = append(long, line...)
			}
			line = long
		}
		if len(bytes.TrimSpace(line)) > 0 {
			if ferr := fn(line); ferr != nil {
				return ferr
			}
		}
		if err != nil {
			if ferr := flush(); ferr != nil {
				return ferr
			}
			if errors.Is(err, io.EOF) {
				return nil
			}
			return err
		}
		if in.Buffered() == 0 {
			if err := flush(); err != nil {
				return err
			}
		}
	}
}

// ServeStdio is the raw floor on stdio: one goroutine reads each line,
// scans its id and writes the canned reply into a buffered writer, flushed
// whenever no more input is buffered.
func ServeStdio(r io.Reader, w io.Writer) error { return ServeStdioWork(r, w, 0) }

// ServeStdioWork is the raw floor that also keeps the CPU busy for work
// with each request before it answers, as if it ran a handler of that
// cost: a sweep of work finds the CPU a request may cost any server on
// one goroutine for a given share of the raw floor (bench/README.md).
func ServeStdioWork(r io.Reader, w io.Writer, work time.Duration) error {
	out := bufio.NewWriterSize(w, 64<<10)
	var buf []byte
	return lines(r, func(line []byte) error {
		if work > 0 {
			spin(work)
		}
		if buf = AppendReply(buf[:0], line); len(buf) > 0 {
			buf = append(buf, '\n')
			_, err := out.Write(buf)
			return err
		}
		return nil
	}, out.Flush)
}

// ServeStdioConcurrent is the concurrent floor on stdio, in mcpgen's
// goroutine shape (server/stdio_loop.go, stdio_write.go): the goroutine
// that owns the read loop reads every whole line a read brought in (one
// copy per batch) and answers each inline, arming a reused timer per
// request that would promote a slow one (another goroutine takes the loop
// over, settled by one CAS); the batch's replies are queued together under
// a mutex (those of a batch's first half, for batches of 8 to 32 lines,
// once its second half begins), and a sender that finds nobody writing
// writes them and flushes, so there is no writer goroutine to wake;
// replies others queued meanwhile a goroutine writes on (a sender writes
// only its own lines).
func ServeStdioConcurrent(r io.Reader, w io.Writer) error {
	l := &floorLoop{in: bufio.NewReaderSize(r, 64<<10), out: &floorOut{bw: bufio.NewWriterSize(w, 64<<10)},
		done: make(chan error, 1)}
	l.out.idle.L = &l.out.mu
	l.timer = time.AfterFunc(time.Hour, l.promote)
	l.timer.Stop()
	go l.own()
	err := <-l.done
	l.timer.Stop()
	l.inflight.Wait()
	if werr := l.out.close(); err == nil {
		err = werr
	}
	return err
}

// floorLoop is the concurrent floor's read loop, as mcpgen's stdioLoop:
// one goroutine owns it at a time; seq is odd while a request runs inline.
type floorLoop struct {
	in       *bufio.Reader
	out      *floorOut
	done     chan error
	timer    *time.Timer
	seq      atomic.Uint64
	inflight sync.WaitGroup // requests not yet answered (promoted ones too)

	batch   [][]byte // the owner's: lines still to answer
	pending [][]byte // replies of the batch not yet queued
	mid     int      // len(batch) when the first half's replies go out, 0: none
	err     error    // the read error after batch
}

// own answers the rest of the batch, then reads and answers on, until the
// input ends or a request is promoted.
func (l *floorLoop) own() {
	for {
		for len(l.batch) > 0 {
			if len(l.batch) == l.mid && len(l.pending) > 0 {
				l.out.send(l.pending)
				l.pending = nil
			}
			line := l.batch[0]
			l.batch = l.batch[1:]
			l.inflight.Add(1)
			g := l.seq.Add(1)
			l.timer.Reset(50 * time.Microsecond)
			reply := AppendReply(make([]byte, 0, len(replyPrefix)+len(replySuffix)+24), line)
			if !l.seq.CompareAndSwap(g, g+1) { // promoted: the loop is another goroutine's
				if len(reply) > 0 {
					l.out.send([][]byte{reply})
				}
				l.inflight.Done()
				return
			}
			l.timer.Stop()
			l.inflight.Done()
			if len(reply) > 0 {
				l.pending = append(l.pending, reply)
			}
		}
		if len(l.pending) > 0 {
			l.out.send(l.pending)
			l.pending = nil
		}
		if l.err != nil {
			if errors.Is(l.err, io.EOF) {
				l.err = nil
			}
			l.done <- l.err
			return
		}
		l.batch, l.err = l.read()
		if l.mid = len(l.batch) / 2; len(l.batch) < 8 || len(l.batch) > 32 {
			l.mid = 0
		}
	}
}

// promote takes the loop over from the request running inline.
func (l *floorLoop) promote() {
	if g := l.seq.Load(); g%2 == 1 && l.seq.CompareAndSwap(g, g+1) {
		l.own()
	}
}

// read returns every whole non-blank line buffered after the next read,
// copied together into one buffer; err ends the input.
func (l *floorLoop) read() (batch [][]byte, err error) {
	var buf []byte
	for {
		var line []byte
		line, err = l.in.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) { // rare: line longer than the buffer
			long := append([]byte(nil), line...)
			for errors.Is(err, bufio.ErrBufferFull) {
				line, err = l.in.ReadSlice('\n')
				long = append(long, line...)
			}
			line = long
		}
		if len(bytes.TrimSpace(line)) > 0 {
			if cap(buf)-len(buf) < len(line) {
				buf = make([]byte, 0, max(len(line), l.in.Buffered()))
			}
			at := len(buf)
			buf = append(buf, line...)
			batch = append(batch, buf[at:len(buf):len(buf)])
		}
		if err != nil || l.in.Buffered() == 0 {
			return batch, err
		}
	}
}

// floorOut is the concurrent floor's output, as mcpgen's stdioOut.
type floorOut struct {
	mu      sync.Mutex
	idle    sync.Cond
	queue   [][]byte
	bw      *bufio.Writer
	writing bool
	err     error
}

// send queues the replies and, when nobody writes, writes them and
// flushes once nothing more is queued; replies others queue meanwhile a
// goroutine writes on, as mcpgen's stdioOut.write does (a sender writes
// only its own lines).
func (o *floorOut) send(replies [][]byte) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.queue = append(o.queue, replies...)
	if !o.writing {
		o.write(false)
	}
}

// write writes the queue (o.mu held, released while writing) until it is
// empty and flushed; a sender (rest false) writes its own lines, then
// leaves lines queued by others to a goroutine (rest true).
func (o *floorOut) write(rest bool) {
	o.writing = true
	own := !rest
	for o.err == nil {
		if len(o.queue) > 0 && !rest && !own {
			go func() {
				o.mu.Lock()
				o.write(true)
				o.mu.Unlock()
			}()
			return
		}
		own = false
		if len(o.queue) == 0 {
			if o.bw.Buffered() == 0 {
				break
			}
			o.mu.Unlock()
			err := o.bw.Flush()
			o.mu.Lock()
			o.err = err
			continue
		}
		batch := o.queue
		o.queue = nil
		o.mu.Unlock()
		var err error
		for _, reply := range batch {
			if err == nil {
				if _, err = o.bw.Write(reply); err == nil {
					err = o.bw.WriteByte('\n')
				}
			}
		}
		o.mu.Lock()
		o.err = err
	}
	o.writing = false
	o.idle.Broadcast()
}

// close waits for the writing to end and returns its error.
func (o *floorOut) close() error {
	o.mu.Lock()
	defer o.mu.Unlock()
	for o.writing {
		o.idle.Wait()
	}
	return o.err
}

// Handler is the raw floor on HTTP: read the POSTed body, scan its id,
// answer the canned reply as application/json. net/http already serves
// each connection on its own goroutine and mcpgen answers inline in the
// handler, so on HTTP the raw floor is also the concurrent one.
func Handler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			http.Error(w, "POST only", http.StatusMethodNotAllowed)
			return
		}
		body, err := io.ReadAll(r.Body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		reply := AppendReply(nil, body)
		if len(reply) == 0 {
			w.WriteHeader(http.StatusAccepted)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(reply)
	})
}

// spin keeps the CPU busy for d (the monotonic clock read every 64 rounds
// of a loop the compiler cannot drop).
func spin(d time.Duration) {
	start := time.Now()
	x := uint64(1)
	for {
		for range 64 {
			x = x*6364136223846793005 + 1442695040888963407
		}
		if time.Since(start) >= d {
			break
		}
	}
	spinSink.Store(x)
}

var spinSink atomic.Uint64
