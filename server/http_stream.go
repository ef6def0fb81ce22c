package server

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/mcpgen/mcpgen/internal/httpwire"
	"github.com/mcpgen/mcpgen/jsonrpc"
)

var (
	// errNoStream is returned by Notify for a message that has no response
	// stream (an HTTP notification POST).
	errNoStream = errors.New("server: this message has no response stream")
	// errStreamDone is returned by Notify after the response was written.
	errStreamDone = errors.New("server: the response stream has ended")
	// errStreamBroken is returned by Notify after a write to the client failed.
	errStreamBroken = errors.New("server: the response stream is broken")
)

// httpStream is the MessageWriter of one HTTP request and the single writer
// of its response. The response starts undecided; the first notification
// turns it into an SSE stream (and flushes it at once, so a listen
// acknowledgement reaches the client immediately); finish writes the final
// JSON-RPC response as a JSON body or as the last SSE event. A mutex
// serializes every write, and after finish nothing more is written, so the
// http.ResponseWriter is never used after ServeHTTP returns.
type httpStream struct {
	ctx       context.Context
	w         http.ResponseWriter
	listen    bool // a long-lived stream: keep-alives, and its success result is SSE
	keepAlive time.Duration
	invalid   bool // the request failed header validation: errors get 400

	mu     sync.Mutex
	sse    *httpwire.SSEWriter // nil until the stream switches to SSE
	done   bool                // finish ran: nothing more may be written
	broken bool                // a write failed: the client is gone
	ka     *keepAlive          // the keep-alive set's member (http_keepalive.go); nil when none
}

func newHTTPStream(ctx context.Context, w http.ResponseWriter, listen bool, keepAlive time.Duration) *httpStream {
	return &httpStream{ctx: ctx, w: w, listen: listen, keepAlive: keepAlive}
}

// Notify sends one notification as an SSE event on this request's response,
// switching the response to SSE first if needed. It fails once the client
// has gone or the response was written.
func (st *httpStream) Notify(method string, params any) error {
	raw, err := encodeParams(params)
	if err != nil {
		return err
	}
	return st.sendRaw(jsonrpc.AppendNotification(nil, method, raw))
}

// sendRaw sends one encoded message as an SSE event on this request's
// response, switching it to SSE first if needed: Notify's notifications, a
// listen stream's encoded list_changed and a legacy session's
// server-to-client requests (rawSender).
func (st *httpStream) sendRaw(msg []byte) error {
	st.mu.Lock()
	defer st.mu.Unlock()
	switch {
	case st.done:
		return errStreamDone
	case st.broken:
		return errStreamBroken
	}
	if err := st.ctx.Err(); err != nil {
		return err
	}
	if err := st.openSSELocked(); err != nil {
		st.broken = true
		return err
	}
	if err := st.sse.WriteEvent("", msg); err != nil {
		st.broken = true
		return err
	}
	if st.ka != nil {
		st.ka.wrote()
	}
	return nil
}

// openSSELocked switches the response to SSE: headers, 200, flush. Long
// streams get no write deadline (where the server supports clearing it),
// and listen streams join the shared keep-alives (http_keepalive.go).
func (st *httpStream) openSSELocked() error {
	if st.sse != nil {
		return nil
	}
	st.sse = httpwire.NewSSEWriter(st.w)
	_ = http.NewResponseController(st.w).SetWriteDeadline(time.Time{})
	if err := st.sse.Open(); err != nil {
		return err
	}
	if st.listen && st.keepAlive > 0 && !st.done {
		st.joinKeepAlives()
	}
	return nil
}

// open switches the response to SSE at once: a standalone stream (a
// legacy session's GET stream) that starts with no event.
func (st *httpStream) open() error {
	st.mu.Lock()
	defer st.mu.Unlock()
	if err := st.openSSELocked(); err != nil {
		st.broken = true
		return err
	}
	return nil
}

// close ends a stream that has no final response (a legacy GET stream):
// nothing more is written to it, and it leaves the keep-alives.
func (st *httpStream) close() {
	st.mu.Lock()
	st.done = true
	ka := st.ka
	st.mu.Unlock()
	if ka != nil {
		ka.leave()
	}
}

// finish writes the final response for request id. Nothing is written when
// the client has gone (closing the stream cancels the request and the
// server MUST NOT send anything more for it). A missing body becomes an
// internal error so a request never goes unanswered. A successful listen
// result is always sent as SSE; other responses that were not preceded by
// a notification are plain JSON with the status httpwire.StatusForCode
// gives for their error code (400 for any error when invalid is set, 503
// with Retry-After for a limit's refusal).
func (st *httpStream) finish(id jsonrpc.ID, resp Response) {
	st.mu.Lock()
	st.done = true
	st.writeFinalLocked(id, resp)
	ka := st.ka
	st.mu.Unlock()
	if ka != nil {
		ka.leave()
	}
}

// endUnanswered ends the response of a request the client cancelled
// (notifications/cancelled): no JSON-RPC response is sent for it
// (cancellation: the receiver SHOULD not send a response for the cancelled
// request). A POSTed request is answered with one JSON response object or
// with an SSE stream that SHOULD eventually carry its response, so the
// only answer without one is an SSE stream (text/event-stream, which every
// client's Accept lists) that ends with no response event: the stream is
// opened now when it is not yet, and ended.
func (st *httpStream) endUnanswered() {
	st.mu.Lock()
	st.done = true
	if !st.broken && st.ctx.Err() == nil && st.openSSELocked() != nil {
		st.broken = true
	}
	ka := st.ka
	st.mu.Unlock()
	if ka != nil {
		ka.leave()
	}
}

func (st *httpStream) writeFinalLocked(id jsonrpc.ID, resp Response) {
	if st.broken || st.ctx.Err() != nil {
		return
	}
	body, code := resp.Body, resp.Code
	if len(body) == 0 {
		code = jsonrpc.CodeInternalError
		body = jsonrpc.AppendError(nil, id, jsonrpc.NewError(code, "Internal error: the request produced no response", nil))
	}
	if st.sse == nil && !(st.listen && code == 0) {
		status := httpwire.StatusForCode(code)
		switch {
		case st.invalid && code != 0:
			status = http.StatusBadRequest
		case resp.refused:
			st.w.Header().Set("Retry-After", retryAfterSeconds)
			status = http.StatusServiceUnavailable
		}
		writeJSON(st.w, status, body)
		return
	}
	if err := st.openSSELocked(); err != nil {
		st.broken = true
		return
	}
	if err := st.sse.WriteEvent("", body); err != nil {
		st.broken = true
	}
}

// encodeParams encodes notification params: nil (or JSON null) omits them,
// json.RawMessage and []byte are used as they are (after validation), and
// anything else is marshaled with encoding/json.
func encodeParams(params any) ([]byte, error) {
	var raw []byte
	switch p := params.(type) {
	case nil:
		return nil, nil
	case json.RawMessage:
		raw = p
	case []byte:
		raw = p
	default:
		b, err := json.Marshal(p)
		if err != nil {
			return nil, fmt.Errorf("server: encoding notification params: %w", err)
		}
		raw = b
	}
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	if !json.Valid(raw) {
		return nil, errors.New("server: notification params are not valid JSON")
	}
	return raw, nil
}
