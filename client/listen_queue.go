package client

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"

	"github.com/mcpgen/mcpgen/generated/mcp"
)

// maxListenQueue bounds the notifications a Listen holds for a consumer
// that has not read them yet, and maxListenQueueBytes the bytes of their
// params (a notification may be as large as a message, MaxMessageBytes).
const (
	maxListenQueue      = 1024
	maxListenQueueBytes = 8 << 20
)

// ErrListenOverflow ends a Listen whose consumer fell more than 1024
// notifications (or 8 MiB of them) behind the server. The notifications queued before it are
// yielded first; listening again (and listing again what changed) resumes.
var ErrListenOverflow = fmt.Errorf("client: the Listen consumer fell more than %d notifications (or %d MiB of them) behind; the stream was ended (listen again to resume)", maxListenQueue, maxListenQueueBytes>>20)

// errListenStopped ends the queue of a Listen whose context ended.
var errListenStopped = errors.New("client: the Listen ended")

// listenQueue holds one Listen's notifications between the transport's
// reader, which must never wait for a consumer (on stdio a consumer that
// calls the client would wait for that very reader), and the consumer.
// push never blocks; memory stays bounded: a notification that only says
// "something changed, fetch it again" (list_changed, resources/updated)
// equal to one still queued adds nothing, and a consumer that falls
// maxListenQueue behind has its stream ended with ErrListenOverflow.
type listenQueue struct {
	mu     sync.Mutex
	items  []Notification
	bytes  int             // the params' bytes of items
	queued map[string]bool // the coalescible notifications in items
	err    error           // why the stream ended; set once
	wake   chan struct{}   // a push or the end since the consumer last looked
	stop   func()          // ends the stream (on overflow)
}

func newListenQueue(stop func()) *listenQueue {
	return &listenQueue{queued: map[string]bool{}, wake: make(chan struct{}, 1), stop: stop}
}

// push queues a notification; it never blocks.
func (q *listenQueue) push(method string, params json.RawMessage) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.err != nil {
		return
	}
	key := coalesceKey(method, params)
	if key != "" && q.queued[key] {
		return
	}
	if len(q.items) >= maxListenQueue || q.bytes+len(params) > maxListenQueueBytes {
		q.err = ErrListenOverflow
		q.stop()
		q.signal()
		return
	}
	if key != "" {
		q.queued[key] = true
	}
	q.items = append(q.items, Notification{Method: method, Params: params})
	q.bytes += len(params)
	q.signal()
}

// end records why the stream ended, unless it ended already.
func (q *listenQueue) end(err error) {
	q.mu.Lock()
	if q.err == nil {
		q.err = err
	}
	q.signal()
	q.mu.Unlock()
}

func (q *listenQueue) signal() {
	select {
	case q.wake <- struct{}{}:
	default:
	}
}

// next returns the oldest queued notification; once none is left, the
// error the stream ended with. When done closes, the queue ends with
// errListenStopped.
func (q *listenQueue) next(done <-chan struct{}) (Notification, error) {
	for {
		q.mu.Lock()
		if len(q.items) > 0 {
			n := q.items[0]
			q.items[0] = Notification{}
			q.items = q.items[1:]
			q.bytes -= len(n.Params)
			delete(q.queued, coalesceKey(n.Method, n.Params))
			q.mu.Unlock()
			return n, nil
		}
		err := q.err
		q.mu.Unlock()
		if err != nil {
			return Notification{}, err
		}
		select {
		case <-q.wake:
		case <-done:
			q.end(errListenStopped)
			done = nil
		}
	}
}

// coalesceKey identifies a notification that only asks the client to
// fetch something again, so that an equal one still queued stands for
// both; "" for any other.
func coalesceKey(method string, params json.RawMessage) string {
	switch method {
	case mcp.MethodNotificationsToolsListChanged, mcp.MethodNotificationsPromptsListChanged,
		mcp.MethodNotificationsResourcesListChanged, mcp.MethodNotificationsResourcesUpdated:
		return method + "\x00" + string(params)
	}
	return ""
}

// yieldQueue yields q's notifications until the consumer stops or the
// stream ends (or done closes), then the error the stream ended with,
// unless ctx has ended: that end is the consumer's own doing.
// ErrListenOverflow is yielded in any case.
func yieldQueue(ctx context.Context, q *listenQueue, done <-chan struct{}, yield func(Notification, error) bool) {
	for {
		n, err := q.next(done)
		if err != nil {
			if err == ErrListenOverflow || ctx.Err() == nil {
				yield(Notification{}, err)
			}
			return
		}
		if !yield(n, nil) {
			return
		}
	}
}
