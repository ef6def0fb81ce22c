package client_test

import (
	"context"
	"encoding/json"
	"os/exec"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/client"
	"github.com/mcpgen/mcpgen/jsonrpc"
)

// A server that exits on Close but leaves a background process holding its
// stdout and stderr must not hold Close, or the requests still waiting,
// past ShutdownTimeout: the process left behind keeps the pipes open long
// after the server is gone.
func TestCommandCloseWithGrandchildHoldingOutput(t *testing.T) {
	const shutdown = 200 * time.Millisecond
	tr := &client.CommandTransport{
		Cmd:             exec.Command("sh", "-c", "sleep 10 & exec cat >/dev/null"), // never answers
		ShutdownTimeout: shutdown,
	}
	ping := func(id int64) *client.Request {
		return &client.Request{ID: jsonrpc.IntID(id), Method: "ping", Params: json.RawMessage(`{}`)}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	if _, err := tr.RoundTrip(ctx, ping(1)); err == nil { // starts the server
		t.Fatal("a server that never answers answered")
	}
	pending := make(chan error, 1)
	go func() {
		_, err := tr.RoundTrip(context.Background(), ping(2))
		pending <- err
	}()
	time.Sleep(50 * time.Millisecond)

	start := time.Now()
	closed := make(chan struct{})
	go func() { _ = tr.Close(); close(closed) }()
	// Close waits ShutdownTimeout for the exit, then as long again for the
	// pipes; beyond that the limit leaves room for a slow machine.
	limit := 2*shutdown + 1500*time.Millisecond
	select {
	case <-closed:
	case <-time.After(limit):
		t.Fatalf("Close still blocked after %v (ShutdownTimeout %v)", time.Since(start), shutdown)
	}
	select {
	case err := <-pending:
		if err == nil {
			t.Fatal("the pending request succeeded; want the end of the stream")
		}
	case <-time.After(limit - time.Since(start)):
		t.Fatalf("the pending request still waits %v after Close began", time.Since(start))
	}
}
