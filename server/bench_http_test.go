package server

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"testing"
)

// BenchmarkHTTPToolsCall measures one tools/call through the Streamable
// HTTP handler (HTTPHandler with default options): request parsing, header
// checks, admission, dispatch, the tool and the JSON response, on an
// in-memory ResponseRecorder (no sockets), the benchmark tool of
// BenchmarkHandleToolsCall.
func BenchmarkHTTPToolsCall(b *testing.B) {
	s, err := New(Options{Name: "bench", Version: "1", Tools: []Tool{weatherTool()}})
	if err != nil {
		b.Fatal(err)
	}
	h := s.HTTPHandler(HTTPOptions{})
	body := []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"bench","version":"1"}},"name":"weather_current","arguments":{"location":"Paris","units":"metric"}}}`)
	do := func() *httptest.ResponseRecorder {
		req := httptest.NewRequest(http.MethodPost, "http://127.0.0.1/mcp", bytes.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("MCP-Protocol-Version", "2026-07-28")
		req.Header.Set("Mcp-Method", "tools/call")
		req.Header.Set("Mcp-Name", "weather_current")
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		return w
	}
	if w := do(); w.Code != http.StatusOK || !bytes.Contains(w.Body.Bytes(), []byte(`"structuredContent":{"location":"Paris","units":"metric","temperature":21.5}`)) {
		b.Fatalf("HTTP %d %s", w.Code, w.Body)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		do()
	}
}
