package httpwire

import (
	"bytes"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
)

// SSEWriter writes one request's Server-Sent Events response stream
// ("Receiving Messages"; the SSE format of the WHATWG HTML standard).
//
// Its methods are safe for concurrent use: each event is written and flushed
// whole under a mutex, so progress notifications and the final response
// from different goroutines never interleave. Like the http.ResponseWriter
// it wraps, it must not be used after the handler returns.
type SSEWriter struct {
	mu     sync.Mutex
	w      http.ResponseWriter
	rc     *http.ResponseController
	opened bool
}

// NewSSEWriter prepares w for an event stream: it sets Content-Type:
// text/event-stream, Cache-Control: no-cache and X-Accel-Buffering: no (the
// spec SHOULD, so proxies such as nginx do not buffer events) and removes
// Content-Length. Nothing is written until Open or the first event.
func NewSSEWriter(w http.ResponseWriter) *SSEWriter {
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-cache")
	h.Set("X-Accel-Buffering", "no")
	h.Del("Content-Length")
	return &SSEWriter{w: w, rc: http.NewResponseController(w)}
}

// Open sends the 200 status and headers and flushes them, so the client
// sees the stream at once. Later calls do nothing. It fails when the
// response cannot be flushed (the writer does not support streaming).
func (s *SSEWriter) Open() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.openLocked()
}

func (s *SSEWriter) openLocked() error {
	if s.opened {
		return nil
	}
	s.opened = true
	s.w.WriteHeader(http.StatusOK)
	if err := s.rc.Flush(); err != nil {
		return fmt.Errorf("httpwire: SSE stream cannot be flushed: %w", err)
	}
	return nil
}

// WriteEvent writes one "message" event and flushes it:
//
//	id: <id>          (only when id is not empty)
//	event: message
//	data: <line>      (one per line of data; CR, LF and CRLF all split lines)
//	<blank line>
//
// data is normally one compact JSON-RPC message. Empty data is an error
// (an event without data is never dispatched to the client), and so is an
// id containing CR, LF or NUL. This revision has no stream resumption, so
// ids are optional.
func (s *SSEWriter) WriteEvent(id string, data []byte) error {
	if len(data) == 0 {
		return errors.New("httpwire: SSE event data is empty")
	}
	if strings.ContainsAny(id, "\r\n\x00") {
		return errors.New("httpwire: SSE event id contains CR, LF or NUL")
	}
	if id == "" && bytes.IndexByte(data, '\n') < 0 && bytes.IndexByte(data, '\r') < 0 {
		return s.writeOneLine(data)
	}
	var b bytes.Buffer
	b.Grow(len(data) + len(id) + 32)
	if id != "" {
		b.WriteString("id: ")
		b.WriteString(id)
		b.WriteByte('\n')
	}
	b.WriteString("event: message\n")
	for line := range bytes.Lines(normalizeNewlines(data)) {
		b.WriteString("data: ")
		b.Write(bytes.TrimSuffix(line, []byte("\n")))
		b.WriteByte('\n')
	}
	if data[len(data)-1] == '\n' || data[len(data)-1] == '\r' {
		b.WriteString("data: \n") // keep the trailing empty line of data
	}
	b.WriteByte('\n')
	return s.write(b.Bytes())
}

// eventHead and eventTail frame an event without id whose data is one
// line: what WriteEvent writes for it.
var (
	eventHead = []byte("event: message\ndata: ")
	eventTail = []byte("\n\n")
)

// writeOneLine writes and flushes the event of data that holds no CR or
// LF (a compact JSON-RPC message: every notification of a listen stream)
// without building it first: the ResponseWriter buffers the three parts
// and the flush sends them in one write, so the data is neither scanned
// for lines nor copied into an event of its own.
func (s *SSEWriter) writeOneLine(data []byte) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.openLocked(); err != nil {
		return err
	}
	for _, p := range [...][]byte{eventHead, data, eventTail} {
		if _, err := s.w.Write(p); err != nil {
			return err
		}
	}
	return s.rc.Flush()
}

// WriteComment writes an SSE comment (lines starting with ':') and flushes
// it. Clients ignore comments; the spec encourages them as keep-alives on
// long-lived streams such as subscriptions/listen. An empty text writes ":".
func (s *SSEWriter) WriteComment(text string) error {
	var b bytes.Buffer
	for line := range strings.Lines(string(normalizeNewlines([]byte(text)))) {
		b.WriteByte(':')
		if line = strings.TrimSuffix(line, "\n"); line != "" {
			b.WriteByte(' ')
			b.WriteString(line)
		}
		b.WriteByte('\n')
	}
	if b.Len() == 0 {
		b.WriteString(":\n")
	}
	return s.write(b.Bytes())
}

func (s *SSEWriter) write(p []byte) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.openLocked(); err != nil {
		return err
	}
	if _, err := s.w.Write(p); err != nil {
		return err
	}
	return s.rc.Flush()
}

// normalizeNewlines turns CRLF and lone CR into LF.
func normalizeNewlines(p []byte) []byte {
	if !bytes.ContainsRune(p, '\r') {
		return p
	}
	p = bytes.ReplaceAll(p, []byte("\r\n"), []byte("\n"))
	return bytes.ReplaceAll(p, []byte("\r"), []byte("\n"))
}
