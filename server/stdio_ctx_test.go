package server

import (
	"context"
	"errors"
	"testing"
	"time"
)

type callCtxKey struct{}

// newTestCallCtx returns a live callCtx of a reqs like serveStdio's (a
// value under it, cancelled with a cause) and reqs' cancel.
func newTestCallCtx() (*callCtx, context.CancelCauseFunc) {
	base := context.WithValue(context.Background(), callCtxKey{}, "v")
	reqs, cancelReqs := context.WithCancelCause(base)
	c := new(callCtx)
	c.init(reqs, newGoneRef(reqs))
	return c, cancelReqs
}

// closed reports whether done is closed within a second.
func closed(done <-chan struct{}) bool {
	select {
	case <-done:
		return true
	case <-time.After(time.Second):
		return false
	}
}

func TestCallCtxLive(t *testing.T) {
	c, cancelReqs := newTestCallCtx()
	defer cancelReqs(nil)
	if c.Err() != nil || context.Cause(c) != nil {
		t.Fatalf("live: Err %v, Cause %v", c.Err(), context.Cause(c))
	}
	if got := c.Value(callCtxKey{}); got != "v" {
		t.Fatalf("Value = %v, want the parent's v", got)
	}
	if _, ok := c.Deadline(); ok {
		t.Fatal("a deadline without one set")
	}
	select {
	case <-c.Done():
		t.Fatal("Done closed while live")
	default:
	}
}

// Cancelled by itself first: Canceled, also as the cause, and it stays so
// when reqs is cancelled later with errShutdownCancel.
func TestCallCtxCancelFirst(t *testing.T) {
	for _, withDone := range []bool{false, true} {
		c, cancelReqs := newTestCallCtx()
		var done <-chan struct{}
		if withDone {
			done = c.Done()
		}
		derived, stopDerived := context.WithCancel(c)
		c.cancel()
		c.cancel() // idempotent
		if !errors.Is(c.Err(), context.Canceled) || context.Cause(c) != context.Canceled {
			t.Fatalf("withDone=%v: Err %v, Cause %v", withDone, c.Err(), context.Cause(c))
		}
		if !closed(c.Done()) || (done != nil && !closed(done)) {
			t.Fatalf("withDone=%v: Done not closed", withDone)
		}
		if !closed(derived.Done()) || context.Cause(derived) != context.Canceled {
			t.Fatalf("withDone=%v: derived context: Err %v, Cause %v", withDone, derived.Err(), context.Cause(derived))
		}
		if got := c.Value(callCtxKey{}); got != "v" {
			t.Fatalf("withDone=%v: Value after cancel = %v", withDone, got)
		}
		cancelReqs(errShutdownCancel)
		if context.Cause(c) != context.Canceled {
			t.Fatalf("withDone=%v: Cause after reqs' cancel = %v, want Canceled (first wins)", withDone, context.Cause(c))
		}
		stopDerived()
	}
}

// Cancelled through reqs (the end of a drain's grace): Err Canceled, Cause
// errShutdownCancel, Done closed — whether Done was asked for before,
// after, or not at all, and its own later cancel changes nothing.
func TestCallCtxParentFirst(t *testing.T) {
	for _, when := range []string{"before", "after", "never"} {
		c, cancelReqs := newTestCallCtx()
		var done <-chan struct{}
		if when == "before" {
			done = c.Done()
		}
		derived, stopDerived := context.WithTimeout(c, time.Hour)
		cancelReqs(errShutdownCancel)
		if when == "after" {
			done = c.Done()
		}
		if done != nil && !closed(done) {
			t.Fatalf("%s: Done not closed", when)
		}
		c.cancel()
		if !errors.Is(c.Err(), context.Canceled) || context.Cause(c) != errShutdownCancel {
			t.Fatalf("%s: Err %v, Cause %v", when, c.Err(), context.Cause(c))
		}
		if !closed(derived.Done()) || context.Cause(derived) != errShutdownCancel {
			t.Fatalf("%s: derived: Err %v, Cause %v", when, derived.Err(), context.Cause(derived))
		}
		stopDerived()
	}
}

// context.AfterFunc on a callCtx runs once it is cancelled.
func TestCallCtxAfterFunc(t *testing.T) {
	c, cancelReqs := newTestCallCtx()
	defer cancelReqs(nil)
	ran := make(chan struct{})
	context.AfterFunc(c, func() { close(ran) })
	select {
	case <-ran:
		t.Fatal("ran while live")
	case <-time.After(10 * time.Millisecond):
	}
	c.cancel()
	if !closed(ran) {
		t.Fatal("AfterFunc did not run after cancel")
	}
}

// BenchmarkRequestContext is the life of a stdio request's context on the
// hot path (made, Err and Value asked, cancelled) with every request a
// child of one shared reqs, from parallel workers: the standard
// context.WithCancel child against a callCtx.
func BenchmarkRequestContext(b *testing.B) {
	reqs, cancelReqs := context.WithCancelCause(context.WithValue(context.Background(), callCtxKey{}, "v"))
	defer cancelReqs(nil)
	b.Run("WithCancel", func(b *testing.B) {
		b.ReportAllocs()
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				ctx, cancel := context.WithCancel(reqs)
				if ctx.Err() != nil || ctx.Value(callCtxKey{}) == nil || ctx.Err() != nil {
					b.Fatal("not live")
				}
				cancel()
			}
		})
	})
	b.Run("callCtx", func(b *testing.B) {
		gone := newGoneRef(reqs)
		b.ReportAllocs()
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				c := new(callCtx) // in a stdioCall: allocated with it
				c.init(reqs, gone)
				if c.Err() != nil || c.Value(callCtxKey{}) == nil || c.Err() != nil {
					b.Fatal("not live")
				}
				c.cancel()
			}
		})
	})
}
