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

// On stdio the client routes notifications/progress to the call whose
// progress token it names, reading the token by its exact member name as
// the generated decoder does: a notification whose progressToken is
// another token, with a "PROGRESSTOKEN" member naming this call's, is not
// this call's (encoding/json would fold the case and keep the last), so
// its WithProgress callback receives nothing (README: members are read by
// exact name; progress.mdx: a notification names its request by
// progressToken).
func TestStdioProgressNotRoutedByCaseVariantMember(t *testing.T) {
	tr, _ := fakeStdio(t, func(req wireRequest, w io.Writer) {
		if req.Method != "tools/call" {
			return
		}
		var p struct {
			Meta struct {
				ProgressToken json.RawMessage `json:"progressToken"`
			} `json:"_meta"`
		}
		if err := json.Unmarshal(req.Params, &p); err != nil || p.Meta.ProgressToken == nil {
			t.Errorf("no progress token in %s", req.Params)
			return
		}
		fmt.Fprintf(w, `{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"someone-else","PROGRESSTOKEN":%s,"progress":7}}`+"\n", p.Meta.ProgressToken)
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
	if _, err := c.CallTool(pctx, &mcp.CallToolRequestParams{Name: "x"}); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	for _, p := range got {
		tok, _ := json.Marshal(p.ProgressToken)
		t.Errorf("the call's progress callback got a notification for token %s (progress %v)", tok, p.Progress)
	}
}
