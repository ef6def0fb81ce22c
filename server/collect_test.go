package server

import (
	"bytes"
	"context"
	"io"
	"runtime/debug"
	"runtime/metrics"
	"strings"
	"testing"
	"time"
)

func forcedCycles() uint64 {
	s := []metrics.Sample{{Name: "/gc/cycles/forced:gc-cycles"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// waitForced waits up to 5 s for a forced cycle after since.
func waitForced(since uint64) bool {
	for end := time.Now().Add(5 * time.Second); time.Now().Before(end); time.Sleep(5 * time.Millisecond) {
		if forcedCycles() > since {
			return true
		}
	}
	return false
}

type bigArgs struct {
	S string `json:"s"`
}

func bigServer(t *testing.T) *Server {
	t.Helper()
	s, err := New(Options{Name: "big", Version: "1", Tools: []Tool{NewTool(ToolInfo{Name: "big", Description: "half its length"},
		func(_ context.Context, in bigArgs) (string, error) { return strings.Repeat("r", len(in.S)/2), nil })}})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func bigCall(n int) string {
	return `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"big","arguments":{"s":"` + strings.Repeat("x", n) +
		`"},"_meta":` + goodMeta + `}}`
}

// A request whose params and answer reach largeMessage is followed by a
// garbage collection, on HTTP and on stdio, when the heap has room for it
// under the goal; it is answered in full.
func TestCollectAfterLargeRequest(t *testing.T) {
	// Room under the goal for the request, however small this test's heap.
	defer debug.SetGCPercent(debug.SetGCPercent(1000))
	s := bigServer(t)
	n := largeMessage
	before := forcedCycles()
	w := post(s.HTTPHandler(HTTPOptions{MaxBodyBytes: 2 * largeMessage}), bigCall(n),
		"MCP-Protocol-Version", "2026-07-28", "Mcp-Method", "tools/call", "Mcp-Name", "big")
	if w.Code != 200 || !strings.Contains(w.Body.String(), strings.Repeat("r", n/2)) {
		t.Fatalf("HTTP: status %d, %.200s", w.Code, w.Body.String())
	}
	if !waitForced(before) {
		t.Fatal("HTTP: no collection after a large request")
	}
	before = forcedCycles()
	var out bytes.Buffer
	if err := s.ServeStdio(context.Background(), strings.NewReader(bigCall(n)+"\n"), &out); err != nil && err != io.EOF {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), strings.Repeat("r", n/2)) {
		t.Fatalf("stdio: %.200s", out.String())
	}
	if !waitForced(before) {
		t.Fatal("stdio: no collection after a large request")
	}
}

// The collection is for large requests only, only when the request is not
// small next to the live heap (a cycle costs about the live heap), and only
// when the heap has more room under the collector's goal than the request
// took.
func TestWorthCollecting(t *testing.T) {
	tests := []struct {
		n                   int
		live, goal, objects uint64
		want                bool
	}{
		{largeMessage, 0, 100 << 20, 10 << 20, true},
		{largeMessage, 16 * largeMessage, 200 << 20, 100 << 20, true},
		{largeMessage, 16*largeMessage + 16, 200 << 20, 100 << 20, false}, // small next to the heap
		{10 << 20, 50 << 20, 100 << 20, 60 << 20, true},
		{10 << 20, 24 << 20, 49 << 20, 40 << 20, false}, // 9 MiB of room: the next request collects
		{10 << 20, 24 << 20, 49 << 20, 50 << 20, false}, // over the goal already
		{4 << 20, 1 << 30, 2 << 30, 1 << 30, false},
	}
	for _, tt := range tests {
		if got := worthCollecting(tt.n, tt.live, tt.goal, tt.objects); got != tt.want {
			t.Errorf("worthCollecting(%d, live %d, goal %d, objects %d) = %v, want %v", tt.n, tt.live, tt.goal, tt.objects, got, tt.want)
		}
	}
	before := forcedCycles()
	collectAfterLarge(largeMessage - 1)
	time.Sleep(50 * time.Millisecond)
	if forcedCycles() != before {
		t.Error("a request under largeMessage was followed by a collection")
	}
}
