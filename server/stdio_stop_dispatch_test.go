package server

import (
	"context"
	"errors"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/jsonrpc"
)

// TestStdioDispatchesNothingAfterItReturns: the read loop, stuck writing
// to a client that reads nothing while it waits to dispatch a request (the
// answers of its batch go out before it waits for a slot), dispatches
// nothing once ServeStdio returned, even when that write returns and a
// slot is free: no handler starts after ServeStdio returned.
func TestStdioDispatchesNothingAfterItReturns(t *testing.T) {
	withStallLimit(t, 100*time.Millisecond)
	for range 5 {
		if dispatchAfterReturn(t) {
			return
		}
	}
	t.Fatal("the quick request was promoted in every attempt")
}

// dispatchAfterReturn is one attempt of
// TestStdioDispatchesNothingAfterItReturns; false when it could not be
// made (the quick request was promoted: its own goroutine is the stuck
// writer, the loop never writes).
func dispatchAfterReturn(t *testing.T) bool {
	f := newFixture(t)
	f.s.lim.cfg.MaxInFlightPerConn = 1
	// The first call of a tool does more work: warmed up, the quick one
	// returns within the promotion delay and is answered with its batch.
	warm := faultCall("0", "echo", `{"text":"warm"}`, defaultMeta) + "\n"
	if err := f.s.serveStdio(context.Background(), strings.NewReader(warm), io.Discard, 0); err != nil {
		t.Fatal(err)
	}
	// One read brings in: a quick request (its answer waits for the end
	// of the batch), a slow one (promoted, it holds the only slot), and a
	// request that must wait for the slot, so the loop first writes the
	// quick one's answer: the write that never returns.
	lines := strings.Join([]string{
		faultCall("1", "echo", `{"text":"quick"}`, defaultMeta),
		faultCall("2", "slow", `{"tag":"a"}`, defaultMeta),
		faultCall("3", "slow", `{"tag":"b"}`, defaultMeta),
	}, "\n") + "\n"
	first := strings.NewReader(lines)
	again, end := make(chan struct{}), make(chan struct{})
	var againOnce sync.Once
	defer close(end)
	in := readerFunc(func(p []byte) (int, error) {
		if first.Len() > 0 {
			return first.Read(p)
		}
		againOnce.Do(func() { close(again) }) // the loop is past the batch
		<-end
		return 0, io.EOF
	})
	entered, release := make(chan struct{}), make(chan struct{})
	var enterOnce, releaseOnce sync.Once
	defer releaseOnce.Do(func() { close(release) })
	out := writerFunc(func(p []byte) (int, error) {
		enterOnce.Do(func() { close(entered); <-release })
		return 0, io.ErrClosedPipe
	})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- f.s.serveStdio(ctx, in, out, 0) }()
	// The slow request starts before anything is written, unless the
	// quick one was promoted and writes its answer itself.
	select {
	case tag := <-f.gate.started:
		if tag != "a" {
			t.Fatalf("slow started with %q, want %q", tag, "a")
		}
	case <-entered:
		cancel()
		releaseOnce.Do(func() { close(release) })
		<-done
		return false
	case <-time.After(5 * time.Second):
		t.Fatal("nothing started")
	}
	select {
	case <-entered:
	case <-time.After(5 * time.Second):
		t.Fatal("nothing was written")
	}
	cancel()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("ServeStdio returned %v, want %v", err, context.Canceled)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("ServeStdio did not return within 5 s of its ctx (the stall limit is 100 ms)")
	}
	releaseOnce.Do(func() { close(release) }) // the client's Write returns at last
	select {
	case <-again:
	case <-time.After(5 * time.Second):
		t.Fatal("the read loop did not get past its batch")
	}
	select {
	case tag := <-f.gate.started:
		t.Errorf("request %q started after ServeStdio returned", tag)
	default:
	}
	return true
}

// TestStdioSpawnAfterJobsClosed: a listen stream that the read loop hands
// to a worker after serveStdio closed jobs (the loop ran on without its
// mutex, the output having been given up) is ended unserved: no send on
// the closed channel, no handler, its WaitGroup count given back.
func TestStdioSpawnAfterJobsClosed(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	c := &stdioConn{calls: map[string]*stdioCall{}, jobs: make(chan *stdioCall)}
	call := &stdioCall{req: stdioRequest{msg: jsonrpc.Message{ID: jsonrpc.IntID(1)}}, listen: true}
	call.ctx.init(ctx, newGoneRef(ctx))
	c.register(call)
	c.wg.Add(1)
	c.closeJobs()
	c.spawn(call) // panicked: send on closed channel
	if !waitTimeout(&c.wg, 5*time.Second) {
		t.Fatal("the call was not ended")
	}
	if len(c.calls) != 0 {
		t.Errorf("the call is still registered: %v", c.calls)
	}
	if call.ctx.Err() == nil {
		t.Error("the call's context is not cancelled")
	}
}
