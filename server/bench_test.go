package server

import (
	"context"
	"testing"
)

// BenchmarkHandleToolsCall measures one in-process tools/call of the
// benchmark tool (bench/README.md: weather_current, Paris, metric): raw
// request bytes in, encoded response bytes out.
func BenchmarkHandleToolsCall(b *testing.B) {
	s, err := New(Options{Name: "bench", Version: "1", Tools: []Tool{weatherTool()}})
	if err != nil {
		b.Fatal(err)
	}
	msg := []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"bench","version":"1"}},"name":"weather_current","arguments":{"location":"Paris","units":"metric"}}}`)
	ctx := context.Background()
	resp := s.HandleBytes(ctx, msg, nil)
	if resp.Code != 0 {
		b.Fatalf("%s", resp.Body)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		s.HandleBytes(ctx, msg, nil)
	}
}

func BenchmarkHandleToolsList(b *testing.B) {
	f := newFixture(b)
	msg := []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`)
	ctx := context.Background()
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		f.s.HandleBytes(ctx, msg, nil)
	}
}
