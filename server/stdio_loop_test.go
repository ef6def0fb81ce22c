package server

import (
	"bytes"
	"context"
	"errors"
	"io"
	"log/slog"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// inlineKit is a server whose tools block in the ways that would stop a
// read loop running requests inline without promotion.
type inlineKit struct {
	s      *Server
	signal chan struct{} // closed by the tool "signal"
}

func newInlineKit(t *testing.T) *inlineKit {
	t.Helper()
	k := &inlineKit{signal: make(chan struct{})}
	type args struct {
		MS int `json:"ms,omitempty"`
	}
	s, err := New(Options{Name: "inline", Version: "1", Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
		Tools: []Tool{
			weatherTool(),
			// await returns once signal has run (or its context ends).
			NewTool(ToolInfo{Name: "await"}, func(ctx context.Context, in args) (string, error) {
				select {
				case <-k.signal:
					return "signalled", nil
				case <-ctx.Done():
					return "", ctx.Err()
				}
			}),
			NewTool(ToolInfo{Name: "signal"}, func(ctx context.Context, in args) (string, error) {
				close(k.signal)
				return "sent", nil
			}),
			// sleep blocks its goroutine for ms.
			NewTool(ToolInfo{Name: "sleep"}, func(ctx context.Context, in args) (string, error) {
				time.Sleep(time.Duration(in.MS) * time.Millisecond)
				return "slept", nil
			}),
			// spin keeps its goroutine running for ms, never parking.
			NewTool(ToolInfo{Name: "spin"}, func(ctx context.Context, in args) (string, error) {
				for end := time.Now().Add(time.Duration(in.MS) * time.Millisecond); time.Now().Before(end); {
				}
				return "spun", nil
			}),
		}})
	if err != nil {
		t.Fatal(err)
	}
	k.s = s
	return k
}

// TestStdioInlinePromotedForLaterRequest: a request whose handler waits
// for a request sent after it on the same connection completes, whether
// the two lines are read together (one batch) or apart: the waiting
// request is promoted off the read loop, which goes on dispatching.
func TestStdioInlinePromotedForLaterRequest(t *testing.T) {
	for _, together := range []bool{true, false} {
		k := newInlineKit(t)
		p := startStdio(t, k.s, 0)
		first, second := faultCall("1", "await", `{}`, defaultMeta), faultCall("2", "signal", `{}`, defaultMeta)
		if together {
			p.send(first + "\n" + second)
		} else {
			p.send(first)
			time.Sleep(10 * time.Millisecond)
			p.send(second)
		}
		got := map[string]bool{}
		for range 2 {
			m := p.next()
			if m["result"] == nil {
				t.Fatalf("together=%v: %v", together, m)
			}
			got[idOf(m)] = true
		}
		if !got["1"] || !got["2"] {
			t.Fatalf("together=%v: answers %v, want 1 and 2", together, got)
		}
	}
}

// TestStdioInlinePromotedForCancel: notifications/cancelled sent after a
// request that waits for it reaches it (the read loop is not held by the
// request running inline).
func TestStdioInlinePromotedForCancel(t *testing.T) {
	k := newInlineKit(t)
	p := startStdio(t, k.s, 0)
	p.send(faultCall(`"a"`, "await", `{}`, defaultMeta) + "\n" +
		`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"a"}}` + "\n" +
		faultCall("2", "weather_current", `{"location":"Paris"}`, defaultMeta))
	if m := p.next(); idOf(m) != "2" || !isWeather(m) {
		t.Fatalf("got %v, want the weather answer (nothing for the cancelled request)", m)
	}
	select {
	case line := <-p.lines:
		t.Fatalf("an answer for the cancelled request: %s", line)
	case <-time.After(50 * time.Millisecond):
	}
}

// TestStdioSlowRequestDoesNotDelayFast: a slow request, blocked or busy on
// the CPU, does not hold back a fast one sent after it on the connection
// (read with it or later) by more than a bounded time.
func TestStdioSlowRequestDoesNotDelayFast(t *testing.T) {
	const slow = 1500 // ms
	for _, tool := range []string{"sleep", "spin"} {
		for _, together := range []bool{true, false} {
			k := newInlineKit(t)
			p := startStdio(t, k.s, 0)
			first := faultCall("1", tool, `{"ms":1500}`, defaultMeta)
			second := faultCall("2", "weather_current", `{"location":"Paris"}`, defaultMeta)
			start := time.Now()
			if together {
				p.send(first + "\n" + second)
			} else {
				p.send(first)
				p.send(second)
			}
			m := p.next()
			took := time.Since(start)
			if idOf(m) != "2" || !isWeather(m) {
				t.Fatalf("%s together=%v: first answer %v after %v, want the fast one", tool, together, m, took)
			}
			t.Logf("%s together=%v: the fast answer after %v", tool, together, took)
			// Far below the slow request's time; slack for -race and a
			// loaded machine.
			if took > slow/3*time.Millisecond {
				t.Errorf("%s together=%v: the fast answer took %v", tool, together, took)
			}
			if m := p.next(); idOf(m) != "1" || !strings.Contains(m["result"].(map[string]any)["content"].([]any)[0].(map[string]any)["text"].(string), tool[:2]) {
				t.Fatalf("%s: slow answer %v", tool, m)
			}
		}
	}
}

// TestStdioInlineManyPromoted: many slow requests in one batch are each
// promoted in turn and all answered, with fast ones among them; they run
// side by side (20 × 50 ms one after the other would take 1 s).
func TestStdioInlineManyPromoted(t *testing.T) {
	k := newInlineKit(t)
	p := startStdio(t, k.s, 0)
	start := time.Now()
	var b strings.Builder
	for i := range 40 {
		if b.Len() > 0 {
			b.WriteString("\n")
		}
		id := strings.Repeat("x", i%3) + string(rune('a'+i%26)) + "-" + string(rune('0'+i/26))
		if i%2 == 0 {
			b.WriteString(faultCall(`"`+id+`"`, "sleep", `{"ms":50}`, defaultMeta))
		} else {
			b.WriteString(faultCall(`"`+id+`"`, "weather_current", `{"location":"Paris"}`, defaultMeta))
		}
	}
	p.send(b.String())
	seen := map[string]bool{}
	for range 40 {
		m := p.next()
		if m["result"] == nil || seen[idOf(m)] {
			t.Fatalf("answer %v (seen: %v)", m, seen[idOf(m)])
		}
		seen[idOf(m)] = true
	}
	if took := time.Since(start); took > 600*time.Millisecond {
		t.Errorf("40 requests took %v: the slow ones ran one after the other", took)
	}
}

// gatedWriter is a client's stdout: the first Write waits until gate is
// closed (entered says it began), every later one takes delay (a slow
// reader); what was written is kept.
type gatedWriter struct {
	entered chan struct{}
	gate    chan struct{}
	delay   time.Duration
	mu      sync.Mutex
	first   bool
	out     []byte
}

func (w *gatedWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	first := !w.first
	w.first = true
	w.mu.Unlock()
	if first {
		close(w.entered)
		<-w.gate
	} else {
		time.Sleep(w.delay)
	}
	w.mu.Lock()
	w.out = append(w.out, p...)
	w.mu.Unlock()
	return len(p), nil
}

func (w *gatedWriter) has(s string) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return bytes.Contains(w.out, []byte(s))
}

