package server

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/generated/mcp"
	"github.com/mcpgen/mcpgen/jsonrpc"
)

// A nil *jsonrpc.Error returned as a non-nil error (the Go typed-nil
// gotcha: `var rerr *jsonrpc.Error; …; return out, rerr`) makes toRPCError
// call ValidData on a nil pointer. It runs after the recovery of the
// handler (serveParsed, after s.call) and after the interceptor chain's
// (runChain), so the nil dereference panics on the stdio read loop or the
// HTTP handler worker and kills the server process. README "How a
// request flows"/Interceptor doc: "A *jsonrpc.Error is sent as it is; any
// other error is -32603 with its text"; "Middleware and observability":
// handlers and the interceptor chain are recovered and "the server keeps
// serving". Either a result or -32603 answers the request; a dead process
// answers nothing, to any client.

// childStdioCall serves opts on stdio in the child, sends one tools/call
// and a tools/list after it, and reports their error codes.
func childStdioCall(t *testing.T, opts Options) {
	opts.Name, opts.Version = "tn", "1"
	opts.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	s, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	f := startFaultStdio(t, s, 0)
	f.send(faultCall("1", "tn", `{}`, defaultMeta))
	a := f.reply()
	f.send(`{"jsonrpc":"2.0","id":2,"method":"tools/list","params":` + withMeta(`{}`, defaultMeta) + `}`)
	b := f.reply()
	os.Stdout.WriteString("CHILD-OUTPUT call=" + idOf(a) + "/" + strconv.Itoa(errorCode(a)) + " list=" + idOf(b) + "\n")
}

func typedNilTool() Tool {
	return NewTool(ToolInfo{Name: "tn"}, func(ctx context.Context, in json.RawMessage) (string, error) {
		var rerr *jsonrpc.Error // set only on failure
		return "ok", rerr
	})
}

func okTool() Tool {
	return NewTool(ToolInfo{Name: "tn"}, func(ctx context.Context, in json.RawMessage) (string, error) { return "ok", nil })
}

func checkChildServes(t *testing.T, name string) {
	out := runChildScenario(t, name)
	if !strings.Contains(out, "call=1/") || !strings.Contains(out, "list=2") {
		t.Fatalf("%s: want id 1 answered and the server serving id 2", out)
	}
}

func TestTypedNilErrorFromToolIsInternalError(t *testing.T) {
	if os.Getenv("MCPGEN_CHILD_SCENARIO") == "1" {
		childStdioCall(t, Options{Tools: []Tool{typedNilTool()}})
		return
	}
	checkChildServes(t, "TestTypedNilErrorFromToolIsInternalError")
}

func TestTypedNilErrorFromInterceptorIsInternalError(t *testing.T) {
	if os.Getenv("MCPGEN_CHILD_SCENARIO") == "1" {
		refuse := func(next Handler) Handler {
			return func(ctx context.Context, req *Request) (json.RawMessage, error) {
				var deny *jsonrpc.Error // set only when the request is refused
				if req.Method == "tools/call" {
					return nil, deny
				}
				return next(ctx, req)
			}
		}
		childStdioCall(t, Options{Tools: []Tool{okTool()}, Interceptors: []Interceptor{refuse}})
		return
	}
	checkChildServes(t, "TestTypedNilErrorFromInterceptorIsInternalError")
}

func TestTypedNilErrorFromToolMiddlewareIsInternalError(t *testing.T) {
	if os.Getenv("MCPGEN_CHILD_SCENARIO") == "1" {
		mw := func(next ToolHandler) ToolHandler {
			return func(ctx context.Context, call *ToolCall) (*mcp.CallToolResult, error) {
				res, _ := next(ctx, call)
				var rerr *jsonrpc.Error
				return res, rerr
			}
		}
		childStdioCall(t, Options{Tools: []Tool{okTool()}, ToolMiddleware: []ToolMiddleware{mw}})
		return
	}
	checkChildServes(t, "TestTypedNilErrorFromToolMiddlewareIsInternalError")
}
