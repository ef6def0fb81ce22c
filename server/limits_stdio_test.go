package server

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// limitServer is a server with the weather tool and the fault tools, with
// the given limits.
func limitServer(t testing.TB, lim Limits) *faultKit {
	t.Helper()
	return newFaultKitLimits(t, lim)
}

// blockedWriter never completes a write until released: a client that
// never reads stdout.
type blockedWriter struct{ release chan struct{} }

func (w *blockedWriter) Write(p []byte) (int, error) {
	<-w.release
	return 0, io.ErrClosedPipe
}

// TestStdioNeverReadingClientIsBounded: a client that writes 100 000
// requests and never reads its output stops being read once the in-flight
// slots (MaxInFlightPerConn) and the output queue are full; the input the
// server has taken, and its goroutines, stay bounded and stop growing.
func TestStdioNeverReadingClientIsBounded(t *testing.T) {
	k := limitServer(t, Limits{})
	before := runtime.NumGoroutine()
	line := faultCall("1", "weather_current", `{"location":"Paris","units":"metric"}`, defaultMeta) + "\n"
	in := &idReader{line: line, left: 100000}
	out := &blockedWriter{release: make(chan struct{})}
	done := make(chan error, 1)
	go func() { done <- k.s.ServeStdio(context.Background(), in, out) }()

	var taken int64
	for stable := 0; stable < 3; {
		time.Sleep(100 * time.Millisecond)
		now := in.taken.Load()
		if now == taken {
			stable++
		} else {
			stable = 0
		}
		taken = now
	}
	lines := taken / int64(len(line))
	// Bound: 64 requests in flight + 256 queued answers + what bufio holds
	// (64 KiB output, the line reader's input buffer) — far below 100 000.
	if lines > 2000 {
		t.Fatalf("the server took %d of 100000 requests from a client that never reads; want it to stop reading", lines)
	}
	if g := runtime.NumGoroutine() - before; g > defaultMaxInFlightPerConn+16 {
		t.Fatalf("%d goroutines for one never-reading client, want at most %d", g, defaultMaxInFlightPerConn+16)
	}
	t.Logf("never-reading client: the server took %d requests and holds %d goroutines", lines, runtime.NumGoroutine()-before)
	close(out.release) // the output breaks: ServeStdio ends
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("ServeStdio did not return after its output broke")
	}
}

// idReader feeds left copies of line with ids 1, 2, 3, … (the `"id":1,`
// of line rewritten per copy) and counts the bytes the server has taken.
type idReader struct {
	line  string
	left  int
	taken atomic.Int64
	buf   []byte
	n     int
}

func (r *idReader) Read(p []byte) (int, error) {
	if len(r.buf) == 0 {
		if r.left == 0 {
			return 0, io.EOF
		}
		r.left--
		r.n++
		r.buf = []byte(strings.Replace(r.line, `"id":1,`, fmt.Sprintf(`"id":%d,`, r.n), 1))
	}
	c := copy(p, r.buf)
	r.buf = r.buf[c:]
	r.taken.Add(int64(c))
	return c, nil
}

// TestStdioInFlightPerConnCap: with MaxInFlightPerConn 3, only 3 of 10
// blocking requests run; the rest are read as slots free up, and every one
// is answered.
func TestStdioInFlightPerConnCap(t *testing.T) {
	k := limitServer(t, Limits{MaxInFlightPerConn: 3})
	f := startFaultStdio(t, k.s, 0)
	for i := 1; i <= 10; i++ {
		f.send(faultCall(fmt.Sprint(i), "wait_ms", `{"ms":200}`, defaultMeta))
	}
	k.waitAll(t, k.started, map[string]int{"wait_ms": 3})
	select {
	case name := <-k.started:
		t.Fatalf("a 4th request (%s) started with MaxInFlightPerConn 3", name)
	case <-time.After(100 * time.Millisecond):
	}
	got := map[string]bool{}
	for range 10 {
		m := f.reply()
		if m["result"] == nil {
			t.Fatalf("not a result: %v", m)
		}
		got[idOf(m)] = true
	}
	if len(got) != 10 {
		t.Fatalf("answered %v, want all 10", got)
	}
	if err, _, rest := f.closeIn(5 * time.Second); err != nil || len(rest) != 0 {
		t.Fatalf("close: %v %q", err, rest)
	}
}

