package server

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"time"

	"golang.org/x/net/netutil"

	"github.com/mcpgen/mcpgen/jsonrpc"
)

// HTTP limits (Limits): Run's http.Server gets the header timeout and size,
// the idle timeout and a connection cap; every request served by
// HTTPHandler gets a body read deadline (Limits.ReadTimeout, lifted once the
// body is read so a response stream is not cut) and a deadline on each
// write (Limits.WriteTimeout, renewed as writes go on, so a long SSE stream
// lives while a client that stops reading is cut off). These are per-request
// deadlines set with http.ResponseController, because the http.Server's own
// ReadTimeout and WriteTimeout would end long-lived streams.

// retryAfterSeconds is the Retry-After of a 503 refusal.
const retryAfterSeconds = "1"

// newHTTPServer returns Run's http.Server for handler.
func (s *Server) newHTTPServer(handler http.Handler) *http.Server {
	l := s.lim.cfg
	return &http.Server{
		Handler:           handler,
		ReadHeaderTimeout: l.ReadHeaderTimeout,
		IdleTimeout:       l.IdleTimeout,
		MaxHeaderBytes:    l.MaxHeaderBytes,
		ConnContext: func(ctx context.Context, c net.Conn) context.Context {
			return withClientID(ctx, "http:"+c.RemoteAddr().String())
		},
	}
}

// limitListener caps the connections Run serves at once
// (Limits.MaxConnections): at the cap Accept waits until one closes, so
// further clients wait in the kernel's backlog instead of taking file
// descriptors.
func (s *Server) limitListener(ln net.Listener) net.Listener {
	if n := s.lim.cfg.MaxConnections; n > 0 {
		return netutil.LimitListener(ln, n)
	}
	return ln
}

// limitHTTP wraps the Streamable HTTP handler with the per-request read and
// write deadlines and the client identity of the connection.
func (s *Server) limitHTTP(next http.Handler) http.Handler {
	read, write := s.lim.cfg.ReadTimeout, s.lim.cfg.WriteTimeout
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rc := http.NewResponseController(w)
		if read > 0 && r.Body != nil && r.Body != http.NoBody {
			if rc.SetReadDeadline(time.Now().Add(read)) == nil {
				r = withBody(r, &deadlineBody{ReadCloser: r.Body, rc: rc})
			}
		}
		if write > 0 {
			w = &deadlineWriter{ResponseWriter: w, rc: rc, d: write}
		}
		if !hasClientID(r.Context()) {
			r = r.WithContext(withClientID(r.Context(), "http:"+r.RemoteAddr))
		}
		next.ServeHTTP(w, r)
	})
}

// withBody returns a shallow copy of r reading body. The request net/http
// handed the handler keeps its own body: after the handler, net/http looks
// at that body to decide what to do with what is left unread, and when it
// is the body of an "Expect: 100-continue" request it no longer sees it as
// such through a wrapper. It would then read up to 256 KiB of a body the
// client does not send until it gets 100 Continue, so a refusal decided
// from the headers (401, 403, 413) would wait for the read deadline
// instead of being answered at once (RFC 9110 §10.1.1). With the original
// body in place net/http answers and closes the connection.
func withBody(r *http.Request, body io.ReadCloser) *http.Request {
	c := *r
	c.Body = body
	return &c
}

// deadlineBody lifts the read deadline once the body has been read to its
// end: the deadline bounds the body, not the response stream that follows.
type deadlineBody struct {
	io.ReadCloser
	rc     *http.ResponseController
	lifted bool
}

func (b *deadlineBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if err != nil && !b.lifted && errors.Is(err, io.EOF) {
		b.lifted = true
		_ = b.rc.SetReadDeadline(time.Time{})
	}
	return n, err
}

// deadlineWriter keeps a write deadline of between d/2 and d ahead of every
// write and flush of a response: a client that stops reading is cut off
// within d, one that reads goes on for as long as the stream lasts. (The
// deadline is renewed only once half of it has passed, so that a stream of
// small events does not reset a timer per event.)
type deadlineWriter struct {
	http.ResponseWriter
	rc    *http.ResponseController
	d     time.Duration
	until time.Time // the deadline set last
}

func (w *deadlineWriter) renew() {
	now := time.Now()
	if w.until.Sub(now) < w.d/2 {
		w.until = now.Add(w.d)
		_ = w.rc.SetWriteDeadline(w.until)
	}
}

func (w *deadlineWriter) Write(p []byte) (int, error) {
	w.renew()
	return w.ResponseWriter.Write(p)
}

// FlushError flushes under the deadline (http.ResponseController.Flush).
func (w *deadlineWriter) FlushError() error {
	w.renew()
	return w.rc.Flush()
}

// SetWriteDeadline is ignored: each write sets its own deadline. (The
// stream code clears the deadline of SSE responses for servers without
// per-write deadlines.)
func (w *deadlineWriter) SetWriteDeadline(time.Time) error { return nil }

// Unwrap gives http.ResponseController the underlying writer.
func (w *deadlineWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// serveLimited runs one HTTP request through the server's limits; ok is
// false when a limit refused it, in which case the 429 (rate, see
// RateLimit) or 503 is already written. A core that is not a *Server
// (tests) has no limits.
func (h *httpHandler) serveLimited(w http.ResponseWriter, r *http.Request, msg jsonrpc.Message, fn func(context.Context) Response) (Response, bool) {
	s, isServer := h.core.(*Server)
	if !isServer {
		return fn(r.Context()), true
	}
	if rr := s.admitRate(r.Context()); rr != nil {
		writeRateRefusal(w, msg.ID, rr)
		return Response{}, false
	}
	resp, refused := s.serveLimited(r.Context(), msg, fn)
	if refused {
		w.Header().Set("Retry-After", retryAfterSeconds)
		writeJSON(w, http.StatusServiceUnavailable, resp.Body)
		return Response{}, false
	}
	return resp, true
}

// writeRefusal writes the 503 answer of a request a limit refused.
func writeRefusal(w http.ResponseWriter, id jsonrpc.ID, rerr *jsonrpc.Error) {
	w.Header().Set("Retry-After", retryAfterSeconds)
	writeJSON(w, http.StatusServiceUnavailable, jsonrpc.AppendError(nil, id, rerr))
}
