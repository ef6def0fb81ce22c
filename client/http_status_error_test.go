package client

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/jsonrpc"
)

// TestStatusErrorKeepsTheStartOfALargeBody: an error status whose body
// is over 64 KiB (an HTML error page, a proxy's dump) gave a StatusError
// with no body at all; it keeps the body's start, as it does for a short
// one.
func TestStatusErrorKeepsTheStartOfALargeBody(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusBadGateway)
		_, _ = io.WriteString(w, "upstream mcp backend unreachable: "+strings.Repeat("x", 100<<10))
	}))
	defer srv.Close()
	_, err := HTTP(srv.URL).RoundTrip(context.Background(), &Request{ID: jsonrpc.IntID(1), Method: "ping"})
	var se *StatusError
	if !errors.As(err, &se) || se.StatusCode != http.StatusBadGateway {
		t.Fatalf("err = %v, want a *StatusError 502", err)
	}
	if !strings.HasPrefix(se.Body, "upstream mcp backend unreachable: xxx") {
		t.Errorf("StatusError.Body = %q, want the start of the body", se.Body)
	}
}

// TestStatusErrorSaysALargeBodyWasCut: an error body longer than what
// StatusError keeps (a 100 KiB error page, or one of a few KiB) was cut
// without a word, so its start read as the whole answer. The error keeps
// the start and says the body was cut (StatusError.Truncated); a short
// body is whole and says nothing of the kind.
func TestStatusErrorSaysALargeBodyWasCut(t *testing.T) {
	for _, c := range []struct {
		body string
		cut  bool
	}{
		{"upstream down: " + strings.Repeat("x", 100<<10), true},
		{"upstream down: " + strings.Repeat("x", 2<<10), true},
		{"upstream down", false},
	} {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(http.StatusBadGateway)
			_, _ = io.WriteString(w, c.body)
		}))
		_, err := HTTP(srv.URL).RoundTrip(context.Background(), &Request{ID: jsonrpc.IntID(1), Method: "ping"})
		srv.Close()
		var se *StatusError
		if !errors.As(err, &se) || !strings.HasPrefix(se.Body, "upstream down") {
			t.Fatalf("%d-byte body: err = %v, want a *StatusError with the body's start", len(c.body), err)
		}
		if se.Truncated != c.cut || strings.Contains(err.Error(), "cut") != c.cut {
			t.Errorf("%d-byte body: Truncated %v, error %.80q…%q; want it to say the body was cut: %v",
				len(c.body), se.Truncated, err.Error(), err.Error()[max(0, len(err.Error())-60):], c.cut)
		}
	}
}
