package client

import (
	"context"
	"encoding/json"
	"slices"
	"sync"
	"time"

	"github.com/mcpgen/mcpgen/generated/mcp"
	"github.com/mcpgen/mcpgen/jsonrpc"
)

type progressKey struct{}

// WithProgress returns a context whose calls ask for progress (a
// progressToken in _meta) and deliver their notifications/progress to fn.
// fn runs on a goroutine of its own, one notification at a time in order,
// and may call the client; a call returns once fn has had its
// notifications (a call cancelled or timed out too: it waits for fn to
// take what was queued). When fn falls 64 notifications or 1 MiB of them
// behind, the oldest it has not had are dropped (a later progress
// notification supersedes them).
func WithProgress(ctx context.Context, fn func(mcp.ProgressNotificationParams)) context.Context {
	return context.WithValue(ctx, progressKey{}, fn)
}

func progressFunc(ctx context.Context) (func(mcp.ProgressNotificationParams), bool) {
	fn, ok := ctx.Value(progressKey{}).(func(mcp.ProgressNotificationParams))
	return fn, ok && fn != nil
}

// notifier returns the Notify func of one request: progress to the call's
// WithProgress callback (through a progressRelay; flush waits until it
// has had every notification of the request), the rest as
// HandleNotification would, or to stream (a Listen) when set.
func (c *Client) notifier(ctx context.Context, stream func(string, json.RawMessage)) (notify func(string, json.RawMessage), flush func()) {
	flush = func() {}
	var relay *progressRelay
	if fn, ok := progressFunc(ctx); ok {
		relay = &progressRelay{fn: fn}
		flush = relay.flush
	}
	return func(method string, params json.RawMessage) {
		if method == mcp.MethodNotificationsProgress && relay != nil {
			var p mcp.ProgressNotificationParams
			if err := json.Unmarshal(params, &p); err != nil {
				c.opts.logger().Warn("mcp client: undecodable notifications/progress", "error", err)
				return
			}
			relay.push(p, len(params))
			return
		}
		if stream != nil && method != mcp.MethodNotificationsProgress && method != mcp.MethodNotificationsMessage {
			stream(method, params)
			return
		}
		c.HandleNotification(method, params)
	}, flush
}

// maxQueuedProgress bounds the progress notifications a progressRelay
// holds for a callback that has not taken them yet.
const maxQueuedProgress = 64

// maxQueuedProgressBytes bounds the bytes (of their params as received)
// those notifications hold: a server's notification may be as large as a
// message (MaxMessageBytes), and the reader never waits for the callback.
const maxQueuedProgressBytes = 1 << 20

// progressRelay hands one request's progress notifications to its
// WithProgress callback on a goroutine of its own (one at a time, in
// order), so that the transport's reader never waits for the callback: a
// callback that calls the client would otherwise wait, on stdio, for that
// very reader. When the callback falls maxQueuedProgress behind, the
// oldest notification not yet taken is dropped: progress only increases
// and each notification reports the whole of it, so a later one
// supersedes an earlier one.
type progressRelay struct {
	fn func(mcp.ProgressNotificationParams)

	mu      sync.Mutex
	queue   []mcp.ProgressNotificationParams
	sizes   []int         // the params' size of each queued notification
	bytes   int           // their sum
	idle    chan struct{} // closed when the running delivery goroutine ends; nil: none ran
	running bool
	closed  bool // the request has ended: later notifications are dropped
}

// push queues p, whose params were size bytes; it never blocks. The
// oldest notifications give way to stay within maxQueuedProgress and
// maxQueuedProgressBytes (a later progress value supersedes an earlier
// one); one larger than the whole budget is dropped.
func (r *progressRelay) push(p mcp.ProgressNotificationParams, size int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed || size > maxQueuedProgressBytes {
		return
	}
	for len(r.queue) > 0 && (len(r.queue) == maxQueuedProgress || r.bytes+size > maxQueuedProgressBytes) {
		r.bytes -= r.sizes[0]
		r.queue, r.sizes = slices.Delete(r.queue, 0, 1), slices.Delete(r.sizes, 0, 1)
	}
	r.queue, r.sizes = append(r.queue, p), append(r.sizes, size)
	r.bytes += size
	if !r.running {
		r.running, r.idle = true, make(chan struct{})
		go r.deliver(r.idle)
	}
}

