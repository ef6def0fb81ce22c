package client_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"sync"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/client"
	"github.com/mcpgen/mcpgen/generated/mcp"
)

// A progressToken is a string or an integer (schema ProgressToken
// ["string","integer"]); README ("How a request flows"): "an integer is
// any number with a zero fraction, `1.0` and `1e2` too, as in JSON
// Schema", and the generated mcp.ProgressToken decoder reads 100.0 as the
// integer 100. A server's notifications/progress naming the call's integer
// token 100 as 100.0 names that call (the decoded notification's
// ProgressToken is 100); the client's routing (notificationKeys →
// canonicalKey, jsonrpc.ID's reading, which refuses a fraction) reads no
// token there, so the call's WithProgress callback gets nothing: two
// readers of one message disagree (notificationKeys' own rule: routing
// reads the members "as the generated decoders read them").
func TestStdioProgressTokenWrittenWithZeroFractionReachesItsCall(t *testing.T) {
	tr, _ := fakeStdio(t, func(req wireRequest, w io.Writer) {
		if req.Method != "tools/call" {
			return
		}
		fmt.Fprint(w, `{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":100.0,"progress":7}}`+"\n")
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{"content":[]}}`+"\n", req.ID)
	})
	c := connect(t, tr, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	var mu sync.Mutex
	var got []mcp.ProgressNotificationParams
	pctx := client.WithProgress(ctx, func(p mcp.ProgressNotificationParams) {
		mu.Lock()
		got = append(got, p)
		mu.Unlock()
	})
	params := &mcp.CallToolRequestParams{Name: "x"}
	params.Meta.ProgressToken = mcp.ProgressToken{Value: int64(100)}
	if _, err := c.CallTool(pctx, params); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(got) != 1 || got[0].Progress != 7 {
		var toks []string
		for _, p := range got {
			b, _ := json.Marshal(p.ProgressToken)
			toks = append(toks, string(b))
		}
		t.Errorf("the call's progress callback got %d notifications (tokens %v); want the one naming token 100 (written 100.0)", len(got), toks)
	}
}
