package server

import (
	"context"

	legacy "github.com/mcpgen/mcpgen/generated/mcp20251125"
	"github.com/mcpgen/mcpgen/jsonrpc"
)

// Legacy sessions on stdio: the connection's era is chosen by how the
// client opens (chooseEra, era.go). An initialize request without a usable
// modern _meta opens the connection's legacySession (one per connection,
// for the life of the connection); afterwards every message without one
// belongs to it, including the client's responses to the server's own
// requests. Requests that carry a usable modern _meta are served by their
// _meta's version on either kind of connection.

// stdioRequest is a request on its way to its era: parsed once, on the
// read loop before the request runs when its era may depend on the
// connection's session, else when it runs (handle).
type stdioRequest struct {
	msg jsonrpc.Message
	// early is the parse made on the read loop and the era it chose; nil
	// on the modern path, where handle parses msg into a parsedRequest on
	// its stack (512 bytes the stdioCall does not carry).
	early *stdioEarly
}

// stdioEarly is a request parsed on the read loop (eraOf) and its era
// (one allocation, one pointer in the stdioCall).
type stdioEarly struct {
	pr  parsedRequest
	era era
}

// eraOf parses msg and chooses its era when that must happen in message
// order: the connection has a legacy session, or msg is an initialize that
// may open one. It runs on the read loop, so a session opened by
// initialize exists before the next line is read.
func (c *stdioConn) eraOf(ctx context.Context, msg jsonrpc.Message, req *stdioRequest) {
	req.msg = msg
	if c.legacy == nil && msg.Method != legacy.MethodInitialize {
		return
	}
	e := &stdioEarly{pr: parseRequest(msg)}
	req.early = e
	e.era = c.s.eraFor(&e.pr, c.legacy, func() *legacySession {
		sess := c.s.newLegacySession(c.send)
		c.legacy = sess
		go func() {
			<-ctx.Done() // serveStdio cancels ctx when it returns
			sess.Close()
		}()
		return sess
	})
}

// legacyMessage passes a notification or a response to the connection's
// legacy session, if there is one.
func (c *stdioConn) legacyMessage(ctx context.Context, msg jsonrpc.Message) {
	if c.legacy != nil {
		c.legacy.Handle(ctx, msg, nil)
	}
}

// handle answers one request in its era.
func (c *stdioConn) handle(ctx context.Context, call *stdioCall) Response {
	req, w := &call.req, &call.w
	w.ctx = ctx
	if e := req.early; e != nil {
		return e.era.handleRequest(ctx, &e.pr, w)
	}
	// No session when it was read.
	pr := parseRequest(req.msg)
	if c.s.chooseEra(&pr, false) == eraModern {
		return c.s.handleRequest(ctx, &pr, w) // a static call: pr stays on the stack
	}
	lp := pr
	return c.s.eraFor(&lp, nil, nil).handleRequest(ctx, &lp, w)
}

// sendRaw sends a server-to-client request of a legacy session on the
// connection (rawSender).
func (w *stdioWriter) sendRaw(msg []byte) error {
	if err := w.ctx.Err(); err != nil {
		return err
	}
	return w.c.o.sendFor(w.ctx, msg)
}
