package server

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"runtime/debug"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/mcpgen/mcpgen/generated/mcp"
	"github.com/mcpgen/mcpgen/internal/jsonscan"
	"github.com/mcpgen/mcpgen/jsonrpc"
)

// checkOutgoing holds one response to what the spec requires of every
// message (basic/transports/index.mdx: "JSON-RPC messages MUST be UTF-8
// encoded"; stdio.mdx: no embedded newlines, nothing on stdout "that is
// not a valid MCP message") and to what the product's own readers accept:
// jsonrpc.Decode, the jsonscan parse (a name repeated at any depth is
// refused), and the generated decoder of the result's definition. It
// returns the decoded message.
func checkOutgoing(t *testing.T, body []byte, resultDef string) jsonrpc.Message {
	t.Helper()
	switch {
	case !utf8.Valid(body):
		t.Fatalf("response is not UTF-8: %q", body)
	case !json.Valid(body):
		t.Fatalf("response is not JSON: %q", body)
	case bytes.ContainsAny(body, "\r\n"):
		t.Fatalf("response holds a newline: %q", body)
	}
	msg, err := jsonrpc.Decode(body)
	if err != nil {
		t.Fatalf("jsonrpc.Decode refuses the response: %v\n%s", err, body)
	}
	if tape, serr := jsonscan.ParseTape(body, jsonscan.MaxNesting); serr != nil {
		t.Fatalf("the runtime's parser refuses the response: %v\n%s", serr, body)
	} else {
		tape.Release()
	}
	if msg.Kind == jsonrpc.KindResponse && resultDef != "" {
		if _, err := mcp.DecodeNamed(resultDef, msg.Result); err != nil {
			t.Fatalf("the result is not a valid %s (generated decoder: %v)\n%s", resultDef, err, body)
		}
	}
	return msg
}

// wantInternalError fails t unless msg is a -32603 error response.
func wantInternalError(t *testing.T, msg jsonrpc.Message, body []byte) {
	t.Helper()
	if msg.Kind != jsonrpc.KindErrorResponse || msg.Error.Code != jsonrpc.CodeInternalError {
		t.Fatalf("want a -32603 error, got %s", body)
	}
}

const rawOutputMeta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/logLevel":"debug"}`

