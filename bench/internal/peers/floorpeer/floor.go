// Package floorpeer is the "physical limit" server: it decodes each JSON-RPC
// request and writes a fixed-shape reply, with no MCP logic at all.
package floorpeer

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
)

// request is the minimal decode a real server cannot avoid.
type request struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
}

const (
	replyPrefix = `{"jsonrpc":"2.0","id":`
	replySuffix = `,"result":{"content":[{"type":"text","text":"Paris: 21.50 (metric)"}],"resultType":"complete"}}`
)

// AppendReply decodes one request and appends the fixed reply (without a
// trailing newline) to dst. Notifications (no id) append nothing.
func AppendReply(dst, line []byte) ([]byte, error) {
	var req request
	if err := json.Unmarshal(line, &req); err != nil {
		return dst, fmt.Errorf("floor: decode request: %w", err)
	}
	if len(req.ID) == 0 {
		return dst, nil
	}
	dst = append(dst, replyPrefix...)
	dst = append(dst, req.ID...)
	return append(dst, replySuffix...), nil
}

// ServeStdio reads newline-delimited requests from r until EOF and writes one
// reply line per request to w. One reader, one buffered writer, flushed
// whenever no more input is buffered. Undecodable lines are skipped.
func ServeStdio(r io.Reader, w io.Writer) error {
	in := bufio.NewReaderSize(r, 64<<10)
	out := bufio.NewWriterSize(w, 64<<10)
	var buf, long []byte
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
			if buf, _ = AppendReply(buf[:0], line); len(buf) > 0 {
				buf = append(buf, '\n')
				if _, werr := out.Write(buf); werr != nil {
					return werr
				}
			}
		}
		if err != nil {
			if ferr := out.Flush(); ferr != nil {
				return ferr
			}
			if errors.Is(err, io.EOF) {
				return nil
			}
			return err
		}
		if in.Buffered() == 0 {
			if err := out.Flush(); err != nil {
				return err
			}
		}
	}
}

// Handler answers POSTed requests with the fixed reply as application/json.
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
		reply, err := AppendReply(nil, body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		if len(reply) == 0 {
			w.WriteHeader(http.StatusAccepted)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(reply)
	})
}
