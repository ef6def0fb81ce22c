package client

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/mcpgen/mcpgen/jsonrpc"
	"github.com/mcpgen/mcpgen/server"
)

// InMemoryTransport sends each request straight to a *server.Server's
// Handle in the same process: no framing, the same checks and handlers.
type InMemoryTransport struct {
	Server *server.Server
}

// InMemory returns a transport to s.
func InMemory(s *server.Server) *InMemoryTransport { return &InMemoryTransport{Server: s} }

type memWriter struct{ fn func(string, json.RawMessage) }

func (w memWriter) Notify(method string, params any) error {
	if w.fn == nil {
		return nil
	}
	raw, ok := params.(json.RawMessage)
	if !ok {
		var err error
		if raw, err = json.Marshal(params); err != nil {
			return err
		}
	}
	w.fn(method, raw)
	return nil
}

// RoundTrip implements Transport.
func (t *InMemoryTransport) RoundTrip(ctx context.Context, req *Request) (json.RawMessage, error) {
	msg := jsonrpc.Message{Kind: jsonrpc.KindRequest, ID: req.ID, Method: req.Method, Params: req.Params}
	resp := t.Server.Handle(ctx, msg, memWriter{req.Notify})
	if resp.Body == nil {
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("client: %s: %w", req.Method, context.Cause(ctx))
		}
		return nil, errors.New("client: the server gave no response")
	}
	out, derr := jsonrpc.Decode(resp.Body)
	if derr != nil {
		return nil, fmt.Errorf("client: the server's response is not valid JSON-RPC: %s", derr.Message)
	}
	if out.Kind == jsonrpc.KindErrorResponse {
		return nil, out.Error
	}
	return out.Result, nil
}

// Notify implements Transport; the server ignores notifications.
func (t *InMemoryTransport) Notify(ctx context.Context, req *Request) error {
	t.Server.Handle(ctx, jsonrpc.Message{Kind: jsonrpc.KindNotification, Method: req.Method, Params: req.Params}, memWriter{})
	return nil
}

// Close implements Transport.
func (t *InMemoryTransport) Close() error { return nil }
