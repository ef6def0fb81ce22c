package client_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/client"
	"github.com/mcpgen/mcpgen/generated/mcp"
	"github.com/mcpgen/mcpgen/jsonrpc"
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

// abandonRequests runs requests with ids from..to on tr with a context that
// has ended: each is abandoned.
func abandonRequests(t *testing.T, tr client.Transport, from, to int64) {
	t.Helper()
	dead, cancel := context.WithCancel(context.Background())
	cancel()
	for i := from; i <= to; i++ {
		if _, err := tr.RoundTrip(dead, &client.Request{ID: jsonrpc.IntID(i), Method: "tools/list", Params: json.RawMessage(`{}`)}); err == nil {
			t.Fatal("a cancelled request succeeded")
		}
	}
}

// Late answers to abandoned requests are dropped however many requests
// were abandoned before (cancellation.mdx: "The client SHOULD ignore any
// response to the cancelled request that arrives afterward"), while an
// answer to an id the client never sent still fails the calls.
func TestStdioLateAnswersAfterManyCancellations(t *testing.T) {
	cr, sw := io.Pipe()
	sr, cw := io.Pipe()
	go func() {
		defer sw.Close()
		sc := bufio.NewScanner(sr)
		for sc.Scan() {
			var req wireRequest
			if json.Unmarshal(sc.Bytes(), &req) != nil {
				continue
			}
			switch string(req.ID) {
			case "5000":
				fmt.Fprintln(sw, `{"jsonrpc":"2.0","id":4097,"result":{}}`)                                  // raced its cancellation
				fmt.Fprintln(sw, `{"jsonrpc":"2.0","id":1,"result":{}}`)                                     // abandoned longest ago
				fmt.Fprintln(sw, `{"jsonrpc":"2.0","id":4098,"result":{},"error":{"code":1,"message":"x"}}`) // malformed, and late
				fmt.Fprintln(sw, `{"jsonrpc":"2.0","id":5000,"result":{"ok":true}}`)
			case "5001":
				fmt.Fprintln(sw, `{"jsonrpc":"2.0","id":999999,"result":{}}`)
			} // the cancelled requests: no answer
		}
	}()
	t.Cleanup(func() { cw.Close(); sr.Close() })
	tr := client.NewStreamTransport(cr, cw, 0)
	abandonRequests(t, tr, 1, 4200)

	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	res, err := tr.RoundTrip(ctx, &client.Request{ID: jsonrpc.IntID(5000), Method: "tools/list", Params: json.RawMessage(`{}`)})
	if err != nil {
		t.Fatalf("request 5000 failed because of late answers to cancelled requests: %v", err)
	}
	if string(res) != `{"ok":true}` {
		t.Fatalf("result %s", res)
	}
	_, err = tr.RoundTrip(ctx, &client.Request{ID: jsonrpc.IntID(5001), Method: "tools/list", Params: json.RawMessage(`{}`)})
	if err == nil {
		t.Fatal("an answer to id 999999, which the client never sent, went unnoticed")
	}
	wantErr(t, err, "request id 999999", "never sent")
}
