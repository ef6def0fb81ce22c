package server

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"testing"

	"github.com/mcpgen/mcpgen/generated/mcp"
)

// BenchmarkHandleToolsCallMiddleware is BenchmarkHandleToolsCall with
// middleware configured: none (the same path as BenchmarkHandleToolsCall),
// one no-op interceptor, one no-op tool middleware, and LogRequests with a
// logger that discards (Info enabled, so every record is built).
func BenchmarkHandleToolsCallMiddleware(b *testing.B) {
	noop := func(next Handler) Handler {
		return func(ctx context.Context, req *Request) (json.RawMessage, error) { return next(ctx, req) }
	}
	noopTool := func(next ToolHandler) ToolHandler {
		return func(ctx context.Context, c *ToolCall) (*mcp.CallToolResult, error) { return next(ctx, c) }
	}
	discard := slog.New(slog.NewJSONHandler(io.Discard, nil))
	for _, c := range []struct {
		name string
		mod  func(*Options)
	}{
		{"none", func(*Options) {}},
		{"interceptor", func(o *Options) { o.Interceptors = []Interceptor{noop} }},
		{"toolMiddleware", func(o *Options) { o.ToolMiddleware = []ToolMiddleware{noopTool} }},
		{"logRequests", func(o *Options) { o.Interceptors = []Interceptor{LogRequests(discard, LogOptions{})} }},
	} {
		b.Run(c.name, func(b *testing.B) {
			opts := Options{Name: "bench", Version: "1", Tools: []Tool{weatherTool()}}
			c.mod(&opts)
			s, err := New(opts)
			if err != nil {
				b.Fatal(err)
			}
			msg := []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"bench","version":"1"}},"name":"weather_current","arguments":{"location":"Paris","units":"metric"}}}`)
			ctx := context.Background()
			if resp := s.HandleBytes(ctx, msg, nil); resp.Code != 0 {
				b.Fatalf("%s", resp.Body)
			}
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				s.HandleBytes(ctx, msg, nil)
			}
		})
	}
}
