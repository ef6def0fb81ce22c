package client_test

import (
	"context"
	"testing"

	"github.com/mcpgen/mcpgen/generated/mcp"
)

// BenchmarkCallTool measures one tools/call through the client over each
// transport against the mcpgen server (bench/cmd/clientcompare compares it
// with the go-sdk client).
func BenchmarkCallTool(b *testing.B) {
	t := &testing.T{}
	srv := testServer(t)
	for name, mk := range transports(t, srv) {
		b.Run(name, func(b *testing.B) {
			c := connect(t, mk(), nil)
			params := &mcp.CallToolRequestParams{Name: "add", Arguments: []byte(`{"a":1,"b":2}`)}
			ctx := context.Background()
			b.ReportAllocs()
			for b.Loop() {
				if _, err := c.CallTool(ctx, params); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
