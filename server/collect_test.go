package server

import (
	"bytes"
	"context"
	"io"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"strconv"
	"strings"
	"sync/atomic"
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

// A cycle that runs while a large request holds its memory counts it live
// and sets the collector's goal from it, so the request is followed by a
// collection even when the heap has little room under that goal (the room
// test alone skipped it: the pacer's cycle that began during a 10 MB nested
// request found 46 MB live, a goal of 92 MB that the next request filled).
// The tool runs that cycle itself, at a GOGC that leaves less room than
// the request took.
func TestCollectAfterACycleCountedTheRequest(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(1000)) // no cycle before the tool's
	// during is the count of forced cycles once the tool's own one ran.
	var during atomic.Uint64
	s, err := New(Options{Name: "big", Version: "1", Tools: []Tool{NewTool(ToolInfo{Name: "big", Description: "its length"},
		func(_ context.Context, in bigArgs) (string, error) {
			debug.SetGCPercent(10) // a goal 10 % over what this cycle finds live
			runtime.GC()           // finds the request's message live
			during.Store(forcedCycles())
			return strconv.Itoa(len(in.S)), nil
		})}})
	if err != nil {
		t.Fatal(err)
	}
	n := largeMessage
	call := bigCall(n)
	h := s.HTTPHandler(HTTPOptions{MaxBodyBytes: 2 * largeMessage})
	runtime.GC()
	w := post(h, call, "MCP-Protocol-Version", "2026-07-28", "Mcp-Method", "tools/call", "Mcp-Name", "big")
	if w.Code != 200 || !strings.Contains(w.Body.String(), strconv.Itoa(n)) {
		t.Fatalf("HTTP: status %d, %.200s", w.Code, w.Body.String())
	}
	if !waitForced(during.Load()) {
		t.Fatal("HTTP: no collection after a large request that a cycle counted live")
	}
	debug.SetGCPercent(1000)
	runtime.GC()
	var out bytes.Buffer
	if err := s.ServeStdio(context.Background(), strings.NewReader(call+"\n"), &out); err != nil && err != io.EOF {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), strconv.Itoa(n)) {
		t.Fatalf("stdio: %.200s", out.String())
	}
	if !waitForced(during.Load()) {
		t.Fatal("stdio: no collection after a large request that a cycle counted live")
	}
}

// The collection is for large requests only, only when the request is not
// small next to the live heap (a cycle costs about the live heap), and only
// when a cycle during the request counted half of it live or more, or the
// heap has more room under the collector's goal than the request took.
func TestWorthCollecting(t *testing.T) {
	const M = 1 << 20
	tests := []struct {
		n                           int
		before, live, goal, objects uint64
		want                        bool
	}{
		{largeMessage, notSampled, 0, 100 * M, 10 * M, true},
		{largeMessage, notSampled, 16 * largeMessage, 200 * M, 100 * M, true},
		{largeMessage, notSampled, 16*largeMessage + 16, 200 * M, 100 * M, false}, // small next to the heap
		{10 * M, notSampled, 50 * M, 100 * M, 60 * M, true},
		{10 * M, notSampled, 24 * M, 49 * M, 40 * M, false}, // 9 MiB of room: the next request collects
		{10 * M, notSampled, 24 * M, 49 * M, 50 * M, false}, // over the goal already
		{4 * M, notSampled, 1 << 30, 2 << 30, 1 << 30, false},
		// nested-10m-http as its request ends: the last cycle, during the
		// request, found 26 MB live where 15 MB were before it; the
		// collector's next cycle has begun and will find 46 MB live.
		{10 * M, 15 * M, 26 * M, 53 * M, 50 * M, true},
		{10 * M, 15 * M, 19 * M, 53 * M, 50 * M, false}, // 4 MiB more live: under half the request
		{10 * M, 26 * M, 15 * M, 53 * M, 50 * M, false}, // less live than before
		{10 * M, 15 * M, 26 * M, 53 * M, 30 * M, true},  // and room enough
		{4 * M, 0, 1 << 30, 2 << 30, 1 << 30, false},    // small next to the heap
		// resources/read of 10 MB: its cycles find the same live heap as
		// before the read (only sampled for large params, but the rule
		// does not depend on it).
		{13 * M, 23 * M, 23 * M, 47 * M, 36 * M, false},
	}
	for _, tt := range tests {
		if got := worthCollecting(tt.n, tt.before, tt.live, tt.goal, tt.objects); got != tt.want {
			t.Errorf("worthCollecting(%d, before %d, live %d, goal %d, objects %d) = %v, want %v", tt.n, tt.before, tt.live, tt.goal, tt.objects, got, tt.want)
		}
	}
	if liveBefore(largeMessage-1) != notSampled {
		t.Error("liveBefore read the heap for a small request")
	}
	before := forcedCycles()
	collectAfterLarge(largeMessage-1, 0)
	time.Sleep(50 * time.Millisecond)
	if forcedCycles() != before {
		t.Error("a request under largeMessage was followed by a collection")
	}
}
