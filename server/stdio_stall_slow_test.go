package server

import (
	"bufio"
	"context"
	"io"
	"strings"
	"sync"
	"testing"
	"time"
)

// slowReader reads the server's output 1 KiB at a time with a 10 ms
// pause between reads (about 100 KiB/s): a client that never stops
// reading for long, only reads slowly.
func slowReader(r io.Reader) io.Reader {
	return readerFunc(func(p []byte) (int, error) {
		time.Sleep(10 * time.Millisecond)
		return r.Read(p[:min(len(p), 1<<10)])
	})
}

type readerFunc func([]byte) (int, error)

func (f readerFunc) Read(p []byte) (int, error) { return f(p) }

// TestStdioStopAnswersASlowReader: once ServeStdio stops (the stall
// guard runs), a client that reads slowly but keeps reading, pausing
// 10 ms at a time under a 400 ms stall limit, still gets a 150 KiB line
// whole: the guard gives up only an output that does not move, however
// slowly the client reads.
func TestStdioStopAnswersASlowReader(t *testing.T) {
	outR, outW := io.Pipe()
	t.Cleanup(func() { outR.Close() })
	o := newStdioOut(outW)
	o.guardStalls(400 * time.Millisecond) // the stop began
	defer o.stopGuard()
	line := []byte(strings.Repeat("y", 150<<10))
	got := make(chan []byte, 1)
	go func() {
		b, _ := bufio.NewReaderSize(slowReader(outR), 1<<20).ReadBytes('\n')
		got <- b
	}()
	sent := make(chan error, 1)
	go func() { sent <- o.send(line) }()
	select {
	case err := <-sent:
		if err != nil {
			t.Errorf("send returned %v, want nil", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("send did not return")
	}
	outW.Close()
	select {
	case b := <-got:
		if len(b) != len(line)+1 {
			t.Errorf("the client got %d bytes, want %d", len(b), len(line)+1)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the client's reading did not end")
	}
}

// TestStdioOutWritesNothingOnceGivenUp: once the output is given up, a
// write stuck in the client's Write that then returns writes nothing
// more (ServeStdio has returned: out is its caller's again).
func TestStdioOutWritesNothingOnceGivenUp(t *testing.T) {
	var mu sync.Mutex
	writes := 0
	entered, release := make(chan struct{}), make(chan struct{})
	o := newStdioOut(writerFunc(func(p []byte) (int, error) {
		mu.Lock()
		writes++
		first := writes == 1
		mu.Unlock()
		if first {
			close(entered)
			<-release
		}
		return len(p), nil
	}))
	line := []byte(strings.Repeat("z", 40<<10))
	sent := make(chan error, 1)
	go func() { sent <- o.sendAll(context.Background(), [][]byte{line, line, line, line, line}) }()
	select {
	case <-entered:
	case <-time.After(5 * time.Second):
		t.Fatal("nothing was written")
	}
	o.guardStalls(10 * time.Millisecond)
	defer o.stopGuard()
	select {
	case <-o.dead:
	case <-time.After(5 * time.Second):
		t.Fatal("the stuck output was not given up")
	}
	close(release)
	select {
	case err := <-sent:
		if err == nil {
			t.Error("sendAll of a given-up output returned nil")
		}
	case <-time.After(5 * time.Second):
		t.Fatal("sendAll did not return once the write did")
	}
	mu.Lock()
	defer mu.Unlock()
	if writes != 1 {
		t.Errorf("%d more writes to the client after its output was given up", writes-1)
	}
}

// TestStdioStallCountsFromTheStop: a write that waited for the client
// before the stop began (backpressure, as long as the client likes) is
// given the whole stall limit from the stop on, not given up at once.
func TestStdioStallCountsFromTheStop(t *testing.T) {
	entered, release := make(chan struct{}), make(chan struct{})
	var once sync.Once
	o := newStdioOut(writerFunc(func(p []byte) (int, error) {
		once.Do(func() { close(entered); <-release })
		return len(p), nil
	}))
	sent := make(chan error, 1)
	go func() { sent <- o.send([]byte(`{"jsonrpc":"2.0","id":1,"result":{}}`)) }()
	select {
	case <-entered:
	case <-time.After(5 * time.Second):
		t.Fatal("nothing was written")
	}
	time.Sleep(300 * time.Millisecond) // the client pauses before the stop
	o.guardStalls(200 * time.Millisecond)
	defer o.stopGuard()
	time.Sleep(80 * time.Millisecond) // and reads on soon after it (the guard ticks every 50 ms)
	close(release)
	select {
	case err := <-sent:
		if err != nil {
			t.Errorf("send returned %v, want nil", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("send did not return")
	}
}
