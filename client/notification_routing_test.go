package client_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/client"
	"github.com/mcpgen/mcpgen/generated/mcp"
)

// listenScript writes, on one listen's stream, the acknowledgement, a
// tools/list_changed tagged with the subscription id of another request
// (424242, which this client never sent), one tagged with the listen's own
// id, and the listen's final result.
func listenScript(w io.Writer, id json.RawMessage, frame func(string) string) {
	note := func(sub json.RawMessage, method, params string) {
		fmt.Fprint(w, frame(fmt.Sprintf(`{"jsonrpc":"2.0","method":%q,"params":{%s"_meta":{"io.modelcontextprotocol/subscriptionId":%s}}}`, method, params, sub)))
	}
	note(id, "notifications/subscriptions/acknowledged", `"notifications":{"toolsListChanged":true,"resourceSubscriptions":["file:///mine"]},`)
	note(json.RawMessage(`424242`), "notifications/resources/updated", `"uri":"file:///not-mine",`)
	note(id, "notifications/resources/updated", `"uri":"file:///mine",`)
	fmt.Fprint(w, frame(fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":{"resultType":"complete","_meta":{"io.modelcontextprotocol/subscriptionId":%s}}}`, id, id)))
}

func collectListen(t *testing.T, c *client.Client) []string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	yes := true
	var uris []string
	for n, err := range c.Listen(ctx, mcp.SubscriptionFilter{ToolsListChanged: &yes, ResourceSubscriptions: []string{"file:///mine"}}) {
		if err != nil {
			break
		}
		if n.Method == mcp.MethodNotificationsResourcesUpdated {
			var p struct {
				URI string `json:"uri"`
			}
			_ = json.Unmarshal(n.Params, &p)
			uris = append(uris, p.URI)
		}
	}
	return uris
}

// README ("The Go client"): "notifications routed to a call by
// `progressToken` and `_meta` subscription id ... on stdio and on a POST's
// SSE stream alike"; subscriptions.mdx: notifications carry
// io.modelcontextprotocol/subscriptionId "so clients can demultiplex
// them". A listen yields only the notifications tagged with its own
// subscription id: a resources/updated tagged for another subscription
// (424242) is not its, on stdio nor on its Streamable HTTP POST stream
// (Request.ownsStreamed routes it by the rule stdio uses).
func TestListenYieldsOnlyNotificationsTaggedWithItsSubscription(t *testing.T) {
	t.Run("stdio", func(t *testing.T) {
		tr, _ := fakeStdio(t, func(req wireRequest, w io.Writer) {
			if req.Method == "subscriptions/listen" {
				listenScript(w, req.ID, func(s string) string { return s + "\n" })
			}
		})
		c := connect(t, tr, nil)
		if got := collectListen(t, c); strings.Join(got, ",") != "file:///mine" {
			t.Errorf("stdio listen yielded resources/updated for %v; want only file:///mine (the other is tagged for subscription 424242)", got)
		}
	})
	t.Run("http", func(t *testing.T) {
		tr := fakeHTTP(t, func(req wireRequest, w http.ResponseWriter) {
			if req.Method == "subscriptions/listen" {
				w.Header().Set("Content-Type", "text/event-stream")
				listenScript(w, req.ID, func(s string) string { return "data: " + s + "\n\n" })
			}
		})
		c := connect(t, tr, nil)
		if got := collectListen(t, c); strings.Join(got, ",") != "file:///mine" {
			t.Errorf("HTTP listen yielded resources/updated for %v; want only file:///mine (the other is tagged for subscription 424242), as on stdio", got)
		}
	})
}

// README ("The Go client"): notifications are "routed to a call by
// `progressToken` and `_meta` subscription id"; progress.mdx: a
// notifications/progress names its request by the progressToken. On stdio
// a notifications/progress naming a call's token whose _meta also carries
// the subscription id of an open listen is the call's, never the listen's
// (which would hand it to Options.OnProgress): progress is routed by its
// token alone (notificationKeys), as on a POST's SSE stream. 40 calls,
// since with two candidates a map walk would pick either.
func TestProgressTaggedWithAListenIDReachesItsCall(t *testing.T) {
	listenID := make(chan json.RawMessage, 1)
	var sub json.RawMessage
	tr, _ := fakeStdio(t, func(req wireRequest, w io.Writer) {
		switch req.Method {
		case "subscriptions/listen":
			listenNote(w, req.ID, "notifications/subscriptions/acknowledged", `"notifications":{"toolsListChanged":true},`)
			sub = req.ID
			listenID <- req.ID
		case "tools/call":
			var p struct {
				Meta struct {
					ProgressToken json.RawMessage `json:"progressToken"`
				} `json:"_meta"`
			}
			_ = json.Unmarshal(req.Params, &p)
			fmt.Fprintf(w, `{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":%s,"progress":1,"_meta":{"io.modelcontextprotocol/subscriptionId":%s}}}`+"\n", p.Meta.ProgressToken, sub)
			fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{"content":[]}}`+"\n", req.ID)
		}
	})
	var mu sync.Mutex
	onProgress := 0
	c := connect(t, tr, &client.Options{OnProgress: func(p mcp.ProgressNotificationParams) {
		mu.Lock()
		onProgress++
		mu.Unlock()
	}})
	ctx, cancel := context.WithTimeout(context.Background(), 8*time.Second)
	defer cancel()
	lctx, lcancel := context.WithCancel(ctx)
	defer lcancel()
	yes := true
	go func() {
		for range c.Listen(lctx, mcp.SubscriptionFilter{ToolsListChanged: &yes}) {
		}
	}()
	select {
	case <-listenID:
	case <-ctx.Done():
		t.Fatal("the listen was never sent")
	}
	missed := 0
	for range 40 {
		got := make(chan struct{}, 1)
		pctx := client.WithProgress(ctx, func(p mcp.ProgressNotificationParams) { got <- struct{}{} })
		if _, err := c.CallTool(pctx, &mcp.CallToolRequestParams{Name: "x"}); err != nil {
			t.Fatal(err)
		}
		select {
		case <-got:
		default:
			missed++
		}
	}
	if missed > 0 {
		mu.Lock()
		defer mu.Unlock()
		t.Errorf("%d of 40 calls' progress (naming their token, tagged with the listen's subscription id) missed the call's callback; Options.OnProgress got %d", missed, onProgress)
	}
}
