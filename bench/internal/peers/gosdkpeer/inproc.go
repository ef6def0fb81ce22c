package gosdkpeer

import (
	"context"
	"errors"
	"io"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// InProcess is go-sdk's in-memory path: a ServerSession connected to a raw
// Connection that decodes request bytes with jsonrpc.DecodeMessage and encodes
// replies with jsonrpc.EncodeMessage (what the stdio transport does, minus
// the pipe). go-sdk v1.8.0 exports no synchronous handler, so each call
// crosses the session's read loop and handler goroutines.
type InProcess struct{}

// Name describes the path.
func (InProcess) Name() string { return "go-sdk ServerSession over raw Connection" }

// Setup connects a fresh server to a raw connection.
func (InProcess) Setup() (func([]byte) ([]byte, error), func(), error) {
	s, err := New()
	if err != nil {
		return nil, nil, err
	}
	conn := &rawConn{in: make(chan []byte), out: make(chan []byte, 1), closed: make(chan struct{})}
	ss, err := s.Connect(context.Background(), rawTransport{conn}, nil)
	if err != nil {
		return nil, nil, err
	}
	call := func(req []byte) ([]byte, error) {
		select {
		case conn.in <- req:
		case <-conn.closed:
			return nil, io.ErrClosedPipe
		}
		select {
		case resp := <-conn.out:
			return resp, nil
		case <-conn.closed:
			return nil, io.ErrClosedPipe
		case <-time.After(10 * time.Second):
			return nil, errors.New("go-sdk: no reply within 10s")
		}
	}
	return call, func() { _ = ss.Close() }, nil
}

type rawTransport struct{ c *rawConn }

func (t rawTransport) Connect(context.Context) (mcp.Connection, error) { return t.c, nil }

// rawConn is an mcp.Connection fed with raw bytes by the benchmark.
type rawConn struct {
	in        chan []byte
	out       chan []byte
	closed    chan struct{}
	closeOnce sync.Once
}

func (c *rawConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	select {
	case b := <-c.in:
		return jsonrpc.DecodeMessage(b)
	case <-c.closed:
		return nil, io.EOF
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

func (c *rawConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	b, err := jsonrpc.EncodeMessage(msg)
	if err != nil {
		return err
	}
	select {
	case c.out <- b:
		return nil
	case <-c.closed:
		return io.ErrClosedPipe
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (c *rawConn) Close() error {
	c.closeOnce.Do(func() { close(c.closed) })
	return nil
}

func (c *rawConn) SessionID() string { return "" }

// Start builds the server with tools tools (the start-up rows).
func (InProcess) Start(tools int) error {
	_, err := NewWithTools(tools)
	return err
}