func rawOutputServer(t *testing.T, opts Options) *Server {
	t.Helper()
	opts.Name, opts.Version = "t", "1"
	opts.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	s, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func rawOutputRequest(method, params string) string {
	return `{"jsonrpc":"2.0","id":1,"method":"` + method + `","params":{` + rawOutputMeta + `,` + params + `}}`
}

// rawCityOut is a tool result type with a raw JSON field.
type rawCityOut struct {
	City json.RawMessage `json:"city"`
}

// notUTF8 is raw JSON holding a byte that is not UTF-8.
var notUTF8 = json.RawMessage("\"Z\xfcrich\"")

// Raw JSON a handler supplies that is not UTF-8 — a json.RawMessage as
// structuredContent, as a field of a typed result with an outputSchema, in
// a resource's or prompt's _meta — is refused with -32603, never sent byte
// for byte (a message the spec forbids and jsonrpc.Decode refuses) nor
// repaired in one place and not in another (the text block said "Z\ufffdrich"
// while structuredContent kept the byte).
func TestRawJSONNotUTF8IsRefused(t *testing.T) {
	s := rawOutputServer(t, Options{
		Tools: []Tool{
			NewTool(ToolInfo{Name: "raw"}, func(context.Context, struct{}) (*mcp.CallToolResult, error) {
				return &mcp.CallToolResult{Content: []mcp.ContentBlock{}, StructuredContent: json.RawMessage("{\"city\":\"Z\xfcrich\"}")}, nil
			}),
			NewTool(ToolInfo{Name: "typed", OutputSchema: json.RawMessage(`{"type":"object"}`)}, func(context.Context, struct{}) (rawCityOut, error) {
				return rawCityOut{City: notUTF8}, nil
			}),
		},
		Resources: []Resource{NewResource(ResourceInfo{URI: "file:///r", Name: "r"}, func(context.Context) (*mcp.ReadResourceResult, error) {
			return &mcp.ReadResourceResult{Contents: []mcp.ResourceContentsUnion{&mcp.TextResourceContents{URI: "file:///r", Text: "t",
				Meta: mcp.MetaObject{Extra: map[string]json.RawMessage{"x/city": notUTF8}}}}}, nil
		})},
		Prompts: []Prompt{NewPrompt(PromptInfo{Name: "p"}, func(context.Context, struct{}) (*mcp.GetPromptResult, error) {
			return &mcp.GetPromptResult{Messages: []mcp.PromptMessage{{Role: "user", Content: &mcp.TextContent{Text: "hi"}}},
				Meta: mcp.ResultMetaObject{Extra: map[string]json.RawMessage{"x/city": notUTF8}}}, nil
		})},
	})
	for name, msg := range map[string]string{
		"tools/call raw":   rawOutputRequest("tools/call", `"name":"raw","arguments":{}`),
		"tools/call typed": rawOutputRequest("tools/call", `"name":"typed","arguments":{}`),
		"resources/read":   rawOutputRequest("resources/read", `"uri":"file:///r"`),
		"prompts/get":      rawOutputRequest("prompts/get", `"name":"p"`),
	} {
		t.Run(name, func(t *testing.T) {
			body := s.HandleBytes(context.Background(), []byte(msg), nil).Body
			wantInternalError(t, checkOutgoing(t, body, ""), body)
		})
	}
}

// A log message whose data is raw JSON that is not UTF-8 is not sent (the
// server logs that it could not encode it); the request is answered.
func TestLogDataNotUTF8IsNotSent(t *testing.T) {
	s := rawOutputServer(t, Options{Tools: []Tool{
		NewTool(ToolInfo{Name: "logs"}, func(ctx context.Context, _ struct{}) (string, error) {
			Log(ctx, "info", "t", notUTF8)
			return "done", nil
		}),
	}})
	rec := newRecorder()
	body := s.HandleBytes(context.Background(), []byte(rawOutputRequest("tools/call", `"name":"logs","arguments":{}`)), rec).Body
	checkOutgoing(t, body, "CallToolResult")
	for _, n := range rec.all() {
		if !utf8.Valid(n.Params) {
			t.Errorf("notification %s sent with params that are not UTF-8: %q", n.Method, n.Params)
		}
	}
}

// Like TestRawJSONNotUTF8IsRefused, for raw JSON and maps a handler returns
// that are written with a member name repeated: checkOutgoing holds the
// response to the product's own readers (its doc: "the jsonscan parse (a
// name repeated at any depth is refused), and the generated decoder");
// README: the generated encoders refuse what their decoders refuse, and a
// map key that is not UTF-8 because "two such names would be written as one
// name twice". The response must be -32603 (or at least readable), not a
// message the server's own client refuses.
func TestResultNamingAMemberTwiceIsNotSent(t *testing.T) {
	dup := json.RawMessage(`{"a":1,"a":2}`)
	s := rawOutputServer(t, Options{
		Tools: []Tool{
			NewTool(ToolInfo{Name: "raw"}, func(context.Context, struct{}) (*mcp.CallToolResult, error) {
				return &mcp.CallToolResult{Content: []mcp.ContentBlock{}, StructuredContent: dup}, nil
			}),
			NewTool(ToolInfo{Name: "intkeys"}, func(context.Context, struct{}) (*mcp.CallToolResult, error) {
				return &mcp.CallToolResult{Content: []mcp.ContentBlock{},
					StructuredContent: map[string]any{"m": map[int]any{1: map[string]any{"\xff": 1, "\xfe": 2}}}}, nil
			}),
		},
		Resources: []Resource{NewResource(ResourceInfo{URI: "file:///r", Name: "r"}, func(context.Context) (*mcp.ReadResourceResult, error) {
			return &mcp.ReadResourceResult{Contents: []mcp.ResourceContentsUnion{&mcp.TextResourceContents{URI: "file:///r", Text: "t",
				Meta: mcp.MetaObject{Extra: map[string]json.RawMessage{"x/k": dup}}}}}, nil
		})},
	})
	for name, msg := range map[string]string{
		"tools/call raw structuredContent":   rawOutputRequest("tools/call", `"name":"raw","arguments":{}`),
		"tools/call non-UTF-8 keys one down": rawOutputRequest("tools/call", `"name":"intkeys","arguments":{}`),
		"resources/read _meta":               rawOutputRequest("resources/read", `"uri":"file:///r"`),
	} {
		t.Run(name, func(t *testing.T) {
			body := s.HandleBytes(context.Background(), []byte(msg), nil).Body
			checkOutgoing(t, body, "")
		})
	}
}

// README: the generated encoders refuse "a value that contains itself
// (encoding/json's cycle error ...)" and the runtime answers -32603. A tool
// result that contains itself through a map with int keys is not found as
// a cycle: the whole server process dies of a stack overflow (run in a
// child process here).
func TestCyclicResultIsInternalErrorNotCrash(t *testing.T) {
	if os.Getenv("MCPGEN_CYCLIC_RESULT_CHILD") == "1" {
		debug.SetMaxStack(64 << 20)
		s := rawOutputServer(t, Options{Tools: []Tool{
			NewTool(ToolInfo{Name: "cyclic"}, func(context.Context, struct{}) (*mcp.CallToolResult, error) {
				res := &mcp.CallToolResult{Content: []mcp.ContentBlock{}}
				res.StructuredContent = map[int]any{1: res}
				return res, nil
			}),
		}})
		body := s.HandleBytes(context.Background(), []byte(rawOutputRequest("tools/call", `"name":"cyclic","arguments":{}`)), nil).Body
		os.Stdout.WriteString("BODY: " + string(body) + "\n")
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestCyclicResultIsInternalErrorNotCrash$", "-test.count=1")
	cmd.Env = append(os.Environ(), "MCPGEN_CYCLIC_RESULT_CHILD=1")
	out, err := cmd.CombinedOutput()
	s := string(out)
	if err != nil || !strings.Contains(s, `BODY: {"jsonrpc":"2.0","id":1,"error":{"code":-32603`) {
		if len(s) > 400 {
			s = s[:400]
		}
		t.Fatalf("a tool result containing itself through map[int]any: want a -32603 answer; the server process ended with %v:\n%s", err, s)
	}
}
