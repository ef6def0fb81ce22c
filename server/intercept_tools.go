package server

import (
	"context"
	"encoding/json"

	"github.com/mcpgen/mcpgen/generated/mcp"
	"github.com/mcpgen/mcpgen/jsonrpc"
)

// ToolCall is one execution of a tool as a ToolMiddleware sees it.
type ToolCall struct {
	// Name is the tool's name.
	Name string
	// Arguments are the call's arguments as received (not yet validated;
	// nil when absent). A middleware may pass next other arguments: they
	// are validated against the tool's inputSchema as the client's are.
	Arguments json.RawMessage
}

// ToolHandler runs a tool. An error is answered as a tool function's
// error is (NewTool): a *jsonrpc.Error or an Ask's input request as such,
// any other error as a result with isError and the error's text.
type ToolHandler func(ctx context.Context, call *ToolCall) (*mcp.CallToolResult, error)

// ToolMiddleware wraps the execution of a tool: it runs after the tool was
// found and its scopes checked, around argument validation, the function
// and the outputSchema check, inline or inside a task (tasks extension).
// WrapTool wraps one tool; Options.ToolMiddleware wraps every registered
// tool. It sees a *mcp.CallToolResult (isError set for tool errors, such
// as invalid arguments) and may return another one.
type ToolMiddleware func(next ToolHandler) ToolHandler

// WrapTool returns t with its execution wrapped by mw, the first
// outermost; wrapping a wrapped tool puts the new middleware outside.
// Options.ToolMiddleware wraps every tool outside what WrapTool added.
func WrapTool(t Tool, mw ...ToolMiddleware) Tool {
	if t.t == nil || t.t.err != nil || len(mw) == 0 {
		return t
	}
	return Tool{t.t.wrapped(mw)}
}

// wrapped returns a copy of t whose run goes through mw.
func (t *toolImpl) wrapped(mw []ToolMiddleware) *toolImpl {
	inner := t.run
	type digestKey struct{}
	h := ToolHandler(func(ctx context.Context, call *ToolCall) (*mcp.CallToolResult, error) {
		d, _ := ctx.Value(digestKey{}).(argsSum)
		out, err := inner(ctx, middlewareArgs(ctx, call.Arguments, d.sum, d.ok), nil)
		if err != nil {
			return nil, err
		}
		if res, ok := asCallToolResult(out); ok {
			return res, nil
		}
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "Internal error: unexpected tool output"}
	})
	for i := len(mw) - 1; i >= 0; i-- {
		if mw[i] != nil {
			h = mw[i](h)
		}
	}
	w := *t
	w.readsArgs = false // the arguments are lent to the middleware first
	name := t.key
	w.run = func(ctx context.Context, args []byte, _ *toolText) (any, error) {
		disownArgs(ctx)
		if sum, ok := argsDigest(ctx, args); ok {
			ctx = context.WithValue(ctx, digestKey{}, argsSum{sum, true})
		}
		res, err := h(ctx, &ToolCall{Name: name, Arguments: args})
		switch {
		case err != nil && (isProtocolError(err) || ctx.Err() != nil):
			return nil, err
		case err != nil:
			return toolError(errorText(err)), nil
		case res == nil:
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "Internal error: tool middleware returned neither a result nor an error"}
		}
		return res, nil
	}
	return &w
}

// withToolMiddleware wraps every tool in Options.ToolMiddleware as it is
// registered.
func (s *Server) withToolMiddleware(tools []Tool) []Tool {
	if len(s.opts.ToolMiddleware) == 0 {
		return tools
	}
	out := make([]Tool, len(tools))
	for i, t := range tools {
		out[i] = WrapTool(t, s.opts.ToolMiddleware...)
	}
	return out
}

// argsSum is the digest argsDigest took of a wrapped tool's arguments.
type argsSum struct {
	sum uint64
	ok  bool
}
