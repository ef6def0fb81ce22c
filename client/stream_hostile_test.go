package client_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"slices"
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

// emptyToolList is a tools/list result of no tools.
const emptyToolList = `{"resultType":"complete","ttlMs":0,"cacheScope":"private","tools":[]}`

// listenNote is a notification of the listen stream with id sub.
func listenNote(w io.Writer, sub json.RawMessage, method, params string) {
	fmt.Fprintf(w, `{"jsonrpc":"2.0","method":%q,"params":{%s"_meta":{"io.modelcontextprotocol/subscriptionId":%s}}}`+"\n", method, params, sub)
}

// A Listen loop may call the client: the transport's reader does not wait
// for the loop, however many notifications arrive meanwhile.
func TestStdioListenLoopMayCallTheClient(t *testing.T) {
	var sub json.RawMessage
	tr, _ := fakeStdio(t, func(req wireRequest, w io.Writer) {
		switch req.Method {
		case "subscriptions/listen":
			sub = req.ID
			listenNote(w, sub, "notifications/subscriptions/acknowledged", `"notifications":{"toolsListChanged":true},`)
			listenNote(w, sub, "notifications/tools/list_changed", "")
		case "tools/list":
			for range 40 {
				listenNote(w, sub, "notifications/tools/list_changed", "")
			}
			fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":%s}`+"\n", req.ID, emptyToolList)
		}
	})
	c := connect(t, tr, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	yes := true
	lists := 0
	for n, err := range c.Listen(ctx, mcp.SubscriptionFilter{ToolsListChanged: &yes}) {
		if err != nil {
			t.Fatal(err)
		}
		if n.Method != mcp.MethodNotificationsToolsListChanged {
			continue
		}
		lctx, lcancel := context.WithTimeout(ctx, 3*time.Second)
		_, err := c.ListTools(lctx, &mcp.PaginatedRequestParams{})
		lcancel()
		if err != nil {
			t.Fatalf("tools/list from inside the Listen loop: %v", err)
		}
		if lists++; lists == 2 {
			break // the 40 equal list_changed that arrived during the first tools/list were one
		}
	}
}

// A Listen loop that falls more than 1024 notifications behind gets those
// queued (equal list_changed notifications coalesced), then
// ErrListenOverflow; the server's messages meanwhile reach their calls, and
// listening again works.
func TestStdioListenOverflowEndsTheListen(t *testing.T) {
	var sub json.RawMessage
	tr, _ := fakeStdio(t, func(req wireRequest, w io.Writer) {
		switch req.Method {
		case "subscriptions/listen":
			sub = req.ID
			listenNote(w, sub, "notifications/subscriptions/acknowledged", `"notifications":{"toolsListChanged":true,"resourceSubscriptions":["file:///x"]},`)
		case "tools/list":
			for i := range 1100 {
				listenNote(w, sub, "notifications/tools/list_changed", "")
				listenNote(w, sub, "notifications/resources/updated", fmt.Sprintf(`"uri":"file:///x#%d",`, i))
			}
			fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":%s}`+"\n", req.ID, emptyToolList)
		}
	})
	c := connect(t, tr, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	yes := true
	filter := mcp.SubscriptionFilter{ToolsListChanged: &yes, ResourceSubscriptions: []string{"file:///x"}}
	counts := map[string]int{}
	var last error
	for n, err := range c.Listen(ctx, filter) {
		if err != nil {
			last = err
			break
		}
		counts[n.Method]++
		if n.Method == mcp.MethodNotificationsSubscriptionsAcknowledged {
			lctx, lcancel := context.WithTimeout(ctx, 3*time.Second)
			_, err := c.ListTools(lctx, &mcp.PaginatedRequestParams{})
			lcancel()
			if err != nil {
				t.Fatalf("tools/list while the Listen loop lags: %v", err)
			}
		}
	}
	if !errors.Is(last, client.ErrListenOverflow) {
		t.Fatalf("the lagging Listen ended with %v, want ErrListenOverflow", last)
	}
	if counts[mcp.MethodNotificationsToolsListChanged] != 1 || counts[mcp.MethodNotificationsResourcesUpdated] != 1023 {
		t.Fatalf("yielded %v; want the acknowledgement, one coalesced tools/list_changed, 1023 resources/updated", counts)
	}
	for n, err := range c.Listen(ctx, filter) {
		if err != nil || n.Method != mcp.MethodNotificationsSubscriptionsAcknowledged {
			t.Fatalf("listening again: %s %v", n.Method, err)
		}
		break
	}
}

// In a legacy session too a Listen loop may call the client.
func TestStdioLegacyListenLoopMayCallTheClient(t *testing.T) {
	tr, _ := fakeStdio(t, func(req wireRequest, w io.Writer) {
		switch req.Method {
		case "initialize":
			fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{"listChanged":true}},"serverInfo":{"name":"s","version":"1"}}}`+"\n", req.ID)
		case "tools/list":
			for range 40 {
				fmt.Fprintln(w, `{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}`)
			}
			fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{"tools":[]}}`+"\n", req.ID)
		}
	})
	c := connect(t, tr, &client.Options{Era: client.EraLegacy})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	yes := true
	lists := 0
	for _, err := range c.Listen(ctx, mcp.SubscriptionFilter{ToolsListChanged: &yes}) {
		if err != nil {
			t.Fatal(err)
		}
		lctx, lcancel := context.WithTimeout(ctx, 3*time.Second)
		_, err := c.ListTools(lctx, &mcp.PaginatedRequestParams{})
		lcancel()
		if err != nil {
			t.Fatalf("tools/list from inside the legacy Listen loop: %v", err)
		}
		if lists++; lists == 2 {
			break // after the acknowledgement, the 40 list_changed as one
		}
	}
}

