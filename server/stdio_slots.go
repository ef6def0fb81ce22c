package server

import (
	"sync"
	"sync/atomic"
)

// stdioSlots counts the in-flight slots of a connection taken
// (Limits.MaxInFlightPerConn). Taking and giving back a slot are an atomic
// compare-and-swap and an add; only who waits for a slot uses the mutex
// and a channel, closed when a slot is given back while someone waits. A
// buffered channel of tokens did the same with a channel send and receive
// per request, each under the channel's lock (about 250 instructions a
// request of the stdio read loop).
type stdioSlots struct {
	max     int32
	held    atomic.Int32 // slots taken
	waiters atomic.Int32 // goroutines in take that found none free
	mu      sync.Mutex
	freed   chan struct{} // closed and replaced (under mu) when a slot is given back while waiters > 0
}

func newStdioSlots(n int) *stdioSlots {
	return &stdioSlots{max: int32(n), freed: make(chan struct{})}
}

// tryTake takes a free slot, if there is one, without waiting.
func (s *stdioSlots) tryTake() bool {
	for {
		h := s.held.Load()
		if h >= s.max {
			return false
		}
		if s.held.CompareAndSwap(h, h+1) {
			return true
		}
	}
}

// take takes a slot, waiting while all are taken, until one of the
// channels (nil ones never are) is closed or ready: then it reports false.
//
// No give is missed: a waiter counts itself in waiters before it looks at
// held again, and give lowers held before it looks at waiters (both
// sequentially consistent), so either the waiter sees the slot given back
// or give sees the waiter and closes the channel the waiter took before
// it looked (or a later one, after that one was closed).
func (s *stdioSlots) take(a, b, c <-chan struct{}) bool {
	if s.tryTake() {
		return true
	}
	s.waiters.Add(1)
	defer s.waiters.Add(-1)
	for {
		s.mu.Lock()
		freed := s.freed
		s.mu.Unlock()
		if s.tryTake() {
			return true
		}
		select {
		case <-freed:
		case <-a:
			return false
		case <-b:
			return false
		case <-c:
			return false
		}
	}
}

// give gives a taken slot back and wakes those waiting for one.
func (s *stdioSlots) give() {
	s.held.Add(-1)
	if s.waiters.Load() > 0 {
		s.mu.Lock()
		close(s.freed)
		s.freed = make(chan struct{})
		s.mu.Unlock()
	}
}
