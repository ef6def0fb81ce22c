// Package floorpeer holds the floor servers: what a transport costs with no
// MCP and no JSON work at all. Each request's id is found by a byte scan and
// a canned reply carrying that id is written. The raw floor does it on one
// goroutine (read a line or body, scan, write); the concurrent floor has
// mcpgen's stdio goroutine shape (a reader handing on batches of lines, a
// read loop, parked worker goroutines, one writer writing every queued
// reply at once), so the gap between the two is the price of that shape
// alone.
package floorpeer

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"net/http"
	"runtime"
	"sync"
	"sync/atomic"
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
func ServeStdio(r io.Reader, w io.Writer) error {
	out := bufio.NewWriterSize(w, 64<<10)
	var buf []byte
	return lines(r, func(line []byte) error {
		if buf = AppendReply(buf[:0], line); len(buf) > 0 {
			buf = append(buf, '\n')
			_, err := out.Write(buf)
			return err
		}
		return nil
	}, out.Flush)
}

// ServeStdioConcurrent is the concurrent floor on stdio, in mcpgen's
// goroutine shape (server/stdio.go, stdio_write.go): a reader goroutine
// hands every whole line a read brought in to the read loop at once (one
// copy per batch); the loop hands each line to a parked worker goroutine
// (a new one when none is idle); the worker builds the reply and queues it
// under a mutex, waking the writer only when it sleeps; the writer takes
// the whole queue at once and, before flushing, yields twice at most while
// requests are still running.
func ServeStdioConcurrent(r io.Reader, w io.Writer) error {
	batches := make(chan [][]byte)
	readErr := make(chan error, 1)
	go func() {
		var batch [][]byte
		var buf []byte
		err := lines(r, func(line []byte) error {
			if cap(buf)-len(buf) < len(line) {
				buf = make([]byte, 0, max(len(line), 64<<10))
			}
			at := len(buf)
			buf = append(buf, line...)
			batch = append(batch, buf[at:len(buf):len(buf)])
			return nil
		}, func() error { // no more input buffered: hand the batch on
			if len(batch) > 0 {
				batches <- batch
				batch, buf = nil, nil
			}
			return nil
		})
		close(batches)
		readErr <- err
	}()
	q := &replyQueue{}
	q.ready.L = &q.mu
	writerDone := make(chan error, 1)
	go func() { writerDone <- q.write(w) }()
	jobs := make(chan []byte)
	var inflight sync.WaitGroup
	var idle atomic.Int32
	work := func(line []byte) {
		for {
			if reply := AppendReply(make([]byte, 0, len(replyPrefix)+len(replySuffix)+24), line); len(reply) > 0 {
				q.send(append(reply, '\n'))
			}
			q.running.Add(-1)
			inflight.Done()
			if idle.Add(1) > 64 {
				idle.Add(-1)
				return
			}
			var ok bool
			line, ok = <-jobs
			idle.Add(-1)
			if !ok {
				return
			}
		}
	}
	for batch := range batches {
		for _, line := range batch {
			inflight.Add(1)
			q.running.Add(1)
			select {
			case jobs <- line:
			default:
				go work(line)
			}
		}
	}
	inflight.Wait()
	close(jobs)
	q.close()
	err := <-readErr
	if werr := <-writerDone; err == nil {
		err = werr
	}
	return err
}

// replyQueue is the concurrent floor's output, as mcpgen's stdioOut.
type replyQueue struct {
	mu       sync.Mutex
	ready    sync.Cond
	queue    [][]byte
	sleeping bool
	closed   bool
	running  atomic.Int32
}

func (q *replyQueue) send(b []byte) {
	q.mu.Lock()
	q.queue = append(q.queue, b)
	if q.sleeping {
		q.sleeping = false
		q.ready.Signal()
	}
	q.mu.Unlock()
}

func (q *replyQueue) close() {
	q.mu.Lock()
	q.closed = true
	q.ready.Signal()
	q.mu.Unlock()
}

func (q *replyQueue) write(w io.Writer) error {
	out := bufio.NewWriterSize(w, 64<<10)
	var batch [][]byte
	yields := 0
	q.mu.Lock()
	defer q.mu.Unlock()
	for {
		if len(q.queue) == 0 {
			if out.Buffered() > 0 {
				if yields < 2 && q.running.Load() > 0 {
					yields++
					q.mu.Unlock()
					runtime.Gosched()
					q.mu.Lock()
					continue
				}
				q.mu.Unlock()
				err := out.Flush()
				q.mu.Lock()
				if err != nil {
					return err
				}
				continue
			}
			yields = 0
			if q.closed {
				return nil
			}
			q.sleeping = true
			q.ready.Wait()
			continue
		}
		batch, q.queue = q.queue, batch[:0]
		q.mu.Unlock()
		var err error
		for _, msg := range batch {
			if err == nil {
				_, err = out.Write(msg)
			}
		}
		q.mu.Lock()
		if err != nil {
			return err
		}
	}
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
