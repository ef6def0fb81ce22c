package client_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/client"
	"github.com/mcpgen/mcpgen/generated/mcp"
)

// syncBuffer is a bytes.Buffer safe for the logger's goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}
func (s *syncBuffer) String() string { s.mu.Lock(); defer s.mu.Unlock(); return s.b.String() }

// A malformed notification of the server concerns no call of the client:
// it is dropped with a warning, and the call it arrived during succeeds.
func TestStdioMalformedNotificationSparesPendingCall(t *testing.T) {
	tr, _ := fakeStdio(t, func(req wireRequest, w io.Writer) {
		fmt.Fprintln(w, `{"jsonrpc":"2.0","method":"notifications/message","params":"not an object"}`)
		fmt.Fprintln(w, `{"jsonrpc":"1.0","method":"notifications/progress","params":{}}`)
		fmt.Fprintln(w, `{"jsonrpc":"2.0","\u006dethod":"notifications/message","params":7}`)
		fmt.Fprintln(w, `{"jsonrpc":"2.0","method":"notifications/message","params":{"level":`)
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{"content":[]}}`+"\n", req.ID)
	})
	var log syncBuffer
	c := connect(t, tr, &client.Options{Logger: slog.New(slog.NewTextHandler(&log, nil))})
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if _, err := c.CallTool(ctx, &mcp.CallToolRequestParams{Name: "x"}); err != nil {
		t.Fatalf("a malformed notification failed the pending call: %v", err)
	}
	if n := strings.Count(log.String(), "dropped an invalid request or notification"); n != 4 {
		t.Fatalf("%d warnings logged, want 4:\n%s", n, log.String())
	}
}

// The ids of the server's requests are not the client's: a malformed
// server request whose id equals the id of the client's pending call does
// not fail that call.
func TestStdioMalformedServerRequestSparesCallWithSameID(t *testing.T) {
	tr, _ := fakeStdio(t, func(req wireRequest, w io.Writer) {
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"method":"ping","params":7}`+"\n", req.ID)
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{"content":[]}}`+"\n", req.ID)
	})
	c := connect(t, tr, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if _, err := c.CallTool(ctx, &mcp.CallToolRequestParams{Name: "x"}); err != nil {
		t.Fatalf("the server's malformed request with the id of the client's call failed the call: %v", err)
	}
}

// A malformed response still fails the call with its id.
func TestStdioMalformedResponseFailsItsCall(t *testing.T) {
	tr, _ := fakeStdio(t, func(req wireRequest, w io.Writer) {
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{"content":[]},"error":{"code":1,"message":"both"}}`+"\n", req.ID)
	})
	wantErr(t, callErr(t, tr, nil), "invalid JSON-RPC message", "result")
}
