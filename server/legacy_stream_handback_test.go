package server

import (
	"bytes"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// brokenStreamWriter is a GET stream's response whose headers go out and
// whose every write fails: a client gone or cut off by the keep-alives'
// write deadline.
type brokenStreamWriter struct {
	h      http.Header
	opened chan struct{}
}

func (w *brokenStreamWriter) Header() http.Header { return w.h }
func (w *brokenStreamWriter) WriteHeader(int)     {}
func (w *brokenStreamWriter) Write([]byte) (int, error) {
	return 0, errors.New("connection reset by peer")
}
func (w *brokenStreamWriter) Flush() { close(w.opened) }

// heldStreamWriter is a GET stream's response whose first flush (the
// stream's opening) waits until released: a stream that has joined the
// session but is not reading yet. It records what is written.
type heldStreamWriter struct {
	h        http.Header
	joined   chan struct{}
	release  chan struct{}
	once     sync.Once
	mu       sync.Mutex
	body     bytes.Buffer
	hasWrite chan struct{}
}

func (w *heldStreamWriter) Header() http.Header { return w.h }
func (w *heldStreamWriter) WriteHeader(int)     {}
func (w *heldStreamWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.body.Write(p)
	if strings.Contains(w.body.String(), "handed-back") {
		select {
		case <-w.hasWrite:
		default:
			close(w.hasWrite)
		}
	}
	return len(p), nil
}
func (w *heldStreamWriter) Flush() {
	w.once.Do(func() {
		close(w.joined)
		<-w.release
	})
}

// TestLegacyGETStreamWriteFailureHandsMessageToAnotherStream: "The server
// MUST send each of its JSON-RPC messages on only one of the connected
// streams" (Streamable HTTP, Multiple Connections), and a session's
// message is written on one of its open GET streams (legacy_http.go). A
// stream that took a message from the session's queue and then failed
// to write it lost it, though another stream was open; it now goes back
// to the queue and the other stream writes it.
func TestLegacyGETStreamWriteFailureHandsMessageToAnotherStream(t *testing.T) {
	f, srv := startLegacyHTTP(t)
	sid := openSessionVersion(t, srv.URL, "2025-11-25")
	f.s.sessions.mu.Lock()
	hs := f.s.sessions.m[sid]
	f.s.sessions.mu.Unlock()
	h := newHTTPHandler(f.s, HTTPOptions{KeepAlive: -1})

	held := &heldStreamWriter{h: http.Header{}, joined: make(chan struct{}), release: make(chan struct{}), hasWrite: make(chan struct{})}
	heldDone := make(chan struct{})
	go func() {
		defer close(heldDone)
		h.serveSessionStream(held, httptest.NewRequest(http.MethodGet, "/", nil), hs)
	}()
	<-held.joined // joined the session's queue, not reading it

	broken := &brokenStreamWriter{h: http.Header{}, opened: make(chan struct{})}
	brokenDone := make(chan struct{})
	go func() {
		defer close(brokenDone)
		h.serveSessionStream(broken, httptest.NewRequest(http.MethodGet, "/", nil), hs)
	}()
	<-broken.opened
	if err := hs.sendStream([]byte(`{"jsonrpc":"2.0","method":"notifications/message","params":{"data":"handed-back"}}`)); err != nil {
		t.Fatalf("sendStream: %v", err)
	}
	select {
	case <-brokenDone: // it took the message, failed to write it, ended
	case <-time.After(5 * time.Second):
		t.Fatal("the stream whose writes fail did not end")
	}
	close(held.release)
	select {
	case <-held.hasWrite:
	case <-time.After(2 * time.Second):
		held.mu.Lock()
		t.Errorf("the other open stream never wrote the message the failed stream had taken (lost); it wrote %q", held.body.String())
		held.mu.Unlock()
	}
	hs.Close()
	<-heldDone
}
