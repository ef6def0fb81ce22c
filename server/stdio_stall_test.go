package server

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"testing"
	"time"
)

// stuckWriter is the stdout of a client that reads nothing: every Write
// blocks until release is closed (the test's end).
type stuckWriter struct {
	once    sync.Once
	entered chan struct{} // closed by the first Write
	release chan struct{}
}

func newStuckWriter(t *testing.T) *stuckWriter {
	w := &stuckWriter{entered: make(chan struct{}), release: make(chan struct{})}
	t.Cleanup(func() { close(w.release) })
	return w
}

func (w *stuckWriter) Write(p []byte) (int, error) {
	w.once.Do(func() { close(w.entered) })
	<-w.release
	return 0, io.ErrClosedPipe
}

// withStallLimit sets stdioStallAfter for one test.
func withStallLimit(t *testing.T, d time.Duration) {
	old := stdioStallAfter
	stdioStallAfter = d
	t.Cleanup(func() { stdioStallAfter = old })
}

// echoLines is n tools/call requests of the fixture's echo tool, each
// with about 1 KiB of text, ids 1…n.
func echoLines(n int) []string {
	text := strings.Repeat("x", 1000)
	lines := make([]string, n)
	for i := range lines {
		lines[i] = faultCall(fmt.Sprint(i+1), "echo", `{"text":"`+text+`"}`, defaultMeta)
	}
	return lines
}

// TestStdioStopsWithAClientThatReadsNothing: ServeStdio returns when it
// is told to stop even though the client reads nothing and a write to it
// never returns: the read loop, stuck writing a batch's answers (with its
// mutex held), no longer keeps it from returning on ctx, on Shutdown or at
// the end of the input.
func TestStdioStopsWithAClientThatReadsNothing(t *testing.T) {
	withStallLimit(t, 200*time.Millisecond)
	for _, stop := range []string{"ctx", "shutdown", "eof"} {
		t.Run(stop, func(t *testing.T) {
			f := newFixture(t)
			inR, inW, err := os.Pipe()
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { inR.Close(); inW.Close() })
			out := newStuckWriter(t)
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			done := make(chan error, 1)
			go func() { done <- f.s.serveStdio(ctx, inR, out, 0) }()
			if stop == "eof" {
				// The input ends while a request runs; its answer is the
				// write that never returns.
				io.WriteString(inW, faultCall(`"slow"`, "slow", `{"tag":"a"}`, defaultMeta)+"\n")
				waitStarted(t, f.gate, "a")
				inW.Close()
				time.Sleep(50 * time.Millisecond) // let the loop read the end
				close(f.gate.release)
			} else {
				// Enough answers to fill the output queue: the read
				// loop waits for room, or is the writer stuck in Write.
				go func() {
					for _, line := range echoLines(stdioOutQueue + 300) {
						if _, err := io.WriteString(inW, line+"\n"); err != nil {
							return
						}
					}
				}()
			}
			select {
			case <-out.entered:
			case <-time.After(5 * time.Second):
				t.Fatal("nothing was written")
			}
			time.Sleep(100 * time.Millisecond) // the loop stops, stuck on the output
			shut := make(chan error, 1)
			switch stop {
			case "ctx":
				cancel()
			case "shutdown":
				go func() {
					sctx, scancel := context.WithTimeout(context.Background(), 20*time.Second)
					defer scancel()
					shut <- f.s.Shutdown(sctx)
				}()
			}
			var got error
			select {
			case got = <-done:
			case <-time.After(5 * time.Second):
				t.Fatalf("ServeStdio did not return within 5 s of the %s (the stall limit is 200 ms)", stop)
			}
			want := errStdioStalled
			if stop == "ctx" {
				want = context.Canceled
			}
			if !errors.Is(got, want) {
				t.Errorf("ServeStdio returned %v, want %v", got, want)
			}
			if stop == "shutdown" {
				select {
				case <-shut:
				case <-time.After(5 * time.Second):
					t.Fatal("Shutdown did not return after ServeStdio did")
				}
			}
		})
	}
}

// waitStarted waits for the fixture's slow tool to start with tag.
func waitStarted(t *testing.T, g *gate, tag string) {
	t.Helper()
	select {
	case got := <-g.started:
		if got != tag {
			t.Fatalf("slow started with %q, want %q", got, tag)
		}
	case <-time.After(5 * time.Second):
		t.Fatalf("slow did not start with %q", tag)
	}
}

