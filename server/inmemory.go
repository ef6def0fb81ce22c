package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync/atomic"

	"github.com/mcpgen/mcpgen/generated/mcp"
	"github.com/mcpgen/mcpgen/internal/reqmeta"
	"github.com/mcpgen/mcpgen/jsonrpc"
)

// CallerOptions set the _meta an in-memory caller sends.
type CallerOptions struct {
	ClientInfo         mcp.Implementation
	ClientCapabilities mcp.ClientCapabilities
	LogLevel           mcp.LoggingLevel
	// ProtocolVersion defaults to the newest supported version.
	ProtocolVersion string
	// Notify, when set, receives the notifications sent while a call runs
	// (progress, log messages, a listen stream's notifications).
	Notify func(method string, params json.RawMessage)
}

// Caller returns an in-memory mcp.Caller for mcp.NewClient: each call goes
// through Handle with the modern _meta filled in, as tests and Go hosts use it.
// With an initialize-era ProtocolVersion each call is served in that era
// (results converted to that revision; an initialize is negotiated), as
// Handle serves it; an unsupported one gets -32022, whose data.supported
// lists the versions a new Caller may use.
// Values the params' own _meta sets (a progressToken, a logLevel, non-empty
// clientCapabilities) win over the options. A JSON-RPC error comes back as a
// *jsonrpc.Error.
func (s *Server) Caller(opts CallerOptions) mcp.Caller {
	if opts.ProtocolVersion == "" {
		opts.ProtocolVersion = s.versions[0]
	}
	return &caller{s: s, opts: opts}
}

type caller struct {
	s    *Server
	opts CallerOptions
	seq  atomic.Int64
}

type callerWriter struct{ fn func(string, json.RawMessage) }

func (w callerWriter) Notify(method string, params any) error {
	if w.fn == nil {
		return nil
	}
	raw, err := notifyParams(params)
	if err != nil {
		return err
	}
	w.fn(method, append(json.RawMessage(nil), raw...))
	return nil
}

func (c *caller) Call(ctx context.Context, method string, params any) (json.RawMessage, error) {
	raw, err := c.params(params)
	if err != nil {
		return nil, err
	}
	msg := jsonrpc.Message{Kind: jsonrpc.KindRequest, ID: jsonrpc.IntID(c.seq.Add(1)), Method: method, Params: raw}
	resp := c.s.Handle(ctx, msg, callerWriter{c.opts.Notify})
	if resp.Body == nil {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		return nil, errors.New("server: no response")
	}
	out, derr := jsonrpc.Decode(resp.Body)
	if derr != nil {
		return nil, derr
	}
	if out.Kind == jsonrpc.KindErrorResponse {
		return nil, out.Error
	}
	return out.Result, nil
}

// params encodes params and fills in the request _meta (internal/reqmeta,
// shared with the client package).
func (c *caller) params(params any) ([]byte, error) {
	members, err := reqmeta.Params(params)
	if err != nil {
		return nil, errors.New("server: params must encode as a JSON object")
	}
	meta := map[string]json.RawMessage{}
	if m, ok := members["_meta"]; ok && string(m) != "null" {
		if meta, err = reqmeta.Split(m); err != nil {
			return nil, fmt.Errorf("server: params _meta: %w", err)
		}
	}
	d := reqmeta.Defaults{}
	if d.ProtocolVersion, err = json.Marshal(c.opts.ProtocolVersion); err != nil {
		return nil, err
	}
	if d.ClientCapabilities, err = json.Marshal(c.opts.ClientCapabilities); err != nil {
		return nil, err
	}
	if c.opts.ClientInfo.Name != "" {
		if d.ClientInfo, err = json.Marshal(c.opts.ClientInfo); err != nil {
			return nil, err
		}
	}
	if c.opts.LogLevel != "" {
		if d.LogLevel, err = json.Marshal(c.opts.LogLevel); err != nil {
			return nil, err
		}
	}
	reqmeta.Fill(meta, d)
	members["_meta"] = reqmeta.Join(meta)
	return reqmeta.Join(members), nil
}