// TestMaxInFlightBusy: the per-server cap refuses at once with -32603 and
// data.reason "busy" on stdio.
func TestMaxInFlightBusy(t *testing.T) {
	k := limitServer(t, Limits{MaxInFlight: 2})
	f := startFaultStdio(t, k.s, 0)
	f.send(faultCall("1", "until_cancel", `{}`, defaultMeta))
	f.send(faultCall("2", "until_cancel", `{}`, defaultMeta))
	k.waitAll(t, k.started, map[string]int{"until_cancel": 2})
	f.send(faultCall("3", "weather_current", `{"location":"Paris"}`, defaultMeta))
	m := f.reply()
	if idOf(m) != "3" || errorCode(m) != -32603 || reasonOf(m) != reasonBusy {
		t.Fatalf("over MaxInFlight: %v, want -32603 reason busy", m)
	}
	f.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}`)
	k.waitFor(t, k.cancelled, "until_cancel")
	waitInFlight(t, k.s, 1)
	f.send(faultCall("4", "weather_current", `{"location":"Paris"}`, defaultMeta))
	if m := f.reply(); idOf(m) != "4" || !isWeather(m) {
		t.Fatalf("after a slot freed: %v", m)
	}
	f.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":2}}`)
	k.waitFor(t, k.cancelled, "until_cancel")
	if err, _, rest := f.closeIn(5 * time.Second); err != nil || len(rest) != 0 {
		t.Fatalf("close: %v %q", err, rest)
	}
}

func reasonOf(m map[string]any) string {
	e, _ := m["error"].(map[string]any)
	d, _ := e["data"].(map[string]any)
	r, _ := d["reason"].(string)
	return r
}

// TestRequestTimeout: a request past Limits.RequestTimeout is answered on
// time with -32603 reason "timeout", whether its handler honours its
// context (which is cancelled) or ignores it.
func TestRequestTimeout(t *testing.T) {
	k := limitServer(t, Limits{RequestTimeout: 100 * time.Millisecond})
	f := startFaultStdio(t, k.s, 0)
	start := time.Now()
	f.send(faultCall("1", "until_cancel", `{}`, defaultMeta))
	f.send(faultCall("2", "stubborn", `{}`, defaultMeta))
	f.send(faultCall("3", "weather_current", `{"location":"Paris"}`, defaultMeta))
	got := map[string]map[string]any{}
	for range 3 {
		m := f.reply()
		got[idOf(m)] = m
	}
	if !isWeather(got["3"]) {
		t.Fatalf("a quick request: %v", got["3"])
	}
	for _, id := range []string{"1", "2"} {
		if m := got[id]; errorCode(m) != -32603 || reasonOf(m) != reasonTimeout {
			t.Fatalf("request %s past the timeout: %v, want -32603 reason timeout", id, m)
		}
	}
	if d := time.Since(start); d > time.Second {
		t.Errorf("timeouts answered after %v", d)
	}
	k.waitFor(t, k.cancelled, "until_cancel")
	close(k.release)
	if err, _, rest := f.closeIn(5 * time.Second); err != nil || len(rest) != 0 {
		t.Fatalf("close: %v %q (nothing more is written for a timed-out request)", err, rest)
	}
}

