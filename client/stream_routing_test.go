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

// A progressToken is a string or an integer (schema ProgressToken
// ["string","integer"]); README ("How a request flows"): "an integer is
// any number with a zero fraction, `1.0` and `1e2` too, as in JSON
// Schema", and the generated mcp.ProgressToken decoder reads 100.0 as the
// integer 100. A server's notifications/progress naming the call's integer
// token 100 as 100.0 names that call (the decoded notification's
// ProgressToken is 100), so the routing reads it as that decoder does and
// the call's WithProgress callback gets it.
func TestStdioProgressTokenWithZeroFractionReachesItsCall(t *testing.T) {
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
