package client

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"sync"

	"github.com/mcpgen/mcpgen/internal/jsonscan"
	"github.com/mcpgen/mcpgen/jsonrpc"
)

// DefaultMaxMessageBytes bounds one message a transport reads from a server
// (a stdio line, an HTTP body, an SSE event) when no limit is set.
const DefaultMaxMessageBytes = 16 << 20

// streamConn is a JSON-RPC message connection: one sender, one reader
// goroutine that routes responses to waiting requests by id and
// notifications by progress token or subscription id. The stdio transport
// runs it over newline-delimited JSON; the HTTP+SSE transport (2024-11-05,
// sse_legacy.go) over an event stream and POSTs.
type streamConn struct {
	send    func(ctx context.Context, msg []byte) error
	max     int
	onClose func() error // cause of a closed stream (stderr tail, exit status)
	ended   string       // what a closed stream is called in errors

	mu        sync.Mutex
	pending   map[string]*pendingCall
	abandoned abandonedIDs // ids cancelled or timed out: a late answer is dropped
	peer      Peer
	serving   chan struct{} // one token per server request being served (maxServing)
	err       error         // set once the reader stops
	done      chan struct{}
}

type pendingCall struct {
	req *Request
	ch  chan callResult
}

type callResult struct {
	result json.RawMessage
	err    error
}

// messageSource yields the server's messages one by one. errSkipMessage
// reports a message to drop while reading goes on; any other error ends the
// stream.
type messageSource func() ([]byte, error)

var errSkipMessage = errors.New("client: message skipped")

// newStreamConn runs a connection over newline-delimited JSON.
func newStreamConn(r io.Reader, w io.Writer, max int, cause func() error) *streamConn {
	if max <= 0 {
		max = DefaultMaxMessageBytes
	}
	lw := newLineWriter(w)
	send := lw.write
	lr := jsonrpc.NewLineReader(r, max)
	var failTooLarge func()
	next := func() ([]byte, error) {
		line, err := lr.Next()
		if errors.Is(err, jsonrpc.ErrMessageTooLarge) {
			failTooLarge()
			return nil, errSkipMessage
		}
		return line, err
	}
	c := newMessageConn(next, send, max, cause, "the server closed its output")
	go func() { <-c.done; lw.stop() }()
	failTooLarge = func() { c.failAll(fmt.Errorf("client: the server sent a message larger than %d bytes", c.max)) }
	return c
}

// newMessageConn runs a connection that reads from next and writes with
// send; ended names the end of the stream in errors.
func newMessageConn(next messageSource, send func(context.Context, []byte) error, max int, cause func() error, ended string) *streamConn {
	c := &streamConn{send: send, max: max, onClose: cause, ended: ended, pending: map[string]*pendingCall{},
		done: make(chan struct{}), serving: make(chan struct{}, maxServing)}
	go c.readLoop(next)
	return c
}

func (c *streamConn) bindPeer(p Peer) {
	c.mu.Lock()
	c.peer = p
	c.mu.Unlock()
}

func (c *streamConn) write(ctx context.Context, b []byte) error { return c.send(ctx, b) }

// detached is a context for a message sent on behalf of a request that
// has ended (its cancellation, an answer to the server).
func detached(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.WithoutCancel(ctx), cancelTimeout)
}

func (c *streamConn) roundTrip(ctx context.Context, req *Request) (json.RawMessage, error) {
	key := req.ID.String()
	p := &pendingCall{req: req, ch: make(chan callResult, 1)}
	c.mu.Lock()
	if c.err != nil {
		err := c.err
		c.mu.Unlock()
		return nil, err
	}
	if _, dup := c.pending[key]; dup {
		c.mu.Unlock()
		return nil, fmt.Errorf("client: request id %s is already in flight", key)
	}
	c.pending[key] = p
	c.mu.Unlock()
	if err := c.write(ctx, jsonrpc.AppendRequest(nil, req.ID, req.Method, req.Params)); err != nil {
		// A write the context ended may still reach the server: its late
		// answer is dropped.
		c.forget(key, ctx.Err() != nil)
		if ctx.Err() != nil {
			return nil, fmt.Errorf("client: %s: writing to the server: %w", req.Method, context.Cause(ctx))
		}
		return nil, fmt.Errorf("client: writing %s to the server: %w", req.Method, err)
	}
	select {
	case r := <-p.ch:
		return r.result, r.err
	case <-ctx.Done():
		c.forget(key, true)
		// stdio cancellation: tell the server (basic/patterns/cancellation.mdx).
		// Sent in the background: a server that does not read its input
		// must not hold the caller past its context (cancelTimeout bounds it).
		params, _ := json.Marshal(map[string]any{"requestId": req.ID, "reason": context.Cause(ctx).Error()})
		go func() {
			wctx, cancel := detached(ctx)
			defer cancel()
			_ = c.write(wctx, jsonrpc.AppendNotification(nil, "notifications/cancelled", params))
		}()
		return nil, fmt.Errorf("client: %s: %w", req.Method, context.Cause(ctx))
	}
}

