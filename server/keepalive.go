package server

import (
	"sync"
	"time"
)

// keepAlives is one ticker for every stream that sends keep-alives at one
// interval: listen streams and legacy standalone GET streams join it, and
// on each tick every member is kicked by a non-blocking send on its
// channel (the stream's own goroutine writes the comment, so a client that
// stopped reading delays only its own stream). The ticker runs only while
// the set has members. With 10 000 open streams that is one timer instead
// of 10 000.
type keepAlives struct {
	every time.Duration
	mu    sync.Mutex
	kicks map[chan struct{}]struct{}
	stop  chan struct{} // ends the running ticker goroutine; nil when none runs
}

var keepAliveSets struct {
	mu   sync.Mutex
	sets map[time.Duration]*keepAlives
}

// keepAliveEvery returns the process's keep-alive set for interval every.
func keepAliveEvery(every time.Duration) *keepAlives {
	keepAliveSets.mu.Lock()
	defer keepAliveSets.mu.Unlock()
	if keepAliveSets.sets == nil {
		keepAliveSets.sets = map[time.Duration]*keepAlives{}
	}
	k := keepAliveSets.sets[every]
	if k == nil {
		k = &keepAlives{every: every, kicks: map[chan struct{}]struct{}{}}
		keepAliveSets.sets[every] = k
	}
	return k
}

// join adds a member: kick receives once per interval (ticks it was too
// busy to take are dropped, not queued); leave removes it.
func (k *keepAlives) join() (kick <-chan struct{}, leave func()) {
	ch := make(chan struct{}, 1)
	k.mu.Lock()
	k.kicks[ch] = struct{}{}
	if k.stop == nil {
		k.stop = make(chan struct{})
		go k.run(k.stop)
	}
	k.mu.Unlock()
	return ch, func() {
		k.mu.Lock()
		delete(k.kicks, ch)
		if len(k.kicks) == 0 && k.stop != nil {
			close(k.stop)
			k.stop = nil
		}
		k.mu.Unlock()
	}
}

// members reports how many streams are in the set.
func (k *keepAlives) members() int {
	k.mu.Lock()
	defer k.mu.Unlock()
	return len(k.kicks)
}

func (k *keepAlives) run(stop chan struct{}) {
	t := time.NewTicker(k.every)
	defer t.Stop()
	for {
		select {
		case <-stop:
			return
		case <-t.C:
			k.mu.Lock()
			for ch := range k.kicks {
				select {
				case ch <- struct{}{}:
				default:
				}
			}
			k.mu.Unlock()
		}
	}
}
