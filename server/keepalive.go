package server

import (
	"sync"
	"sync/atomic"
	"time"
)

// keepAlives is one ticker for every stream that sends keep-alives at one
// interval (every): listen streams and legacy standalone GET streams join
// it. The ticker ticks keepAliveSteps times per interval; on each tick the
// loop sends a keep-alive to the members that have written nothing for
// keepAliveSteps ticks, so a stream is never silent for longer than every
// (and, once idle, gets exactly one keep-alive per interval), while a
// stream that carried a notification recently gets none. The loop calls
// each due member's send itself: an HTTP stream's comment is written from
// the loop (no goroutine of the stream wakes; http_keepalive.go bounds the
// write so a client that stopped reading cannot hold up the loop). The
// ticker runs only while the set has members. With 10 000 open streams
// that is one timer, and one wake-up of one goroutine per tick, instead
// of 10 000.
type keepAlives struct {
	every time.Duration
	ticks atomic.Uint64 // ticks so far: the clock of keepAlive.last

	mu      sync.Mutex
	members map[*keepAlive]struct{}
	stop    chan struct{} // ends the running ticker goroutine; nil when none runs
}

// keepAliveSteps is the number of ticks per keep-alive interval: a stream
// idle since just after a tick is due at its keepAliveSteps-th tick, one
// idle since just before a tick a tick earlier, so silences are between
// (steps-1)/steps and 1 interval long.
const keepAliveSteps = 4

// keepAlive is one member of a keepAlives set.
type keepAlive struct {
	set  *keepAlives
	last atomic.Uint64 // set.ticks when the stream last wrote
	// send writes one keep-alive. The loop calls it and waits for it, so
	// it must not block for long; it is called at most once per tick and
	// may still be called (once) just after leave.
	send func()
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
		k = &keepAlives{every: every, members: map[*keepAlive]struct{}{}}
		keepAliveSets.sets[every] = k
	}
	return k
}

// join adds a stream whose keep-alives send writes; the stream counts as
// having written just now. The member's wrote records later writes, and
// leave removes it.
func (k *keepAlives) join(send func()) *keepAlive {
	m := &keepAlive{set: k, send: send}
	m.last.Store(k.ticks.Load())
	k.mu.Lock()
	k.members[m] = struct{}{}
	if k.stop == nil {
		k.stop = make(chan struct{})
		go k.run(k.stop)
	}
	k.mu.Unlock()
	return m
}

// wrote records that the stream wrote something (a notification or a
// keep-alive): it is not due for a keep-alive for another interval. It is
// one atomic store, cheap enough for every event.
func (m *keepAlive) wrote() { m.last.Store(m.set.ticks.Load()) }

// leave removes the member; the ticker stops with the last one.
func (m *keepAlive) leave() {
	k := m.set
	k.mu.Lock()
	delete(k.members, m)
	if len(k.members) == 0 && k.stop != nil {
		close(k.stop)
		k.stop = nil
	}
	k.mu.Unlock()
}

// count reports how many streams are in the set.
func (k *keepAlives) count() int {
	k.mu.Lock()
	defer k.mu.Unlock()
	return len(k.members)
}

func (k *keepAlives) run(stop chan struct{}) {
	t := time.NewTicker(max(k.every/keepAliveSteps, time.Millisecond))
	defer t.Stop()
	var due []*keepAlive
	for {
		select {
		case <-stop:
			return
		case <-t.C:
			now := k.ticks.Add(1)
			k.mu.Lock()
			for m := range k.members {
				if now-m.last.Load() >= keepAliveSteps {
					due = append(due, m)
				}
			}
			k.mu.Unlock()
			// Sent outside k.mu: streams join and leave while the loop
			// writes.
			for i, m := range due {
				m.last.Store(now)
				m.send()
				due[i] = nil
			}
			due = due[:0]
		}
	}
}