// progressNotes writes n progress notifications for the request req.
func progressNotes(t *testing.T, w io.Writer, req wireRequest, n int) {
	var p struct {
		Meta struct {
			ProgressToken json.RawMessage `json:"progressToken"`
		} `json:"_meta"`
	}
	if err := json.Unmarshal(req.Params, &p); err != nil || p.Meta.ProgressToken == nil {
		t.Errorf("%s without a progress token: %s", req.Method, req.Params)
		return
	}
	for i := 1; i <= n; i++ {
		fmt.Fprintf(w, `{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":%s,"progress":%d}}`+"\n", p.Meta.ProgressToken, i)
	}
}

// A WithProgress callback may call the client, and has every notification
// of its call when the call returns.
func TestStdioProgressCallbackMayCallTheClient(t *testing.T) {
	tr, _ := fakeStdio(t, func(req wireRequest, w io.Writer) {
		switch req.Method {
		case "tools/call":
			progressNotes(t, w, req, 3)
			fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{"content":[]}}`+"\n", req.ID)
		case "tools/list":
			fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":%s}`+"\n", req.ID, emptyToolList)
		}
	})
	c := connect(t, tr, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	var steps []float64
	var listErr error
	pctx := client.WithProgress(ctx, func(p mcp.ProgressNotificationParams) {
		if len(steps) == 0 {
			lctx, lcancel := context.WithTimeout(ctx, 3*time.Second)
			_, listErr = c.ListTools(lctx, &mcp.PaginatedRequestParams{})
			lcancel()
		}
		steps = append(steps, p.Progress)
	})
	if _, err := c.CallTool(pctx, &mcp.CallToolRequestParams{Name: "x"}); err != nil {
		t.Fatal(err)
	}
	if listErr != nil {
		t.Fatalf("tools/list from inside the progress callback: %v", listErr)
	}
	if !slices.Equal(steps, []float64{1, 2, 3}) {
		t.Fatalf("progress %v, want 1 2 3", steps)
	}
}

// A WithProgress callback that falls behind loses the oldest progress it
// has not taken, never the latest: the queue per call is bounded.
func TestStdioSlowProgressCallbackIsBounded(t *testing.T) {
	tr, _ := fakeStdio(t, func(req wireRequest, w io.Writer) {
		if req.Method == "tools/call" {
			progressNotes(t, w, req, 500)
			fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{"content":[]}}`+"\n", req.ID)
		}
	})
	c := connect(t, tr, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	var steps []float64
	pctx := client.WithProgress(ctx, func(p mcp.ProgressNotificationParams) {
		if len(steps) == 0 {
			time.Sleep(200 * time.Millisecond) // the reader goes on meanwhile
		}
		steps = append(steps, p.Progress)
	})
	if _, err := c.CallTool(pctx, &mcp.CallToolRequestParams{Name: "x"}); err != nil {
		t.Fatal(err)
	}
	if len(steps) > 65 || steps[len(steps)-1] != 500 || !slices.IsSorted(steps) {
		t.Fatalf("the callback had %d notifications (%v … %v), want at most 1+64, in order, the last one 500",
			len(steps), steps[0], steps[len(steps)-1])
	}
}