// TestStdioLoopNotStuckWritingOthersLines: the read loop writes its own
// answer to an idle output; while that write is slow, a request starts
// flooding notifications faster than the (slow but reading) client takes
// them. The loop must not go on writing the flood's lines for as long as
// it lasts: a later request is read and answered, and
// notifications/cancelled stops the flood.
func TestStdioLoopNotStuckWritingOthersLines(t *testing.T) {
	flood := make(chan struct{})
	var flooded atomic.Int64
	stopped := make(chan struct{})
	s, err := New(Options{Name: "gated", Version: "1", Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
		Tools: []Tool{NewTool(ToolInfo{Name: "flood"}, func(ctx context.Context, in struct{}) (string, error) {
			defer close(stopped)
			<-flood
			msg := strings.Repeat("x", 1024)
			for i := 1; ctx.Err() == nil; i++ {
				Progress(ctx, float64(i), 0, msg)
				flooded.Add(1)
			}
			return "", ctx.Err()
		})}})
	if err != nil {
		t.Fatal(err)
	}
	inR, inW, err := os.Pipe() // buffered: the test's writes do not wait for the loop
	if err != nil {
		t.Fatal(err)
	}
	defer inR.Close()
	out := &gatedWriter{entered: make(chan struct{}), gate: make(chan struct{}), delay: time.Millisecond}
	done := make(chan error, 1)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel() // a failed run: the flood ends
	go func() { done <- s.serveStdio(ctx, inR, out, 0) }()
	send := func(line string) {
		t.Helper()
		if _, err := io.WriteString(inW, line+"\n"); err != nil {
			t.Fatal(err)
		}
	}
	send(faultCall(`"f"`, "flood", `{}`, progressMeta)) // promoted: it waits
	time.Sleep(20 * time.Millisecond)
	send(`{"jsonrpc":"2.0","id":1,"method":"ping","params":` + withMeta(`{}`, defaultMeta) + `}`)
	<-out.entered // the loop writes the ping's answer
	close(flood)
	for flooded.Load() < 200 { // the flood fills the output queue
		time.Sleep(time.Millisecond)
	}
	close(out.gate)
	send(`{"jsonrpc":"2.0","id":2,"method":"ping","params":` + withMeta(`{}`, defaultMeta) + `}`)
	send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"f"}}`)
	select {
	case <-stopped:
	case <-time.After(3 * time.Second):
		t.Fatalf("notifications/cancelled did not reach the flood in 3 s (%d sent): the read loop stopped reading", flooded.Load())
	}
	for end := time.Now().Add(3 * time.Second); !out.has(`"id":2,`); {
		if time.Now().After(end) {
			t.Fatal("the second ping was not answered")
		}
		time.Sleep(time.Millisecond)
	}
	inW.Close()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("ServeStdio did not return")
	}
}

// TestStdioCancelReachesHandlerWaitingForOutput: a handler whose
// notifications wait for room in a full output queue (the client reads
// nothing; another request's line is stuck in the write) stops waiting
// when notifications/cancelled cancels it, instead of staying blocked until
// the client reads.
func TestStdioCancelReachesHandlerWaitingForOutput(t *testing.T) {
	start, flood := make(chan struct{}), make(chan struct{})
	var flooded atomic.Int64
	stopped := make(chan error, 1)
	s, err := New(Options{Name: "gated", Version: "1", Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
		Tools: []Tool{
			NewTool(ToolInfo{Name: "blocker"}, func(ctx context.Context, in struct{}) (string, error) {
				<-start
				Progress(ctx, 1, 0, "first") // nobody writes: this request writes it, into the stuck writer
				return "", nil
			}),
			NewTool(ToolInfo{Name: "flood"}, func(ctx context.Context, in struct{}) (string, error) {
				<-flood
				for i := 1; ctx.Err() == nil; i++ {
					Progress(ctx, float64(i), 0, "x")
					flooded.Add(1)
				}
				stopped <- context.Cause(ctx)
				return "", ctx.Err()
			}),
		}})
	if err != nil {
		t.Fatal(err)
	}
	inR, inW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer inR.Close()
	out := &gatedWriter{entered: make(chan struct{}), gate: make(chan struct{})}
	done := make(chan error, 1)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() { done <- s.serveStdio(ctx, inR, out, 0) }()
	send := func(line string) {
		t.Helper()
		if _, err := io.WriteString(inW, line+"\n"); err != nil {
			t.Fatal(err)
		}
	}
	send(faultCall(`"b"`, "blocker", `{}`, progressMeta)) // promoted: it waits for start
	send(faultCall(`"f"`, "flood", `{}`, progressMeta))   // promoted: it waits for flood
	time.Sleep(20 * time.Millisecond)
	close(start)
	<-out.entered // the blocker's progress is stuck in the write
	close(flood)
	for last := int64(-1); ; {
		time.Sleep(20 * time.Millisecond)
		n := flooded.Load()
		if n == last && n >= stdioOutQueue-1 {
			break // the flood waits for room
		}
		last = n
	}
	send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"f"}}`)
	select {
	case cause := <-stopped:
		if !errors.Is(cause, context.Canceled) {
			t.Errorf("the flood ended with %v, want context.Canceled", cause)
		}
	case <-time.After(3 * time.Second):
		t.Fatalf("the cancelled flood was still waiting for room after 3 s (%d sent): its cancel did not reach it", flooded.Load())
	}
	close(out.gate)
	inW.Close()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("ServeStdio did not return")
	}
	if !out.has(`"first"`) {
		t.Error("the blocker's notification was not written")
	}
}

