package httpwire

import (
	"bytes"
	"errors"
	"io"
	"net/http/httptest"
	"strings"
	"testing"
)

// FuzzSSERoundTrip is differential: events the server's SSEWriter writes
// (with comments between them) must come out of the client's SSEReader
// exactly as written, newlines normalized to LF; and the reader never
// panics or returns an event larger than its limit on the raw bytes.
func FuzzSSERoundTrip(f *testing.F) {
	f.Add("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}", "keep-alive", "7", []byte("data: x\n\n"))
	f.Add("line1\r\nline2\rline3\n", "", "", []byte(": c\r\n\r\ndata:  a\ndata:b\n\n"))
	f.Add("trailing\n", "a\nb", "id", []byte("event: other\ndata: x\n\ndata: "))
	f.Fuzz(func(t *testing.T, data, comment, id string, raw []byte) {
		rec := httptest.NewRecorder()
		w := NewSSEWriter(rec)
		if err := w.WriteComment(comment); err != nil {
			t.Fatal(err)
		}
		werr := w.WriteEvent(id, []byte(data))
		if werr == nil {
			if err := w.WriteEvent("", []byte("end")); err != nil {
				t.Fatal(err)
			}
		}
		r := NewSSEReader(bytes.NewReader(rec.Body.Bytes()), 1<<20)
		if werr == nil {
			got, err := r.Next()
			want := strings.ReplaceAll(strings.ReplaceAll(data, "\r\n", "\n"), "\r", "\n")
			if err != nil || string(got) != want {
				t.Fatalf("read %q, %v; wrote %q", got, err, want)
			}
			if got, err := r.Next(); err != nil || string(got) != "end" {
				t.Fatalf("second event %q, %v", got, err)
			}
		}
		if _, err := r.Next(); err != io.EOF {
			t.Fatalf("after the events: %v, want io.EOF", err)
		}

		const limit = 64
		rr := NewSSEReader(bytes.NewReader(raw), limit)
		for i := 0; i < len(raw)+1; i++ {
			ev, err := rr.Next()
			if err != nil {
				if err != io.EOF && !errors.Is(err, ErrEventTooLarge) {
					t.Fatalf("unexpected error %v", err)
				}
				return
			}
			if len(ev) > limit {
				t.Fatalf("event of %d bytes past the %d limit", len(ev), limit)
			}
		}
		t.Fatal("the reader returned more events than there are bytes")
	})
}