func (c *streamConn) forget(key string, abandon bool) {
	c.mu.Lock()
	delete(c.pending, key)
	if abandon {
		c.abandoned.add(key)
	}
	c.mu.Unlock()
}

func (c *streamConn) notify(ctx context.Context, req *Request) error {
	c.mu.Lock()
	err := c.err
	c.mu.Unlock()
	if err != nil {
		return err
	}
	return c.write(ctx, jsonrpc.AppendNotification(nil, req.Method, req.Params))
}

// failAll ends every waiting request with err.
func (c *streamConn) failAll(err error) {
	c.mu.Lock()
	for k, p := range c.pending {
		p.ch <- callResult{err: err}
		delete(c.pending, k)
	}
	c.mu.Unlock()
}

func (c *streamConn) readLoop(next messageSource) {
	for {
		line, err := next()
		if errors.Is(err, errSkipMessage) {
			continue
		}
		if err != nil {
			cause := c.ended
			if !errors.Is(err, io.EOF) {
				cause = fmt.Sprintf("%s: %v", c.ended, err)
			}
			if c.onClose != nil {
				if more := c.onClose(); more != nil {
					cause += " (" + more.Error() + ")"
				}
			}
			final := errors.New("client: " + cause)
			c.mu.Lock()
			c.err = final
			c.mu.Unlock()
			c.failAll(final)
			close(c.done)
			return
		}
		if len(line) == 0 {
			continue
		}
		c.dispatch(bytes.Clone(line))
	}
}

func (c *streamConn) dispatch(line []byte) {
	msg, derr := jsonrpc.Decode(line)
	if derr != nil {
		c.malformed(line, msg.ID, derr)
		return
	}
	switch msg.Kind {
	case jsonrpc.KindResponse, jsonrpc.KindErrorResponse:
		r := callResult{result: msg.Result}
		if msg.Kind == jsonrpc.KindErrorResponse {
			r = callResult{err: msg.Error}
		}
		if key := msg.ID.String(); c.settle(key, r) {
			c.failAll(fmt.Errorf("client: the server answered request id %s, which the client never sent or already had answered", key))
		}
	case jsonrpc.KindNotification:
		c.route(msg.Method, msg.Params)
	case jsonrpc.KindRequest:
		c.mu.Lock()
		peer := c.peer
		c.mu.Unlock()
		if !acceptsServerRequest(peer, msg.Method) {
			return
		}
		select {
		case c.serving <- struct{}{}:
			go func() {
				defer func() { <-c.serving }()
				c.serve(peer, msg)
			}()
		default:
			// A server that keeps maxServing requests waiting gets an error
			// for the next one, not one more goroutine.
			ctx, cancel := detached(context.Background())
			_ = c.write(ctx, jsonrpc.AppendError(nil, msg.ID, errTooManyServerRequests))
			cancel()
		}
	}
}

// settle hands r to the call waiting for the answer with id key. An
// answer to an abandoned call (cancelled or timed out) is dropped: "The
// client SHOULD ignore any response to the cancelled request that arrives
// afterward" (cancellation.mdx). unknown reports an answer to no call.
func (c *streamConn) settle(key string, r callResult) (unknown bool) {
	c.mu.Lock()
	p, ok := c.pending[key]
	delete(c.pending, key)
	late := !ok && c.abandoned.answer(key)
	c.mu.Unlock()
	if ok {
		p.ch <- r
	}
	return !ok && !late
}

// maxAbandoned bounds the abandoned ids a connection remembers.
const maxAbandoned = 4096

// abandonedIDs remembers the ids of abandoned calls so that their late
// answers are dropped, not taken for answers to ids the client never sent
// (which end every call). It keeps the newest maxAbandoned ids and forgets
// the oldest first; of the ids it forgot it keeps the range of the integer
// ones (the Client numbers its requests 1, 2, 3, …) and whether any was a
// string, so that an answer that may be late for a forgotten id is dropped
// too rather than failing every call.
type abandonedIDs struct {
	waiting map[string]bool // id → no answer has arrived yet
	order   []string        // the ids in waiting, oldest at next once full
	next    int

	forgotLow, forgotHigh int64 // range of the integer ids forgotten (forgotHigh < forgotLow: none)
	forgotString          bool  // a string id was forgotten
}

// add remembers key, forgetting the oldest id when maxAbandoned are kept.
func (a *abandonedIDs) add(key string) {
	if a.waiting == nil {
		a.waiting, a.forgotLow, a.forgotHigh = map[string]bool{}, 1, 0
	}
	if _, kept := a.waiting[key]; !kept {
		if len(a.order) < maxAbandoned {
			a.order = append(a.order, key)
		} else {
			a.forget(a.order[a.next])
			a.order[a.next] = key
			a.next = (a.next + 1) % maxAbandoned
		}
	}
	a.waiting[key] = true
}

func (a *abandonedIDs) forget(key string) {
	delete(a.waiting, key)
	n, isInt := intKey(key)
	switch {
	case !isInt:
		a.forgotString = true
	case a.forgotHigh < a.forgotLow:
		a.forgotLow, a.forgotHigh = n, n
	default:
		a.forgotLow, a.forgotHigh = min(a.forgotLow, n), max(a.forgotHigh, n)
	}
}

// answer reports whether an answer with key, which no call waits for, may
// be the late answer of an abandoned call: the first answer to a kept id,
// or any answer to an id in the forgotten range.
func (a *abandonedIDs) answer(key string) bool {
	if a.waiting[key] {
		a.waiting[key] = false // a second answer is one too many
		return true
	}
	if n, ok := intKey(key); ok {
		return a.forgotLow <= n && n <= a.forgotHigh
	}
	return a.forgotString
}

// intKey returns the value of an integer id's text (jsonrpc.ID.String).
func intKey(key string) (int64, bool) {
	n, err := strconv.ParseInt(key, 10, 64)
	return n, err == nil
}

// malformed handles a message Decode refused (its id, when readable).
// A request or notification of the server concerns none of the client's
// calls — the ids of the server's requests are another id space than the
// client's — so it is dropped with a warning; a session that serves
// server requests gets no answer to it either, as its method and params
// cannot be trusted. Only a response fails a call: the one with its id, or
// every call when the id is unreadable or unknown (the server broke the
// protocol and no answer can be trusted to arrive).
func (c *streamConn) malformed(line []byte, id jsonrpc.ID, derr *jsonrpc.Error) {
	err := fmt.Errorf("client: the server sent an invalid JSON-RPC message (%s): %s", derr.Message, clip(line))
	if fromServer(line) {
		c.warn("mcp client: dropped an invalid request or notification of the server", "error", err)
		return
	}
	if id.IsZero() || c.settle(id.String(), callResult{err: err}) {
		c.failAll(err)
	}
}

// fromServer reports whether line has the shape of a request or a
// notification: a "method" member and neither "result" nor "error". The
// members are read as Decode reads them (jsonscan.Members: exact,
// unescaped names); a message malformed part-way is judged by the members
// before the fault.
func fromServer(line []byte) bool {
	var method, answer bool
	jsonscan.Members(line, func(key, _ []byte) {
		switch string(key) {
		case "method":
			method = true
		case "result", "error":
			answer = true
		}
	})
	return method && !answer
}

// warn logs through the Client's Options.Logger when the peer is a Client.
func (c *streamConn) warn(msg string, args ...any) {
	c.mu.Lock()
	w, ok := c.peer.(warner)
	c.mu.Unlock()
	if ok {
		w.warn(msg, args...)
	}
}

// warner is implemented by a Peer that logs warnings (the Client).
type warner interface {
	warn(msg string, args ...any)
}

// route delivers a notification to the request it names
// (notificationKeys, Request.names): a notifications/progress by its
// progress token alone, any other by its subscription id (a listen
// stream); any other goes to the peer.
func (c *streamConn) route(method string, params json.RawMessage) {
	token, sub := notificationKeys(method, params)
	c.mu.Lock()
	var target *pendingCall
	for _, p := range c.pending {
		if p.req.Notify == nil {
			continue
		}
		if p.req.names(token, sub) {
			target = p
			break
		}
	}
	peer := c.peer
	c.mu.Unlock()
	switch {
	case target != nil:
		target.req.Notify(method, params)
	case peer != nil:
		peer.HandleNotification(method, params)
	}
}

func (c *streamConn) serve(peer Peer, msg jsonrpc.Message) {
	var out []byte
	if peer == nil {
		out = jsonrpc.AppendError(nil, msg.ID, &jsonrpc.Error{Code: jsonrpc.CodeMethodNotFound, Message: "Method not found"})
	} else {
		res, rerr := peer.HandleRequest(context.Background(), msg.Method, msg.Params)
		if rerr != nil {
			out = jsonrpc.AppendError(nil, msg.ID, rerr)
		} else {
			out = jsonrpc.AppendResult(nil, msg.ID, res)
		}
	}
	ctx, cancel := detached(context.Background())
	defer cancel()
	_ = c.write(ctx, out)
}

func clip(b []byte) string {
	const n = 200
	if len(b) > n {
		return fmt.Sprintf("%q…", b[:n])
	}
	return fmt.Sprintf("%q", b)
}
