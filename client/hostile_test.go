package client_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/client"
	"github.com/mcpgen/mcpgen/generated/mcp"
)

// A server that stops reading its stdin (a full pipe) must not make a call
// hang past its context: the write is bounded by it too.
func TestStdioServerThatDoesNotRead(t *testing.T) {
	cr, sw := io.Pipe() // the server's output: never written
	_, cw := io.Pipe()  // the server's input: never read
	t.Cleanup(func() { sw.Close(); cw.Close() })
	tr := client.NewStreamTransport(cr, cw, 0)
	c, err := client.Connect(context.Background(), tr, &client.Options{Era: client.EraModern})
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
		defer cancel()
		_, err := c.CallTool(ctx, &mcp.CallToolRequestParams{Name: "x"})
		done <- err
	}()
	select {
	case err := <-done:
		wantErr(t, err, "deadline exceeded")
	case <-time.After(3 * time.Second):
		t.Fatal("the call hung past its context: the write to a server that does not read ignores it")
	}
}

// A server that floods the client with requests of its own (pings) must
// not make it start one goroutine per request: the requests served at
// once are bounded.
func TestStdioServerRequestFlood(t *testing.T) {
	const flood = 20000
	release := make(chan struct{})
	var served atomic.Int64
	cr, sw := io.Pipe()
	sr, cw := io.Pipe()
	t.Cleanup(func() { close(release); sw.Close(); cw.Close(); sr.Close() })
	go io.Copy(io.Discard, sr) // the server reads (and drops) what the client writes
	go func() {
		w := bufio.NewWriter(sw)
		for i := range flood {
			fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%d,"method":"roots/list"}`+"\n", i+1)
		}
		w.Flush()
	}()
	tr := client.NewStreamTransport(cr, cw, 0)
	_, err := client.Connect(context.Background(), tr, &client.Options{Era: client.EraModern,
		Roots: func(ctx context.Context, _ *mcp.ListRootsRequest) (*mcp.ListRootsResult, error) {
			served.Add(1)
			<-release // a handler that waits (for a user, say)
			return &mcp.ListRootsResult{Roots: []mcp.Root{}}, nil
		}})
	if err != nil {
		t.Fatal(err)
	}
	before := runtime.NumGoroutine()
	time.Sleep(time.Second)
	if g := runtime.NumGoroutine() - before; g > 1000 {
		t.Fatalf("%d goroutines started for a flood of %d server requests (%d handlers running)", g, flood, served.Load())
	}
}

// The same flood on an HTTP response stream.
func TestHTTPServerRequestFlood(t *testing.T) {
	const flood = 20000
	release := make(chan struct{})
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req wireRequest
		_ = json.NewDecoder(r.Body).Decode(&req)
		if req.Method == "" { // the client's answers: held
			select {
			case <-release:
			case <-r.Context().Done():
			}
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		bw := bufio.NewWriter(w)
		for i := range flood {
			fmt.Fprintf(bw, "data: {\"jsonrpc\":\"2.0\",\"id\":%d,\"method\":\"ping\"}\n\n", i+1)
		}
		bw.Flush()
		w.(http.Flusher).Flush()
		<-r.Context().Done()
	}))
	t.Cleanup(func() { close(release); hs.CloseClientConnections(); hs.Close() })
	c, err := client.Connect(context.Background(), client.HTTP(hs.URL), &client.Options{Era: client.EraModern})
	if err != nil {
		t.Fatal(err)
	}
	before := runtime.NumGoroutine()
	ctx, cancel := context.WithTimeout(context.Background(), 1500*time.Millisecond)
	defer cancel()
	go func() {
		_, err := c.CallTool(ctx, &mcp.CallToolRequestParams{Name: "x"})
		t.Logf("call: %v", err)
	}()
	time.Sleep(time.Second)
	t.Logf("%d goroutines", runtime.NumGoroutine()-before)
	if g := runtime.NumGoroutine() - before; g > 1000 {
		t.Fatalf("%d goroutines started for a flood of %d server requests on the response stream", g, flood)
	}
}

// Close of a legacy session whose server never answers the DELETE.
func TestHTTPCloseHangingDelete(t *testing.T) {
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.Method {
		case http.MethodDelete:
			<-r.Context().Done()
			return
		case http.MethodGet:
			w.WriteHeader(http.StatusMethodNotAllowed)
			return
		}
		var req wireRequest
		_ = json.NewDecoder(r.Body).Decode(&req)
		w.Header().Set("Mcp-Session-Id", "s1")
		switch req.Method {
		case "initialize":
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{"protocolVersion":"2025-06-18","capabilities":{},"serverInfo":{"name":"s","version":"1"}}}`, req.ID)
		default:
			w.WriteHeader(http.StatusAccepted)
		}
	}))
	t.Cleanup(func() { hs.CloseClientConnections(); hs.Close() })
	c, err := client.Connect(context.Background(), client.HTTP(hs.URL), &client.Options{Era: client.EraLegacy})
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- c.Close() }()
	select {
	case <-done:
	case <-time.After(15 * time.Second):
		t.Fatal("Close hung on a DELETE the server never answers")
	}
}

// Connect to a legacy server that never answers the notifications/initialized POST.
func TestHTTPConnectHangingInitialized(t *testing.T) {
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			w.WriteHeader(http.StatusMethodNotAllowed)
			return
		}
		var req wireRequest
		_ = json.NewDecoder(r.Body).Decode(&req)
		switch req.Method {
		case "initialize":
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{"protocolVersion":"2025-06-18","capabilities":{},"serverInfo":{"name":"s","version":"1"}}}`, req.ID)
		default:
			<-r.Context().Done()
		}
	}))
	t.Cleanup(func() { hs.CloseClientConnections(); hs.Close() })
	done := make(chan error, 1)
	go func() {
		_, err := client.Connect(context.Background(), client.HTTP(hs.URL), &client.Options{Era: client.EraLegacy, ProbeTimeout: 500 * time.Millisecond})
		done <- err
	}()
	select {
	case err := <-done:
		if err == nil {
			t.Fatal("Connect succeeded")
		}
		wantErr(t, err, "notifications/initialized")
	case <-time.After(5 * time.Second):
		t.Fatal("Connect hung on a notifications/initialized the server never answers")
	}
}
