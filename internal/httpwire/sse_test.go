package httpwire

import (
	"bufio"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

// parseSSE is a minimal event-stream parser per the WHATWG algorithm: it
// returns each dispatched event's data and counts comment lines.
func parseSSE(t *testing.T, s string) (events []string, ids []string, comments int) {
	t.Helper()
	var data []string
	var id string
	sc := bufio.NewScanner(strings.NewReader(s))
	for sc.Scan() {
		line := sc.Text()
		switch {
		case line == "":
			if data != nil {
				events = append(events, strings.Join(data, "\n"))
				ids = append(ids, id)
			}
			data = nil
		case strings.HasPrefix(line, ":"):
			comments++
		default:
			field, value, _ := strings.Cut(line, ":")
			value = strings.TrimPrefix(value, " ")
			switch field {
			case "data":
				data = append(data, value)
			case "id":
				id = value
			case "event":
				if value != "message" {
					t.Errorf("event type %q", value)
				}
			default:
				t.Errorf("unexpected line %q", line)
			}
		}
	}
	return events, ids, comments
}

func TestSSEWriter(t *testing.T) {
	rec := httptest.NewRecorder()
	s := NewSSEWriter(rec)
	if err := s.Open(); err != nil {
		t.Fatal(err)
	}
	// "Receiving Messages": servers SHOULD send X-Accel-Buffering: no on SSE streams.
	for k, want := range map[string]string{"Content-Type": "text/event-stream", "Cache-Control": "no-cache", "X-Accel-Buffering": "no"} {
		if got := rec.Header().Get(k); got != want {
			t.Errorf("%s = %q, want %q", k, got, want)
		}
	}
	if rec.Code != http.StatusOK || !rec.Flushed {
		t.Errorf("code %d flushed %v", rec.Code, rec.Flushed)
	}
	payloads := []string{
		`{"jsonrpc":"2.0","method":"notifications/progress","params":{"progress":1}}`,
		"two\nlines", "crlf\r\nand\rcr", "trailing\n", "\n", " leading space",
	}
	for i, p := range payloads {
		id := ""
		if i == 0 {
			id = "e1"
		}
		if err := s.WriteEvent(id, []byte(p)); err != nil {
			t.Fatal(err)
		}
	}
	// Keep-alive comment lines are encouraged on long-lived streams.
	if err := s.WriteComment(""); err != nil {
		t.Fatal(err)
	}
	if err := s.WriteComment("a\nb"); err != nil {
		t.Fatal(err)
	}
	events, ids, comments := parseSSE(t, rec.Body.String())
	want := []string{payloads[0], "two\nlines", "crlf\nand\ncr", "trailing\n", "\n", " leading space"}
	if strings.Join(events, "|") != strings.Join(want, "|") {
		t.Errorf("events = %q, want %q\nstream:\n%s", events, want, rec.Body.String())
	}
	if ids[0] != "e1" {
		t.Errorf("first id = %q", ids[0])
	}
	if comments != 3 {
		t.Errorf("comments = %d, want 3", comments)
	}
	if !strings.HasPrefix(rec.Body.String(), "id: e1\nevent: message\ndata: {") {
		t.Errorf("stream starts %q", rec.Body.String()[:40])
	}
}

func TestSSEWriterErrors(t *testing.T) {
	s := NewSSEWriter(httptest.NewRecorder())
	if s.WriteEvent("", nil) == nil {
		t.Error("empty data accepted")
	}
	if s.WriteEvent("a\nb", []byte("x")) == nil {
		t.Error("id with newline accepted")
	}
	// A writer that cannot flush cannot stream.
	if err := NewSSEWriter(noFlush{httptest.NewRecorder()}).WriteEvent("", []byte("x")); err == nil {
		t.Error("non-flushing writer accepted")
	}
}

type noFlush struct{ w http.ResponseWriter }

func (n noFlush) Header() http.Header         { return n.w.Header() }
func (n noFlush) Write(p []byte) (int, error) { return n.w.Write(p) }
func (n noFlush) WriteHeader(c int)           { n.w.WriteHeader(c) }

func TestSSEWriterConcurrent(t *testing.T) {
	rec := httptest.NewRecorder()
	s := NewSSEWriter(rec)
	var wg sync.WaitGroup
	for range 20 {
		wg.Go(func() {
			for range 10 {
				if err := s.WriteEvent("", []byte("a\nb\nc")); err != nil {
					t.Error(err)
				}
			}
		})
	}
	wg.Wait()
	events, _, _ := parseSSE(t, rec.Body.String())
	if len(events) != 200 {
		t.Fatalf("%d events", len(events))
	}
	for _, e := range events {
		if e != "a\nb\nc" {
			t.Fatalf("interleaved event %q", e)
		}
	}
}

// TestSSEWriterOneLine: an event without id whose data is one line (every
// compact JSON-RPC message) is written as it always was, byte for byte,
// without allocating.
func TestSSEWriterOneLine(t *testing.T) {
	rec := httptest.NewRecorder()
	s := NewSSEWriter(rec)
	for _, p := range []string{`{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}`, " leading space", "x"} {
		if err := s.WriteEvent("", []byte(p)); err != nil {
			t.Fatal(err)
		}
	}
	want := "event: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/tools/list_changed\"}\n\n" +
		"event: message\ndata:  leading space\n\nevent: message\ndata: x\n\n"
	if got := rec.Body.String(); got != want {
		t.Errorf("stream %q, want %q", got, want)
	}
	d := NewSSEWriter(discardFlusher{})
	msg := []byte(`{"jsonrpc":"2.0","method":"notifications/tools/list_changed","params":{}}`)
	if n := testing.AllocsPerRun(100, func() { _ = d.WriteEvent("", msg) }); n != 0 {
		t.Errorf("%v allocations per one-line event, want 0", n)
	}
}

// discardFlusher is a ResponseWriter that can flush and keeps nothing.
type discardFlusher struct{}

func (discardFlusher) Header() http.Header         { return http.Header{} }
func (discardFlusher) Write(p []byte) (int, error) { return len(p), nil }
func (discardFlusher) WriteHeader(int)             {}
func (discardFlusher) Flush()                      {}
