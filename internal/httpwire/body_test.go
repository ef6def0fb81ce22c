package httpwire

import (
	"errors"
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
