package server

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/jsonrpc"
)

// handlerErrorData is what a handler may build by hand as its
// jsonrpc.Error's Data: not JSON (a newline inside), or JSON that is not
// UTF-8.
var handlerErrorData = map[string]json.RawMessage{
	"not JSON":     json.RawMessage("{\"detail\":\n"),
	"not UTF-8":    notUTF8,
	"not one JSON": json.RawMessage(`1 2`),
}

func errorDataServer(t *testing.T, data json.RawMessage, interceptors ...Interceptor) *Server {
	return rawOutputServer(t, Options{Interceptors: interceptors, Tools: []Tool{
		NewTool(ToolInfo{Name: "errdata"}, func(context.Context, struct{}) (string, error) {
			return "", &jsonrpc.Error{Code: -32000, Message: "failed", Data: data}
		}),
	}})
}

// jsonrpc.Error: "handlers can return it directly; the runtime sends it
// back unchanged" — when its Data is JSON. A Data that is not JSON was
// written verbatim, newline included: on stdio two lines, neither a
// message (stdio.mdx: messages "MUST NOT contain embedded newlines"; "The
// server MUST NOT write anything to its stdout that is not a valid MCP
// message"). The handler produced an invalid answer: -32603 naming its
// error, on stdio and on HTTP, the data left out.
func TestHandlerErrorDataNotJSONIsInternalError(t *testing.T) {
	for name, data := range handlerErrorData {
		t.Run(name+"/stdio", func(t *testing.T) {
			s := errorDataServer(t, data)
			in := strings.NewReader(rawOutputRequest("tools/call", `"name":"errdata","arguments":{}`) + "\n")
			var out bytes.Buffer
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			if err := s.ServeStdio(ctx, in, &out); err != nil && err != io.EOF {
				t.Logf("ServeStdio: %v", err)
			}
			lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
			if len(lines) != 1 {
				t.Fatalf("one request, %d output lines (want 1 message): %q", len(lines), out.String())
			}
			msg := checkOutgoing(t, []byte(lines[0]), "")
			wantInternalError(t, msg, []byte(lines[0]))
			if !strings.Contains(msg.Error.Message, `-32000 "failed"`) {
				t.Errorf("the -32603 does not name the handler's error: %s", lines[0])
			}
		})
		t.Run(name+"/http", func(t *testing.T) {
			srv := httptest.NewServer(errorDataServer(t, data).HTTPHandler(HTTPOptions{}))
			defer srv.Close()
			req, _ := http.NewRequest(http.MethodPost, srv.URL, strings.NewReader(rawOutputRequest("tools/call", `"name":"errdata","arguments":{}`)))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
			req.Header.Set("MCP-Protocol-Version", "2026-07-28")
			req.Header.Set("Mcp-Method", "tools/call")
			req.Header.Set("Mcp-Name", "errdata")
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			body, _ := io.ReadAll(resp.Body)
			msg := checkOutgoing(t, bytes.TrimSpace(body), "")
			wantInternalError(t, msg, body)
			if !strings.Contains(msg.Error.Message, `-32000 "failed"`) {
				t.Errorf("the -32603 does not name the handler's error: %s", body)
			}
		})
	}
}

// The same for an error an interceptor returns in place of the handler's,
// and for a result an interceptor returns in place of the core's: what an
// interceptor returns is sent as raw JSON, so it must be JSON in UTF-8.
func TestInterceptorOutputNotJSONIsInternalError(t *testing.T) {
	replace := func(result json.RawMessage, err error) Interceptor {
		return func(next Handler) Handler {
			return func(ctx context.Context, req *Request) (json.RawMessage, error) {
				if _, nerr := next(ctx, req); nerr != nil && err == nil {
					return nil, nerr
				}
				return result, err
			}
		}
	}
	for name, data := range handlerErrorData {
		for what, ic := range map[string]Interceptor{
			"error":  replace(nil, &jsonrpc.Error{Code: -32000, Message: "failed", Data: data}),
			"result": replace(data, nil),
		} {
			t.Run(what+" "+name, func(t *testing.T) {
				s := rawOutputServer(t, Options{Interceptors: []Interceptor{ic}, Tools: []Tool{
					NewTool(ToolInfo{Name: "ok"}, func(context.Context, struct{}) (string, error) { return "fine", nil }),
				}})
				body := s.HandleBytes(context.Background(), []byte(rawOutputRequest("tools/call", `"name":"ok","arguments":{}`)), nil).Body
				wantInternalError(t, checkOutgoing(t, body, ""), body)
			})
		}
	}
	// The core's own result passes through an interceptor unchecked.
	s := rawOutputServer(t, Options{Interceptors: []Interceptor{func(next Handler) Handler { return next }}, Tools: []Tool{
		NewTool(ToolInfo{Name: "ok"}, func(context.Context, struct{}) (string, error) { return "fine", nil }),
	}})
	body := s.HandleBytes(context.Background(), []byte(rawOutputRequest("tools/call", `"name":"ok","arguments":{}`)), nil).Body
	if msg := checkOutgoing(t, body, "CallToolResult"); msg.Kind != jsonrpc.KindResponse {
		t.Fatalf("want the tool's result, got %s", body)
	}
}