// TestStdioDrainLosesNothing: Shutdown while requests run: those that
// finish within the grace are answered with their result, the listen
// stream ends with its result, a request sent during the drain is refused
// with reason "shutdown", one still running at the end of the grace is
// answered with the shutdown error, and ServeStdio returns nil.
func TestStdioDrainLosesNothing(t *testing.T) {
	k := limitServer(t, Limits{})
	f := startFaultStdio(t, k.s, 0)
	for i := 1; i <= 20; i++ {
		f.send(faultCall(fmt.Sprint(i), "wait_ms", `{"ms":200}`, defaultMeta))
	}
	f.send(faultCall("21", "until_cancel", `{}`, defaultMeta))
	f.send(`{"jsonrpc":"2.0","id":"L","method":"subscriptions/listen","params":` + withMeta(`{"notifications":{"toolsListChanged":true}}`, defaultMeta) + `}`)
	if m := f.reply(); m["method"] != "notifications/subscriptions/acknowledged" {
		t.Fatalf("ack %v", m)
	}
	k.waitAll(t, k.started, map[string]int{"wait_ms": 20, "until_cancel": 1})
	ctx, cancel := context.WithTimeout(context.Background(), 1500*time.Millisecond) // generous: -race on a loaded machine
	defer cancel()
	shut := make(chan error, 1)
	go func() { shut <- k.s.Shutdown(ctx) }()
	time.Sleep(50 * time.Millisecond)
	f.send(faultCall("22", "weather_current", `{"location":"Paris"}`, defaultMeta))

	got := map[string]map[string]any{}
	var order []string
	for len(got) < 23 {
		m := f.reply()
		if m["method"] == "notifications/cancelled" {
			order = append(order, "cancelled")
			continue
		}
		got[idOf(m)] = m
		order = append(order, idOf(m))
	}
	for i := 1; i <= 20; i++ {
		if m := got[fmt.Sprint(i)]; m["result"] == nil {
			t.Errorf("request %d finished within the grace but got %v", i, m)
		}
	}
	if m := got["21"]; errorCode(m) != -32603 || reasonOf(m) != reasonShutdown {
		t.Errorf("request cancelled at the end of the grace: %v, want -32603 reason shutdown", m)
	}
	if m := got["22"]; errorCode(m) != -32603 || reasonOf(m) != reasonShutdown {
		t.Errorf("request sent during the drain: %v, want -32603 reason shutdown", m)
	}
	if m := got[`"L"`]; m["result"] == nil {
		t.Errorf("listen stream: %v, want its result", m)
	}
	if err := <-shut; err == nil {
		t.Errorf("Shutdown = nil with a request left at the end of the grace")
	}
	if err, _, rest := f.closeIn(5 * time.Second); err != nil {
		t.Fatalf("ServeStdio: %v", err)
	} else {
		for _, line := range rest {
			var m map[string]any
			_ = json.Unmarshal([]byte(line), &m)
			if m["method"] != "notifications/cancelled" {
				t.Errorf("after the drain: %s", line)
			}
		}
	}
	if !strings.Contains(strings.Join(order, " "), `"L" cancelled`) {
		t.Errorf("the listen result is not followed by notifications/cancelled: %v", order)
	}
}

// TestStdioDrainAnswersStuckHandlerAtCap: Shutdown while a request that
// ignores cancellation holds the connection's only in-flight slot and the
// read loop waits for that slot with the next request: at the end of the
// grace the stuck request is answered with the shutdown error, the waiting
// one is refused with it, and ServeStdio returns (the loop waiting for a
// slot does not hold up the drain).
func TestStdioDrainAnswersStuckHandlerAtCap(t *testing.T) {
	k := limitServer(t, Limits{MaxInFlightPerConn: 1})
	defer close(k.release)
	f := startFaultStdio(t, k.s, 0)
	f.send(faultCall("1", "stubborn", `{}`, defaultMeta))
	k.waitFor(t, k.started, "stubborn")
	f.send(faultCall("2", "weather_current", `{"location":"Paris"}`, defaultMeta))
	time.Sleep(20 * time.Millisecond) // the loop waits for the slot
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	go k.s.Shutdown(ctx)
	got := map[string]map[string]any{}
	for len(got) < 2 {
		m := f.reply()
		got[idOf(m)] = m
	}
	for _, id := range []string{"1", "2"} {
		if m := got[id]; errorCode(m) != -32603 || reasonOf(m) != reasonShutdown {
			t.Errorf("request %s: %v, want -32603 reason shutdown", id, m)
		}
	}
	if err, _, _ := f.closeIn(3 * time.Second); err != nil {
		t.Fatalf("ServeStdio: %v", err)
	}
}