// TestStdioPromotedAfterFastOnes: a request that waits for a later one is
// promoted when fast requests ran inline before it in its batch (the
// promotion timer, armed by the first of them, fires while the waiting
// one has not run its time yet and must wait for the rest of it), for a
// few lengths of the fast run before it.
func TestStdioPromotedAfterFastOnes(t *testing.T) {
	for _, fast := range []int{1, 2, 4, 8, 16} {
		k := newInlineKit(t)
		p := startStdio(t, k.s, 0)
		var b strings.Builder
		for i := range fast {
			b.WriteString(faultCall(strconv.Itoa(10+i), "weather_current", `{"location":"Paris"}`, defaultMeta) + "\n")
		}
		b.WriteString(faultCall("1", "await", `{}`, defaultMeta) + "\n" + faultCall("2", "signal", `{}`, defaultMeta))
		p.send(b.String())
		got := map[string]bool{}
		for range fast + 2 {
			m := p.next() // fails after 3 s: the waiting request was never promoted
			if m["result"] == nil {
				t.Fatalf("fast=%d: %v", fast, m)
			}
			got[idOf(m)] = true
		}
		if !got["1"] || !got["2"] {
			t.Fatalf("fast=%d: answers %v, want 1 and 2 among them", fast, got)
		}
	}
}

// TestStdioPromotedIDReusable: once a promoted request is answered its id
// is free again (a later request with it is not refused as a duplicate).
func TestStdioPromotedIDReusable(t *testing.T) {
	k := newInlineKit(t)
	p := startStdio(t, k.s, 0)
	p.send(faultCall("1", "await", `{}`, defaultMeta) + "\n" + faultCall("2", "signal", `{}`, defaultMeta))
	for range 2 {
		if m := p.next(); m["result"] == nil {
			t.Fatalf("%v", m)
		}
	}
	for i := range 3 {
		p.send(faultCall("1", "weather_current", `{"location":"Paris"}`, defaultMeta))
		if m := p.next(); idOf(m) != "1" || !isWeather(m) {
			t.Fatalf("request %d with the promoted request's id: %v", i, m)
		}
	}
}
