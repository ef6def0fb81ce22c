package server

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestStdioBatchedLines: lines that arrive in one write are read together
// (nextBatch) and each is still answered on its own, an over-long or
// malformed one among them included; a line whose end has not arrived yet
// does not hold back the answers to the whole lines read with it.
func TestStdioBatchedLines(t *testing.T) {
	f := newFixture(t)
	p := startStdio(t, f.s, 512)
	call := func(id int) string {
		return `{"jsonrpc":"2.0","id":` + strconv.Itoa(id) + `,"method":"tools/call","params":` +
			withMeta(`{"name":"weather_current","arguments":{"location":"Paris"}}`, defaultMeta) + `}`
	}
	var chunk strings.Builder
	for id := 1; id <= 40; id++ {
		switch id {
		case 10:
			chunk.WriteString(`{"jsonrpc":"2.0","id":10,"method":"tools/call","params":{"x":"` + strings.Repeat("a", 600) + `"}}` + "\n")
		case 20:
			chunk.WriteString(`{"jsonrpc":"2.0","id":20,"method":` + "\n")
		case 30:
			chunk.WriteString("  \r\n\n")
		default:
			chunk.WriteString(call(id) + "\n")
		}
	}
	last := call(41)
	chunk.WriteString(last[:len(last)/2]) // no newline yet
	p.mu.Lock()
	_, err := io.WriteString(p.in, chunk.String())
	p.mu.Unlock()
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	errs := 0
	for len(seen)+errs < 39 {
		m := p.next()
		if e, ok := m["error"].(map[string]any); ok {
			errs++
			if c := e["code"]; (c != -32600.0 || m["id"] != nil) && (c != -32700.0 || m["id"] != nil) {
				t.Errorf("error answer %v", m)
			}
			continue
		}
		id := idOf(m)
		if seen[id] || m["result"] == nil {
			t.Fatalf("answer %v (seen before: %v)", m, seen[id])
		}
		seen[id] = true
	}
	if len(seen) != 37 || errs != 2 {
		t.Fatalf("%d results and %d errors, want 37 and 2", len(seen), errs)
	}
	p.send(last[len(last)/2:])
	if m := p.next(); idOf(m) != "41" || m["result"] == nil {
		t.Fatalf("the line completed later: %v", m)
	}
}

// TestStdioBatchFirstHalfAnsweredEarly: the answers to the first half of a
// batch of lines are written before its second half runs, so that a client
// waiting on them can send more while the rest is answered. Promotion is
// ruled out: the request in the second half waits for the first half's
// answers on the read loop's goroutine, and only an early write lets it go
// on (without one the test fails after 3 s).
func TestStdioBatchFirstHalfAnsweredEarly(t *testing.T) {
	promoteAfter(t, time.Hour)
	firstHalf := make(chan struct{})
	type none struct{}
	s := batchServer(t, NewTool(ToolInfo{Name: "after_first_half"}, func(ctx context.Context, _ none) (string, error) {
		select {
		case <-firstHalf:
			return "after", nil
		case <-time.After(5 * time.Second):
			return "never seen", nil
		}
	}))
	p := startStdio(t, s, 0)
	p.send(strings.TrimSuffix(batchCalls(8, map[int]string{5: "after_first_half"}), "\n"))
	for want := 1; want <= 4; want++ {
		if m := p.next(); idOf(m) != strconv.Itoa(want) || !isWeather(m) {
			t.Fatalf("answer %v, want the weather for id %d", m, want)
		}
	}
	close(firstHalf)
	m := p.next()
	if r, _ := m["result"].(map[string]any); idOf(m) != "5" || !strings.Contains(fmt.Sprint(r["content"]), "after") {
		t.Fatalf("answer %v, want id 5 run after the first half's answers were written", m)
	}
	for want := 6; want <= 8; want++ {
		if m := p.next(); idOf(m) != strconv.Itoa(want) || !isWeather(m) {
			t.Fatalf("answer %v, want the weather for id %d", m, want)
		}
	}
}

