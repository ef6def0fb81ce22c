package client_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/client"
	"github.com/mcpgen/mcpgen/generated/mcp"
)

// README (client): "notifications routed to a call by `progressToken` and
// `_meta` subscription id read by exact member name (repeated: routed to
// none)"; progress.mdx: a progress notification names its request by the
// progressToken the request carried. On stdio a notifications/progress
// naming another token never reaches the call's WithProgress callback
// (TestStdioProgressNotRoutedByCaseVariantMember). On a Streamable HTTP
// POST's SSE stream the same holds: the call's callback gets only the
// progress naming its token; progress naming another token ("someone-else")
// goes, as on stdio, to Options.OnProgress.
func TestHTTPStreamProgressForAnotherTokenNotDeliveredToTheCall(t *testing.T) {
	tr := fakeHTTP(t, func(req wireRequest, w http.ResponseWriter) {
		var p struct {
			Meta struct {
				ProgressToken json.RawMessage `json:"progressToken"`
			} `json:"_meta"`
		}
		_ = json.Unmarshal(req.Params, &p)
		w.Header().Set("Content-Type", "text/event-stream")
		if p.Meta.ProgressToken != nil {
			fmt.Fprintf(w, "data: %s\n\n", `{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"someone-else","progress":1}}`)
			fmt.Fprintf(w, "data: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{\"progressToken\":%s,\"progress\":3}}\n\n", p.Meta.ProgressToken)
		}
		fmt.Fprintf(w, "data: {\"jsonrpc\":\"2.0\",\"id\":%s,\"result\":{\"content\":[]}}\n\n", req.ID)
	})
	c := connect(t, tr, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	var mu sync.Mutex
	var got []float64
	pctx := client.WithProgress(ctx, func(p mcp.ProgressNotificationParams) {
		mu.Lock()
		got = append(got, p.Progress)
		mu.Unlock()
	})
	if _, err := c.CallTool(pctx, &mcp.CallToolRequestParams{Name: "x"}); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(got) != 1 || got[0] != 3 {
		t.Errorf("the call's progress callback got progress %v; want only [3] (the notification naming its token)", got)
	}
}
