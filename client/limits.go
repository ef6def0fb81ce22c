package client

import (
	"context"
	"fmt"
	"io"

	"github.com/mcpgen/mcpgen/jsonrpc"
)

// Bounds on what a server can make the client hold.
const (
	// maxServing bounds the server-to-client requests (elicitation,
	// sampling, roots, ping) a connection serves at once. On stdio and
	// HTTP+SSE the next one is answered with errTooManyServerRequests; on
	// a Streamable HTTP stream it is dropped unanswered.
	maxServing = 64
)

var errTooManyServerRequests = &jsonrpc.Error{Code: jsonrpc.CodeInternalError,
	Message: fmt.Sprintf("the client is already serving %d requests of the server", maxServing)}

// lineWriter writes the lines of a stream connection one at a time from
// its own goroutine, so a writer that blocks (a server that stopped
// reading its input, a full pipe) holds no caller past its context. A
// line the context gave up on before its turn is not written; one already
// handed to the writer is written whole, so the framing stays intact.
type lineWriter struct {
	w     io.Writer
	queue chan queuedLine
	quit  chan struct{}
}

type queuedLine struct {
	b    []byte
	done chan error
}

func newLineWriter(w io.Writer) *lineWriter {
	lw := &lineWriter{w: w, queue: make(chan queuedLine), quit: make(chan struct{})}
	go lw.run()
	return lw
}

func (lw *lineWriter) run() {
	for {
		select {
		case q := <-lw.queue:
			_, err := lw.w.Write(q.b)
			q.done <- err
		case <-lw.quit:
			return
		}
	}
}

// write writes msg and a newline, waiting no longer than ctx.
func (lw *lineWriter) write(ctx context.Context, msg []byte) error {
	q := queuedLine{b: append(msg, '\n'), done: make(chan error, 1)}
	select {
	case lw.queue <- q:
	case <-lw.quit:
		return io.ErrClosedPipe
	case <-ctx.Done():
		return context.Cause(ctx)
	}
	select {
	case err := <-q.done:
		return err
	case <-ctx.Done():
		return context.Cause(ctx)
	}
}

// stop ends the writer goroutine once it is not writing (a write under way
// ends when the writer is closed).
func (lw *lineWriter) stop() { close(lw.quit) }