// TestStdioBatchMidpointAfterPromotion: when the request that ends a
// batch's first half is promoted, the loop's new owner writes the first
// half's answers before it runs the second half (found by review: the
// midpoint was checked only after an inline request returned).
func TestStdioBatchMidpointAfterPromotion(t *testing.T) {
	promoteAfter(t, 200*time.Millisecond)
	firstHalf, release := make(chan struct{}), make(chan struct{})
	type none struct{}
	s := batchServer(t,
		// block ends the first half and is promoted.
		NewTool(ToolInfo{Name: "block"}, func(ctx context.Context, _ none) (string, error) {
			select {
			case <-release:
			case <-time.After(5 * time.Second):
			}
			return "blocked", nil
		}),
		// after_first_half begins the second half; it waits for less than
		// the promotion delay, so it is never promoted itself.
		NewTool(ToolInfo{Name: "after_first_half"}, func(ctx context.Context, _ none) (string, error) {
			select {
			case <-firstHalf:
				return "after", nil
			case <-time.After(100 * time.Millisecond):
				return "never seen", nil
			}
		}))
	p := startStdio(t, s, 0)
	p.send(strings.TrimSuffix(batchCalls(8, map[int]string{4: "block", 5: "after_first_half"}), "\n"))
	for want := 1; want <= 3; want++ {
		if m := p.next(); idOf(m) != strconv.Itoa(want) || !isWeather(m) {
			t.Fatalf("answer %v, want the weather for id %d", m, want)
		}
	}
	close(firstHalf)
	close(release)
	got := map[string]string{}
	for range 5 {
		m := p.next()
		r, _ := m["result"].(map[string]any)
		got[idOf(m)] = fmt.Sprint(r["content"])
	}
	if !strings.Contains(got["5"], "after") || !strings.Contains(got["4"], "blocked") {
		t.Fatalf("answers %v: want id 5 run after the first half's answers were written", got)
	}
}

// lineWrites records how many lines each write of the output held.
type lineWrites struct {
	mu     sync.Mutex
	writes []int
}

func (w *lineWrites) Write(b []byte) (int, error) {
	w.mu.Lock()
	w.writes = append(w.writes, bytes.Count(b, []byte("\n")))
	w.mu.Unlock()
	return len(b), nil
}

// TestStdioBatchWrites: how the answers of one batch of n inline requests
// are written: in one write under 8 lines, in two halves from 8 to
// stdioMidpointMax, every stdioPendingMax answers and at the end beyond.
func TestStdioBatchWrites(t *testing.T) {
	promoteAfter(t, time.Hour)
	f := newFixture(t)
	for _, c := range []struct {
		n    int
		want []int
	}{
		{1, []int{1}}, {7, []int{7}}, {8, []int{4, 4}}, {9, []int{5, 4}}, {32, []int{16, 16}},
		{33, []int{33}}, {64, []int{64}}, {100, []int{64, 36}}, {130, []int{64, 64, 2}},
	} {
		w := &lineWrites{}
		if err := f.s.serveStdio(context.Background(), strings.NewReader(batchCalls(c.n, nil)), w, 0); err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(w.writes, c.want) {
			t.Errorf("batch of %d: writes of %v lines, want %v", c.n, w.writes, c.want)
		}
	}
}

// promoteAfter sets stdioPromoteAfter for the connections started until tb
// ends (each reads it once, when it starts).
func promoteAfter(tb testing.TB, d time.Duration) {
	old := stdioPromoteAfter
	stdioPromoteAfter = d
	tb.Cleanup(func() { stdioPromoteAfter = old })
}

// batchServer is a server with weather_current and tools.
func batchServer(t *testing.T, tools ...Tool) *Server {
	t.Helper()
	s, err := New(Options{Name: "batch", Version: "1", Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
		Tools: append([]Tool{weatherTool()}, tools...)})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// batchCalls is n tools/call lines with ids 1…n, each ending in a newline:
// weather_current in Paris, but the ids in others call the tool named there
// with no arguments.
func batchCalls(n int, others map[int]string) string {
	var b strings.Builder
	for id := 1; id <= n; id++ {
		tool, args := "weather_current", `{"location":"Paris"}`
		if name, ok := others[id]; ok {
			tool, args = name, `{}`
		}
		b.WriteString(faultCall(strconv.Itoa(id), tool, args, defaultMeta) + "\n")
	}
	return b.String()
}
