// Package floorpeer holds the floor servers: what a transport costs with no
// MCP and no JSON work at all. Each request's id is found by a byte scan and
// a canned reply carrying that id is written. The raw floor does it on one
// goroutine (read a line or body, scan, write); the concurrent floor has
// mcpgen's stdio goroutine shape (a reader, a goroutine per request, one
// writer flushing when its queue is empty), so the gap between the two is
// the price of that shape alone.
package floorpeer

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"net/http"
	"sync"
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
// goroutine shape: the reader copies each line and starts a goroutine for
// it, which builds the reply and hands it to one writer goroutine; the
// writer flushes when its queue is empty.
func ServeStdioConcurrent(r io.Reader, w io.Writer) error {
	replies := make(chan []byte, 256)
	writerDone := make(chan error, 1)
	go func() {
		out := bufio.NewWriterSize(w, 64<<10)
		var err error
		for msg := range replies {
			if err == nil {
				_, err = out.Write(msg)
			}
			if err == nil && len(replies) == 0 {
				err = out.Flush()
			}
		}
		if err == nil {
			err = out.Flush()
		}
		writerDone <- err
	}()
	var inflight sync.WaitGroup
	err := lines(r, func(line []byte) error {
		req := bytes.Clone(line)
		inflight.Go(func() {
			if reply := AppendReply(make([]byte, 0, len(replyPrefix)+len(replySuffix)+24), req); len(reply) > 0 {
				replies <- append(reply, '\n')
			}
		})
		return nil
	}, func() error { return nil })
	inflight.Wait()
	close(replies)
	if werr := <-writerDone; err == nil {
		err = werr
	}
	return err
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
