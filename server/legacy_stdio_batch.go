package server

import (
	"context"

	"github.com/mcpgen/mcpgen/generated/mcp"
	"github.com/mcpgen/mcpgen/jsonrpc"
)

// dispatchBatch serves a JSON-RPC batch line of a connection whose legacy
// session negotiated batchVersion (legacy_batch.go), on the read loop l:
// notifications and responses at once, in order; the requests on a
// goroutine of their own, each through the server's limits (they take no
// slot of Limits.MaxInFlightPerConn: the loop reads on, so that the
// client's answers to their server-to-client requests are seen; the batch
// holds at most maxLegacyBatch of them); then the batch response, one
// line. While the server drains its requests are refused.
func (c *stdioConn) dispatchBatch(l *stdioLoop, line []byte) {
	elems, rerr := splitBatch(line)
	if rerr != nil {
		c.send(jsonrpc.AppendError(nil, jsonrpc.ID{}, rerr))
		return
	}
	b := readBatch(elems, func(msg jsonrpc.Message) {
		if msg.Kind == jsonrpc.KindNotification && msg.Method == mcp.MethodNotificationsCancelled {
			c.cancelled(msg.Params)
		}
		c.legacyMessage(l.ctx, msg)
	})
	if b.requests > 0 && c.draining {
		b.refuse(shuttingDownError())
	}
	if b.requests == 0 || c.draining {
		if body := b.response(); body != nil {
			c.send(body)
		}
		return
	}
	c.mu.Lock()
	if c.over {
		c.mu.Unlock()
		return
	}
	c.wg.Add(1)
	c.mu.Unlock()
	ctx, sess := l.reqs, c.legacy
	go func() {
		defer c.wg.Done()
		b.run(ctx, c.s, sess, &batchStdioWriter{c: c, ctx: ctx})
		if body := b.response(); body != nil {
			c.send(body)
		}
	}()
}

// batchStdioWriter is the MessageWriter of the requests of a stdio batch:
// their notifications and server-to-client requests go to the connection.
type batchStdioWriter struct {
	c   *stdioConn
	ctx context.Context
}

func (w *batchStdioWriter) Notify(method string, params any) error {
	if err := w.ctx.Err(); err != nil {
		return err
	}
	raw, err := notifyParams(params)
	if err != nil {
		return err
	}
	return w.c.o.sendFor(w.ctx, jsonrpc.AppendNotification(nil, method, raw))
}

// sendRaw sends a server-to-client request on the connection (rawSender).
func (w *batchStdioWriter) sendRaw(msg []byte) error { return w.c.o.sendFor(w.ctx, msg) }
