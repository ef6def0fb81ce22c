package mcpgenpeer

import "testing"

// BenchmarkInProcess is the inproc row (bench/README.md) as a Go benchmark:
// one weather_current call through Server.HandleBytes, for profiling.
func BenchmarkInProcess(b *testing.B) {
	call, cleanup, err := InProcess{}.Setup()
	if err != nil {
		b.Fatal(err)
	}
	defer cleanup()
	req := []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"bench","version":"1"}},"name":"weather_current","arguments":{"location":"Paris","units":"metric"}}}`)
	if _, err := call(req); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := call(req); err != nil {
			b.Fatal(err)
		}
	}
}
