package server

import (
	"context"

	legacy "github.com/mcpgen/mcpgen/generated/mcp20251125"
	"github.com/mcpgen/mcpgen/jsonrpc"
)

// Legacy sessions on stdio: the connection's era is chosen by how the
// client opens. An initialize request without the modern _meta opens the
// connection's LegacySession (one per connection, for the life of the
// connection); afterwards every message without the modern _meta belongs to
// it, including the client's responses to the server's own requests.
// Requests that carry the modern _meta are served statelessly on either
// kind of connection.

// legacyFor returns the session that serves the request msg, nil when the
// core serves it. It runs on the read loop, so a session opened by
// initialize exists before the next line is read.
func (c *stdioConn) legacyFor(ctx context.Context, msg jsonrpc.Message) *LegacySession {
	if c.legacy == nil && msg.Method != legacy.MethodInitialize {
		return nil // the modern hot path: no params scan
	}
	if pr := parseRequest(msg); pr.metaUsable() {
		return nil
	}
	if c.legacy == nil {
		sess := c.s.NewLegacySession(c.send)
		c.legacy = sess
		go func() {
			<-ctx.Done() // serveStdio cancels ctx when it returns
			sess.Close()
		}()
	}
	return c.legacy
}

// legacyMessage passes a notification or a response to the connection's
// legacy session, if there is one.
func (c *stdioConn) legacyMessage(ctx context.Context, msg jsonrpc.Message) {
	if c.legacy != nil {
		c.legacy.Handle(ctx, msg, nil)
	}
}

// handle answers one request in its era.
func (c *stdioConn) handle(ctx context.Context, msg jsonrpc.Message, sess *LegacySession) Response {
	w := &stdioWriter{c: c, ctx: ctx}
	if sess != nil {
		return sess.Handle(ctx, msg, w)
	}
	return c.s.Handle(ctx, msg, w)
}

// sendRaw sends a server-to-client request of a legacy session on the
// connection (rawSender).
func (w *stdioWriter) sendRaw(msg []byte) error {
	if err := w.ctx.Err(); err != nil {
		return err
	}
	return w.c.send(msg)
}