// TestStdioStopAnswersAClientThatPausesReading: a client that stops
// reading for a while (each pause shorter than the stall limit) while the
// server stops still gets every answer: the stall guard gives up only an
// output that does not move, and the drain does not end the read loop
// halfway through a batch.
func TestStdioStopAnswersAClientThatPausesReading(t *testing.T) {
	withStallLimit(t, time.Second)
	for _, stop := range []string{"shutdown", "eof"} {
		t.Run(stop, func(t *testing.T) {
			f := newFixture(t)
			inR, inW, err := os.Pipe()
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { inR.Close(); inW.Close() })
			outR, outW := io.Pipe()
			done := make(chan error, 1)
			go func() {
				done <- f.s.serveStdio(context.Background(), inR, outW, 0)
				outW.Close()
			}()
			const n = stdioOutQueue + 300
			sent := make(chan struct{})
			go func() {
				defer close(sent)
				for _, line := range echoLines(n) {
					if _, err := io.WriteString(inW, line+"\n"); err != nil {
						return
					}
				}
				if stop == "eof" {
					inW.Close()
				}
			}()
			answers := make(chan map[string]int, 1)
			go func() {
				// The client reads nothing for 300 ms, then in bursts
				// with 300 ms pauses.
				ids := map[string]int{}
				sc := bufio.NewScanner(outR)
				sc.Buffer(make([]byte, 1<<20), 1<<24)
				time.Sleep(300 * time.Millisecond)
				for k := 0; sc.Scan(); k++ {
					var m struct {
						ID json.RawMessage `json:"id"`
					}
					if json.Unmarshal(sc.Bytes(), &m) == nil && m.ID != nil {
						ids[string(m.ID)]++
					}
					if k%100 == 99 {
						time.Sleep(300 * time.Millisecond)
					}
				}
				answers <- ids
			}()
			if stop == "shutdown" {
				<-sent // every line is in the pipe; some may be refused
				go func() {
					sctx, scancel := context.WithTimeout(context.Background(), 20*time.Second)
					defer scancel()
					f.s.Shutdown(sctx)
				}()
			}
			select {
			case err := <-done:
				if err != nil {
					t.Errorf("ServeStdio returned %v, want nil", err)
				}
			case <-time.After(20 * time.Second):
				t.Fatal("ServeStdio did not return")
			}
			var ids map[string]int
			select {
			case ids = <-answers:
			case <-time.After(20 * time.Second):
				t.Fatal("the client's reading did not end")
			}
			if stop == "eof" {
				if len(ids) != n {
					t.Errorf("%d of %d requests answered", len(ids), n)
				}
			} else if len(ids) == 0 {
				t.Error("no request answered")
			}
			for id, k := range ids {
				if k != 1 {
					t.Errorf("id %s answered %d times", id, k)
				}
			}
		})
	}
}

// TestProgressWriterStuckFor: a write is split into chunks of at most
// stdioChunk, and stuckFor tells how long the chunk under way has waited
// (0 between writes).
func TestProgressWriterStuckFor(t *testing.T) {
	var sizes []int
	gate := make(chan struct{})
	entered := make(chan struct{}, 8)
	pw := newProgressWriter(writerFunc(func(p []byte) (int, error) {
		sizes = append(sizes, len(p))
		entered <- struct{}{}
		<-gate
		return len(p), nil
	}))
	if d := pw.stuckFor(); d != 0 {
		t.Fatalf("stuckFor before any write = %v, want 0", d)
	}
	res := make(chan error, 1)
	go func() {
		n, err := pw.Write(make([]byte, 2*stdioChunk+10))
		if err == nil && n != 2*stdioChunk+10 {
			err = fmt.Errorf("wrote %d bytes", n)
		}
		res <- err
	}()
	<-entered
	time.Sleep(30 * time.Millisecond)
	if d := pw.stuckFor(); d < 30*time.Millisecond {
		t.Errorf("stuckFor of a write blocked for 30 ms = %v", d)
	}
	gate <- struct{}{}
	<-entered
	if d := pw.stuckFor(); d >= 30*time.Millisecond {
		t.Errorf("stuckFor of the next chunk = %v: it counts from the first", d)
	}
	gate <- struct{}{}
	<-entered
	gate <- struct{}{}
	if err := <-res; err != nil {
		t.Fatal(err)
	}
	if d := pw.stuckFor(); d != 0 {
		t.Errorf("stuckFor after the write = %v, want 0", d)
	}
	if want := []int{stdioChunk, stdioChunk, 10}; fmt.Sprint(sizes) != fmt.Sprint(want) {
		t.Errorf("chunks %v, want %v", sizes, want)
	}
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }
