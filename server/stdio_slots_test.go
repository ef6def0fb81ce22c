package server

import (
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestStdioSlotsBound: goroutines taking and giving back slots never hold
// more than max at once, and none waits for good (a missed wake-up would
// hang the test).
func TestStdioSlotsBound(t *testing.T) {
	for _, max := range []int{1, 2, 7} {
		s := newStdioSlots(max)
		var in, peak atomic.Int32
		var wg sync.WaitGroup
		for g := 0; g < 8; g++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := 0; i < 2000; i++ {
					if i%3 == 0 {
						if !s.tryTake() {
							continue
						}
					} else if !s.take(nil, nil, nil) {
						t.Error("take gave up with no channel ready")
						return
					}
					n := in.Add(1)
					for p := peak.Load(); n > p && !peak.CompareAndSwap(p, n); p = peak.Load() {
					}
					in.Add(-1)
					s.give()
				}
			}()
		}
		done := make(chan struct{})
		go func() { wg.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(20 * time.Second):
			t.Fatalf("max %d: takers still waiting after 20 s", max)
		}
		if p := peak.Load(); p > int32(max) {
			t.Fatalf("max %d: %d slots held at once", max, p)
		}
		if h := s.held.Load(); h != 0 {
			t.Fatalf("max %d: %d slots still held", max, h)
		}
	}
}

// TestStdioSlotsTakeGivesUp: take waits while every slot is taken and
// reports false once one of its channels is closed; a slot given back
// wakes it.
func TestStdioSlotsTakeGivesUp(t *testing.T) {
	s := newStdioSlots(1)
	if !s.tryTake() || s.tryTake() {
		t.Fatal("one slot: the first tryTake takes it, the second finds none")
	}
	stop := make(chan struct{})
	got := make(chan bool)
	go func() { got <- s.take(nil, stop, nil) }()
	time.Sleep(10 * time.Millisecond)
	close(stop)
	if <-got {
		t.Fatal("take took a slot none gave back")
	}
	go func() { got <- s.take(nil, nil, nil) }()
	time.Sleep(10 * time.Millisecond)
	s.give()
	select {
	case ok := <-got:
		if !ok {
			t.Fatal("take gave up")
		}
	case <-time.After(5 * time.Second):
		t.Fatal("a slot given back did not wake the waiter")
	}
}
