package server

import "sync"

// pendingEvents holds a subscriber's events not yet delivered: each
// distinct event once, in the order of its first publication since its
// last delivery. A stream that is behind therefore loses nothing and
// holds no more than the events it asked for (its three list kinds, the
// URIs and task ids of its filter): an event published again while still
// pending needs no second notification, since the one to come is sent
// after both changes. publish never waits for a stream.
type pendingEvents struct {
	wake chan struct{} // holds a token while events are pending

	mu     sync.Mutex
	events []event
	lists  uint8              // the list kinds events holds (bit 1<<kind)
	queued map[event]struct{} // the other events it holds
}

func newPendingEvents() pendingEvents { return pendingEvents{wake: make(chan struct{}, 1)} }

// offer queues ev unless it is pending already, and wakes the stream.
func (p *pendingEvents) offer(ev event) {
	p.mu.Lock()
	if p.add(ev) {
		p.events = append(p.events, ev)
	}
	p.mu.Unlock()
	p.poke()
}

// poke wakes the stream (events pending, its request ended, or the server
// draining): the stream's goroutine waits on wake alone, and looks at
// everything that may end it each time it wakes.
func (p *pendingEvents) poke() {
	select {
	case p.wake <- struct{}{}:
	default: // woken already
	}
}

// add records ev as pending; false when it was already.
func (p *pendingEvents) add(ev event) bool {
	if ev.kind < changeResourceUpdated { // a list kind: no URI
		bit := uint8(1) << ev.kind
		if p.lists&bit != 0 {
			return false
		}
		p.lists |= bit
		return true
	}
	if _, dup := p.queued[ev]; dup {
		return false
	}
	if p.queued == nil {
		p.queued = make(map[event]struct{})
	}
	p.queued[ev] = struct{}{}
	return true
}

// take moves the pending events into buf (emptied first), oldest first,
// and returns it; the queue is then empty.
func (p *pendingEvents) take(buf []event) []event {
	p.mu.Lock()
	buf = append(buf[:0], p.events...)
	clear(p.events)
	p.events = p.events[:0]
	p.lists = 0
	clear(p.queued)
	p.mu.Unlock()
	return buf
}
