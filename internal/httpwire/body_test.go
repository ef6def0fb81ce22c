package httpwire

import (
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
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

// A sized body is read whole whatever the piece sizes, including the last
// piece coming with io.EOF, at every length around the point where the
// chunks give way to the body's own buffer (half of it) and around chunk
// boundaries; one that ends early at any of those points is a read error.
func TestReadSizedBoundaries(t *testing.T) {
	const c = 64 << 10
	for _, n := range []int{c + 1, 2*c - 1, 2 * c, 2*c + 1, 4*c - 2, 4 * c, 4*c + 3, 9*c + 5} {
		body := strings.Repeat("0123456789abcdef", n/16+1)[:n]
		for name, src := range map[string]func() io.Reader{
			"whole":     func() io.Reader { return strings.NewReader(body) },
			"eof-data":  func() io.Reader { return iotest.DataErrReader(strings.NewReader(body)) },
			"half":      func() io.Reader { return iotest.HalfReader(strings.NewReader(body)) },
			"one-bytes": func() io.Reader { return iotest.OneByteReader(strings.NewReader(body)) },
		} {
			b, err := readSized(src(), int64(n))
			if err != nil || string(b) != body || cap(b) != n {
				t.Fatalf("n=%d %s: %d bytes (cap %d), %v", n, name, len(b), cap(b), err)
			}
		}
		for _, short := range []int{1, n / 2, n/2 + 1, n - c, n - 1} {
			if _, err := readSized(iotest.DataErrReader(strings.NewReader(body[:n-short])), int64(n)); err != io.ErrUnexpectedEOF {
				t.Fatalf("n=%d, %d bytes short: %v, want io.ErrUnexpectedEOF", n, short, err)
			}
		}
	}
}

// Reading an 8 MiB body allocates about 1.5 times its length (its chunks
// for the first half and its buffer), not the 2 times a buffer grown by
// doubling toward it cost; and a body declared far longer than what is
// sent costs about what was sent.
func TestReadSizedAllocation(t *testing.T) {
	const n = 8 << 20
	body := strings.Repeat("z", n)
	allocated := func(f func()) uint64 {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		f()
		runtime.ReadMemStats(&after)
		return after.TotalAlloc - before.TotalAlloc
	}
	got := allocated(func() {
		if b, err := readSized(strings.NewReader(body), n); err != nil || len(b) != n {
			t.Fatal(len(b), err)
		}
	})
	if got > n*16/10 {
		t.Errorf("reading %d bytes allocated %d (%.2f×)", n, got, float64(got)/n)
	}
	sent := n / 4
	got = allocated(func() {
		if _, err := readSized(strings.NewReader(body[:sent]), 64<<20); err != io.ErrUnexpectedEOF {
			t.Fatal(err)
		}
	})
	if got > uint64(sent)*11/10 {
		t.Errorf("a body declared as 64 MiB, %d bytes sent: %d allocated", sent, got)
	}
}
