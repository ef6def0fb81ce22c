package httpwire

import (
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/iotest"
)

func TestReadBody(t *testing.T) {
	const limit = 16
	tests := []struct {
		name    string
		body    string
		chunked bool // hide Content-Length so the limit trips while reading
		status  int  // 0 = accepted
	}{
		{"small", `{"a":1}`, false, 0},
		{"exact limit", strings.Repeat("x", limit), false, 0},
		{"too large by length", strings.Repeat("x", limit+1), false, http.StatusRequestEntityTooLarge},
		{"too large while reading", strings.Repeat("x", limit+1), true, http.StatusRequestEntityTooLarge},
		{"empty", "", false, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := httptest.NewRequest(http.MethodPost, "/mcp", strings.NewReader(tt.body))
			if tt.chunked {
				r.ContentLength = -1
			}
			b, rej := ReadBody(httptest.NewRecorder(), r, limit)
			if tt.status == 0 {
				if rej != nil || string(b) != tt.body {
					t.Fatalf("got %q, %v", b, rej)
				}
				return
			}
			if rej == nil || rej.Status != tt.status {
				t.Fatalf("rejection %v, want status %d", rej, tt.status)
			}
		})
	}
}

func TestReadBodyReadError(t *testing.T) {
	r := httptest.NewRequest(http.MethodPost, "/mcp", iotest.ErrReader(errors.New("reset")))
	r.ContentLength = -1
	_, rej := ReadBody(httptest.NewRecorder(), r, 0)
	if rej == nil || rej.Status != http.StatusBadRequest || rej.Code != CodeParseError {
		t.Fatalf("got %v", rej)
	}
	if tooLarge(errors.New("other")) != nil {
		t.Error("tooLarge matched an unrelated error")
	}
}

// A body read by its Content-Length is read whole into a buffer of exactly
// that size, however it arrives; one that ends early is a read error.
func TestReadBodySized(t *testing.T) {
	for _, n := range []int{1, 100, firstBodyBuffer - 1, firstBodyBuffer, firstBodyBuffer + 1, 3*firstBodyBuffer + 17} {
		body := strings.Repeat("y", n)
		for _, half := range []bool{false, true} {
			var src io.Reader = strings.NewReader(body)
			if half {
				src = iotest.HalfReader(src)
			}
			r := httptest.NewRequest(http.MethodPost, "/mcp", src)
			r.ContentLength = int64(n)
			b, rej := ReadBody(httptest.NewRecorder(), r, 1<<20)
			if rej != nil || string(b) != body || cap(b) != n {
				t.Fatalf("n=%d half=%v: %d bytes (cap %d), %v", n, half, len(b), cap(b), rej)
			}
		}
		r := httptest.NewRequest(http.MethodPost, "/mcp", strings.NewReader(body))
		r.ContentLength = int64(n) + 1
		if _, rej := ReadBody(httptest.NewRecorder(), r, 1<<20); rej == nil || rej.Status != http.StatusBadRequest {
			t.Fatalf("n=%d: a body shorter than its Content-Length gave %v, want 400", n, rej)
		}
	}
}
