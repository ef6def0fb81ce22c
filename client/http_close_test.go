package client_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/client"
	"github.com/mcpgen/mcpgen/generated/mcp"
)

// Close of a modern HTTP client ends what is in flight — a Listen stream
// and a call the server never answers, both begun with a context that
// never ends — instead of leaving their POSTs open and their goroutines
// running.
func TestHTTPCloseEndsRequestsInFlight(t *testing.T) {
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req wireRequest
		_ = json.NewDecoder(r.Body).Decode(&req)
		switch req.Method {
		case "server/discover":
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{"resultType":"complete","ttlMs":0,"cacheScope":"private","supportedVersions":["2026-07-28"],"capabilities":{"tools":{"listChanged":true}}}}`, req.ID)
		case "subscriptions/listen":
			w.Header().Set("Content-Type", "text/event-stream")
			fmt.Fprintf(w, "data: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/subscriptions/acknowledged\",\"params\":{\"_meta\":{\"io.modelcontextprotocol/subscriptionId\":%s},\"notifications\":{\"toolsListChanged\":true}}}\n\n", req.ID)
			w.(http.Flusher).Flush()
			<-r.Context().Done()
		case "tools/call":
			w.Header().Set("Content-Type", "text/event-stream")
			w.(http.Flusher).Flush()
			<-r.Context().Done() // never answers
		default:
			w.WriteHeader(http.StatusAccepted)
		}
	}))
	t.Cleanup(func() { hs.CloseClientConnections(); hs.Close() })
	c, err := client.Connect(context.Background(), client.HTTP(hs.URL), nil)
	if err != nil {
		t.Fatal(err)
	}

	listenErr, acked := make(chan error, 1), make(chan struct{})
	go func() {
		yes := true
		for n, err := range c.Listen(context.Background(), mcp.SubscriptionFilter{ToolsListChanged: &yes}) {
			if err != nil {
				listenErr <- err
				return
			}
			if n.Method == mcp.MethodNotificationsSubscriptionsAcknowledged {
				close(acked)
			}
		}
		listenErr <- nil
	}()
	callErr := make(chan error, 1)
	go func() {
		_, err := c.CallTool(context.Background(), &mcp.CallToolRequestParams{Name: "x"})
		callErr <- err
	}()
	select {
	case <-acked:
	case err := <-listenErr:
		t.Fatalf("Listen ended before Close: %v", err)
	case <-time.After(5 * time.Second):
		t.Fatal("no acknowledgement")
	}
	time.Sleep(100 * time.Millisecond) // the call's POST is open too

	if err := c.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	for what, ch := range map[string]chan error{"Listen": listenErr, "CallTool": callErr} {
		select {
		case err := <-ch:
			if err == nil {
				t.Errorf("%s ended without an error after Close", what)
			} else {
				wantErr(t, err, "closed")
			}
		case <-time.After(3 * time.Second):
			t.Errorf("%s still running 3s after Close", what)
		}
	}
}
