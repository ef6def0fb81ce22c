package server

import (
	"context"
	"sync"
	"sync/atomic"
	"time"
)

// callCtx is the context of one stdio request: a child of the
// connection's request context (reqs) that behaves as
// context.WithCancel(reqs) would, but costs nothing to make or cancel
// while nobody asks for its Done channel. context.WithCancel allocates and
// registers the child with reqs (a map insert under reqs' mutex, shared by
// every request of the connection) and removes it again on cancel: about
// 4 % of the stdio server's CPU. Here the standard child is made only when
// Done is called (a handler that selects on it, a context derived with a
// deadline or cancel of its own); until then Err and Value ask reqs, and
// cancel just switches them to an already-cancelled child of reqs shared
// by the connection (gone), so Err is context.Canceled and context.Cause
// is context.Canceled too, as for a cancelled WithCancel child — even if
// reqs is cancelled later with another cause. Cancelled through reqs
// first, Err and Cause are reqs' (errShutdownCancel at the end of a
// drain's grace), as a WithCancel child's are.
//
// A callCtx lives inside its stdioCall (no allocation of its own); init
// sets it up, cancel may be called any number of times from any goroutine.
type callCtx struct {
	parent context.Context // reqs
	gone   *ctxRef         // the connection's cancelled child of reqs
	// cur answers Err, Done and Value once set: gone after a cancel while
	// parent was not cancelled, or the standard child Done made. nil:
	// parent answers Err and Value.
	cur  atomic.Pointer[ctxRef]
	mu   sync.Mutex         // orders Done's child against cancel
	stop context.CancelFunc // the standard child's cancel, once made
}

// ctxRef holds a context for atomic.Pointer.
type ctxRef struct{ ctx context.Context }

// newGoneRef returns a child of reqs cancelled at once: what a cancelled
// callCtx of reqs answers with.
func newGoneRef(reqs context.Context) *ctxRef {
	gone, cancel := context.WithCancel(reqs)
	cancel()
	return &ctxRef{gone}
}

// init makes c a live child of parent; gone is newGoneRef(parent).
func (c *callCtx) init(parent context.Context, gone *ctxRef) {
	c.parent, c.gone = parent, gone
}

// Deadline is parent's: a callCtx has no deadline of its own.
func (c *callCtx) Deadline() (time.Time, bool) { return c.parent.Deadline() }

// Done returns a channel closed when c is cancelled or parent is done.
// The first call makes the standard child of parent that provides it.
func (c *callCtx) Done() <-chan struct{} {
	if r := c.cur.Load(); r != nil {
		return r.ctx.Done()
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if r := c.cur.Load(); r != nil {
		return r.ctx.Done()
	}
	child, cancel := context.WithCancel(c.parent)
	c.stop = cancel
	c.cur.Store(&ctxRef{child})
	return child.Done()
}

// Err is context.Canceled once c or parent is cancelled, else nil.
func (c *callCtx) Err() error {
	if r := c.cur.Load(); r != nil {
		return r.ctx.Err()
	}
	return c.parent.Err()
}

// Value is parent's value for key; for context's own key it is the
// cancelled child's (so context.Cause is right) once c is cancelled.
func (c *callCtx) Value(key any) any {
	if r := c.cur.Load(); r != nil {
		return r.ctx.Value(key)
	}
	return c.parent.Value(key)
}

// String describes c for debugging (fmt, context's own String methods).
func (c *callCtx) String() string { return "stdio request context" }

// cancel cancels c (and what was derived from it); a no-op once c is
// cancelled, or when parent was cancelled first (c stays cancelled by
// parent, with its cause).
func (c *callCtx) cancel() {
	c.mu.Lock()
	defer c.mu.Unlock()
	switch {
	case c.stop != nil:
		c.stop()
	case c.cur.Load() != nil, c.parent.Err() != nil:
	default:
		c.cur.Store(c.gone)
	}
}
