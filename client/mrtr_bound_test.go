package client_test

import (
	"context"
	"fmt"
	"io"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/mcpgen/mcpgen/client"
	"github.com/mcpgen/mcpgen/generated/mcp"
)

// A server that asks for thousands of input requests in one round gets an
// error, not thousands of handler calls (each of which may ask a user).
func TestInputRequestsPerRoundBounded(t *testing.T) {
	var reqs strings.Builder
	for i := range 10000 {
		if i > 0 {
			reqs.WriteByte(',')
		}
		fmt.Fprintf(&reqs, `"r%d":{"method":"roots/list"}`, i)
	}
	tr, _ := fakeStdio(t, func(req wireRequest, w io.Writer) {
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{"resultType":"input_required","inputRequests":{%s}}}`+"\n", req.ID, reqs.String())
	})
	var asked atomic.Int64
	err := callErr(t, tr, &client.Options{Roots: func(context.Context, *mcp.ListRootsRequest) (*mcp.ListRootsResult, error) {
		asked.Add(1)
		return &mcp.ListRootsResult{Roots: []mcp.Root{}}, nil
	}})
	if n := asked.Load(); n > client.MaxInputRequests {
		t.Fatalf("the Roots handler was called %d times for one round", n)
	}
	wantErr(t, err, "10000 input requests", "MaxInputRequests")
}