func (r *progressRelay) deliver(idle chan struct{}) {
	defer close(idle)
	for {
		r.mu.Lock()
		if len(r.queue) == 0 {
			r.running = false
			r.mu.Unlock()
			return
		}
		p := r.queue[0]
		r.bytes -= r.sizes[0]
		r.queue, r.sizes = r.queue[1:], r.sizes[1:]
		r.mu.Unlock()
		r.fn(p)
	}
}

// flush ends the relay and returns once the callback has had every
// notification queued: a call returns after its progress is reported.
func (r *progressRelay) flush() {
	r.mu.Lock()
	r.closed = true
	idle := r.idle
	r.mu.Unlock()
	if idle != nil {
		<-idle
	}
}

// HandleNotification implements Peer: progress to Options.OnProgress, log
// messages to Options.OnLog, the rest to Options.OnNotification (and, in a
// legacy session, to the Listen iterators whose filter asks for them).
func (c *Client) HandleNotification(method string, params json.RawMessage) {
	c.listeners.deliver(method, params)
	switch method {
	case mcp.MethodNotificationsProgress:
		if c.opts.OnProgress == nil {
			return
		}
		var p mcp.ProgressNotificationParams
		if err := json.Unmarshal(params, &p); err != nil {
			c.opts.logger().Warn("mcp client: undecodable notifications/progress", "error", err)
			return
		}
		c.opts.OnProgress(p)
	case mcp.MethodNotificationsMessage:
		if c.opts.OnLog == nil {
			return
		}
		var p mcp.LoggingMessageNotificationParams
		if err := json.Unmarshal(params, &p); err != nil {
			c.opts.logger().Warn("mcp client: undecodable notifications/message", "error", err)
			return
		}
		c.opts.OnLog(p)
	default:
		if c.opts.OnNotification != nil {
			c.opts.OnNotification(method, params)
		}
	}
}

// HandleRequest implements Peer: a legacy session's server-to-client
// request (elicitation/create, sampling/createMessage, roots/list, ping)
// goes to the registered handler.
func (c *Client) HandleRequest(ctx context.Context, method string, params json.RawMessage) (json.RawMessage, *jsonrpc.Error) {
	if method == "ping" {
		return json.RawMessage(`{}`), nil
	}
	envelope, err := json.Marshal(map[string]json.RawMessage{"method": mustJSON(method), "params": orEmpty(params)})
	if err != nil {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: err.Error()}
	}
	req, err := mcp.DecodeInputRequest(envelope)
	if err != nil {
		if _, known := inputMethods[method]; !known {
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeMethodNotFound, Message: "Method not found: " + method}
		}
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "Invalid params: " + err.Error()}
	}
	res, err := c.answer(ctx, req)
	if err != nil {
		if re, ok := err.(*jsonrpc.Error); ok {
			return nil, re
		}
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: err.Error()}
	}
	out, err := json.Marshal(res)
	if err != nil {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: err.Error()}
	}
	return out, nil
}

// acceptServerRequest implements serverRequestGate: in a 2026-07-28
// session a server's request is dropped with a warning; in a legacy
// session, and before the era is known, it is served.
func (c *Client) acceptServerRequest(method string) bool {
	if !c.modern.Load() {
		return true
	}
	// One warning a second at most, with the count dropped since the last:
	// a server flooding requests must not flood the log too.
	n := c.droppedRequests.Add(1)
	now := time.Now().UnixNano()
	if last := c.droppedWarned.Load(); now-last >= int64(time.Second) && c.droppedWarned.CompareAndSwap(last, now) {
		c.droppedRequests.Add(-n)
		c.opts.logger().Warn("mcp client: dropped a request the server sent in a 2026-07-28 session, where servers send none",
			"method", method, "dropped", n)
	}
	return false
}

var inputMethods = map[string]struct{}{"elicitation/create": {}, "sampling/createMessage": {}, "roots/list": {}}

func mustJSON(v any) json.RawMessage {
	b, _ := json.Marshal(v)
	return b
}

func orEmpty(p json.RawMessage) json.RawMessage {
	if len(p) == 0 {
		return json.RawMessage(`{}`)
	}
	return p
}

// warn logs msg through Options.Logger.
func (c *Client) warn(msg string, args ...any) { c.opts.logger().Warn(msg, args...) }
