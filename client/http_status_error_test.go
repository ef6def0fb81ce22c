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
