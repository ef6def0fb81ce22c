package server

import (
	"net/http"
	"time"
)

// Keep-alives of listen streams on HTTP. The shared loop of keepalive.go
// writes each due stream's comment itself, so an idle stream's goroutines
// never wake: the loop takes the stream's lock without waiting (a stream
// that is writing a notification is not idle), writes and flushes the
// comment under a write deadline of keepAliveWait, and clears the
// deadline again. A client that stopped reading until its connection's
// buffers are full therefore holds up the loop for keepAliveWait at most:
// the write times out, the stream is broken (the server stops writing to
// it) and net/http cancels the request's context, so the listen handler
// unwinds and the connection closes. Where the ResponseWriter cannot set a
// write deadline the comment is written on a goroutine of its own instead,
// bounded like any write of the stream (Limits.WriteTimeout).

// keepAliveWait bounds the loop's write of one keep-alive. A comment
// written into a connection that has room in its send buffer takes
// microseconds; waiting at all means the client is a whole buffer behind.
const keepAliveWait = 100 * time.Millisecond

// keepAliveComment is the SSE comment line sent as a keep-alive.
var keepAliveComment = []byte(":\n")

// joinKeepAlives adds the stream to the keep-alives of its interval. It is
// called under st.mu, once the response is an SSE stream.
func (st *httpStream) joinKeepAlives() {
	w, dw := st.w, (*deadlineWriter)(nil)
	if d, ok := w.(*deadlineWriter); ok {
		w, dw = d.ResponseWriter, d // the loop sets its own deadline
	}
	rc := http.NewResponseController(w)
	st.ka = keepAliveEvery(st.keepAlive).join(func() { st.sendKeepAlive(w, dw, rc) })
}

// sendKeepAlive writes one keep-alive comment to w, the ResponseWriter
// under the stream's deadlineWriter dw (nil when there is none); the
// shared loop calls it.
func (st *httpStream) sendKeepAlive(w http.ResponseWriter, dw *deadlineWriter, rc *http.ResponseController) {
	if !st.mu.TryLock() {
		return // a notification is being written: the stream is not idle
	}
	if st.done || st.broken || st.ctx.Err() != nil {
		st.mu.Unlock()
		return
	}
	if rc.SetWriteDeadline(time.Now().Add(keepAliveWait)) != nil {
		go func() { // no deadline to bound the write: not on the loop
			defer st.mu.Unlock()
			if st.sse.WriteComment("") != nil {
				st.broken = true
			}
		}()
		return
	}
	_, err := w.Write(keepAliveComment)
	if err == nil {
		err = rc.Flush()
	}
	// No deadline stays armed while the stream is idle; the next write
	// through dw sets its own again.
	_ = rc.SetWriteDeadline(time.Time{})
	if dw != nil {
		dw.until = time.Time{}
	}
	if err != nil {
		st.broken = true
	}
	st.mu.Unlock()
}
