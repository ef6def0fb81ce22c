package server

import (
	"bytes"
	"context"
	"errors"
	"io"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// gateWriter blocks every Write until open is closed, then records.
type gateWriter struct {
	open    chan struct{}
	entered chan struct{} // closed at the first Write
	once    sync.Once
	mu      sync.Mutex
	buf     bytes.Buffer
}

func (g *gateWriter) Write(p []byte) (int, error) {
	g.once.Do(func() { close(g.entered) })
	<-g.open
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.buf.Write(p)
}

// waitersAre waits (no clock) until n senders wait for room.
func waitersAre(t *testing.T, o *stdioOut, n int) {
	t.Helper()
	for end := time.Now().Add(5 * time.Second); ; {
		o.mu.Lock()
		w := o.waiting
		o.mu.Unlock()
		if w == n {
			return
		}
		if time.Now().After(end) {
			t.Fatalf("%d senders wait for room after 5 s, want %d", w, n)
		}
		runtime.Gosched()
	}
}

// TestStdioOutCancelledWaiter: with the queue full behind a stuck write, a
// request's sender (a callCtx, cancelled while it waits, and one cancelled
// before it came) gives up with the ctx's error and queues nothing, while
// a plain sender waiting beside it keeps waiting and gets its line written
// once the client reads; close then returns, and every other line is
// written once, in order.
func TestStdioOutCancelledWaiter(t *testing.T) {
	for _, early := range []bool{false, true} {
		t.Run("early="+strconv.FormatBool(early), func(t *testing.T) {
			g := &gateWriter{open: make(chan struct{}), entered: make(chan struct{})}
			o := newStdioOut(g)
			first := make(chan error, 1)
			go func() { first <- o.send([]byte("first")) }()
			<-g.entered // the first line's flush is stuck: writing stays set
			var want []string
			want = append(want, "first")
			for i := range stdioOutQueue {
				line := "q" + strconv.Itoa(i)
				want = append(want, line)
				if err := o.send([]byte(line)); err != nil {
					t.Fatal(err)
				}
			}
			reqs, stop := context.WithCancel(context.Background())
			defer stop()
			var cc callCtx
			cc.init(reqs, newGoneRef(reqs))
			if early {
				cc.cancel()
			}
			flood := make(chan error, 1)
			go func() { flood <- o.sendFor(&cc, []byte("flood")) }()
			plain := make(chan error, 1)
			go func() { plain <- o.send([]byte("plain")) }()
			want = append(want, "plain")
			if !early {
				waitersAre(t, o, 2)
				cc.cancel()
			}
			select {
			case err := <-flood:
				if !errors.Is(err, context.Canceled) {
					t.Fatalf("cancelled sendFor: %v, want context.Canceled", err)
				}
			case <-time.After(5 * time.Second):
				t.Fatal("the cancelled sendFor still waits for room after 5 s")
			}
			waitersAre(t, o, 1) // the plain sender still waits
			close(g.open)
			if err := <-plain; err != nil {
				t.Fatalf("plain send: %v", err)
			}
			if err := <-first; err != nil {
				t.Fatal(err)
			}
			o.close()
			g.mu.Lock()
			got := strings.Split(strings.TrimSuffix(g.buf.String(), "\n"), "\n")
			g.mu.Unlock()
			if strings.Join(got, ",") != strings.Join(want, ",") {
				t.Fatalf("written %d lines %q..., want %d", len(got), got[len(got)-3:], len(want))
			}
		})
	}
}

// TestStdioOutCancelledWithRoom: a done ctx does not drop a line the queue
// has room for.
func TestStdioOutCancelledWithRoom(t *testing.T) {
	var buf bytes.Buffer
	o := newStdioOut(&buf)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := o.sendFor(ctx, []byte("x")); err != nil {
		t.Fatal(err)
	}
	o.close()
	if buf.String() != "x\n" {
		t.Fatalf("written %q", buf.String())
	}
}

// TestStdioOutCloseAfterCancelledWaiters: close, called while cancelled
// waiters leave, returns once the stuck write ends (the waiters counted
// down to zero).
func TestStdioOutCloseAfterCancelledWaiters(t *testing.T) {
	g := &gateWriter{open: make(chan struct{}), entered: make(chan struct{})}
	o := newStdioOut(g)
	go o.send([]byte("first"))
	<-g.entered
	for range stdioOutQueue {
		o.send([]byte("q"))
	}
	ctx, cancel := context.WithCancel(context.Background())
	const n = 8
	errs := make(chan error, n)
	for range n {
		go func() { errs <- o.sendFor(ctx, []byte("flood")) }()
	}
	waitersAre(t, o, n)
	closed := make(chan struct{})
	go func() { o.close(); close(closed) }()
	cancel()
	for range n {
		if err := <-errs; !errors.Is(err, context.Canceled) {
			t.Fatalf("sendFor: %v", err)
		}
	}
	waitersAre(t, o, 0)
	close(g.open)
	<-closed
	if err := o.send([]byte("late")); !errors.Is(err, io.ErrClosedPipe) {
		t.Fatalf("send after close: %v", err)
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if c := strings.Count(g.buf.String(), "\n"); c != 1+stdioOutQueue || strings.Contains(g.buf.String(), "flood") {
		t.Fatalf("%d lines written (flood: %v)", c, strings.Contains(g.buf.String(), "flood"))
	}
}
