package server

import (
	"bytes"
	"context"
	"encoding/json"
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

// checkReadableResponse holds one response to what the spec requires of
// every message (UTF-8, JSON, no embedded newline) and to what the
// product's own readers accept: jsonrpc.Decode, the jsonscan parse (a name
// repeated at any depth is refused, as the Go client refuses "results with
// a repeated member"), and the generated decoder of the result's
// definition. An error response is fine: the runtime answers encoding
// failures with -32603.
func checkReadableResponse(t *testing.T, body []byte, resultDef string) {
	t.Helper()
	switch {
	case !utf8.Valid(body):
		t.Errorf("response is not UTF-8: %q", body)
		return
	case !json.Valid(body):
		t.Errorf("response is not JSON: %q", body)
		return
	case bytes.ContainsAny(body, "\r\n"):
		t.Errorf("response holds a newline: %q", body)
		return
	}
	msg, err := jsonrpc.Decode(body)
	if err != nil {
		t.Errorf("jsonrpc.Decode refuses the response: %v\n%s", err, body)
		return
	}
	if _, serr := jsonscan.ParseTape(body, 10000); serr != nil {
		t.Errorf("the runtime's parser refuses the response: %v\n%s", serr, body)
		return
	}
	if msg.Kind == jsonrpc.KindResponse && resultDef != "" {
		if _, err := mcp.DecodeNamed(resultDef, msg.Result); err != nil {
			t.Errorf("the result is not a valid %s (generated decoder: %v)\n%s", resultDef, err, body)
		}
	}
}

// isInternalError reports whether a response is a -32603 error.
func isInternalError(body []byte) bool {
	msg, err := jsonrpc.Decode(body)
	return err == nil && msg.Error != nil && msg.Error.Code == jsonrpc.CodeInternalError
}

func encodingTestServer(t *testing.T, opts Options) *Server {
	t.Helper()
	opts.Name, opts.Version = "t", "1"
	s, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func callToolForBody(s *Server, name string) []byte {
	msg := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{` + testMeta + `,"name":"` + name + `","arguments":{}}}`
	return s.HandleBytes(context.Background(), []byte(msg), nil).Body
}

// NewTool: "Out may be ... *mcp.CallToolResult". A result whose content
// holds a nil (or typed-nil) block would be sent as "content":[null],
// which no client can read (ContentBlock items are objects): the generated
// encoder refuses it, so the answer is -32603.
func TestToolResultNilContentBlockIsInternalError(t *testing.T) {
	s := encodingTestServer(t, Options{Tools: []Tool{
		NewTool(ToolInfo{Name: "nilblock"}, func(context.Context, struct{}) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.ContentBlock{nil}}, nil
		}),
		NewTool(ToolInfo{Name: "typednil"}, func(context.Context, struct{}) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.ContentBlock{(*mcp.ImageContent)(nil)}}, nil
		}),
	}})
	for _, name := range []string{"nilblock", "typednil"} {
		t.Run(name, func(t *testing.T) {
			body := callToolForBody(s, name)
			checkReadableResponse(t, body, "CallToolResult")
			if !isInternalError(body) {
				t.Errorf("want a -32603 answer, got %s", body)
			}
		})
	}
}

// The same for resources/read (NewResource: Out may be
// *mcp.ReadResourceResult) and prompts/get (Out may be
// *mcp.GetPromptResult): "contents":[null] and "content":null are not sent.
func TestReadAndPromptNilUnionIsInternalError(t *testing.T) {
	s := encodingTestServer(t, Options{
		Resources: []Resource{NewResource(ResourceInfo{URI: "file:///r", Name: "r"}, func(context.Context) (*mcp.ReadResourceResult, error) {
			return &mcp.ReadResourceResult{Contents: []mcp.ResourceContentsUnion{nil}}, nil
		})},
		Prompts: []Prompt{NewPrompt(PromptInfo{Name: "p"}, func(context.Context, struct{}) (*mcp.GetPromptResult, error) {
			return &mcp.GetPromptResult{Messages: []mcp.PromptMessage{{Role: "user"}}}, nil
		})},
	})
	for _, c := range []struct{ name, msg, def string }{
		{"resources/read", `{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{` + testMeta + `,"uri":"file:///r"}}`, "ReadResourceResult"},
		{"prompts/get", `{"jsonrpc":"2.0","id":1,"method":"prompts/get","params":{` + testMeta + `,"name":"p"}}`, "GetPromptResult"},
	} {
		t.Run(c.name, func(t *testing.T) {
			body := s.HandleBytes(context.Background(), []byte(c.msg), nil).Body
			checkReadableResponse(t, body, c.def)
			if !isInternalError(body) {
				t.Errorf("want a -32603 answer, got %s", body)
			}
		})
	}
}

// Extra members whose names differ only in invalid UTF-8 would be written
// as one name twice ("x-\ufffd"): the encoder refuses such a name, so the
// answer is -32603, not a result with a repeated member.
func TestToolResultExtraNameNotUTF8IsInternalError(t *testing.T) {
	s := encodingTestServer(t, Options{Tools: []Tool{
		NewTool(ToolInfo{Name: "extra"}, func(context.Context, struct{}) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.ContentBlock{},
				Extra: map[string]json.RawMessage{"x-\xff": json.RawMessage(`1`), "x-\xfe": json.RawMessage(`2`)}}, nil
		}),
	}})
	body := callToolForBody(s, "extra")
	checkReadableResponse(t, body, "CallToolResult")
	if !isInternalError(body) {
		t.Errorf("want a -32603 answer, got %s", body)
	}
}

// A tool whose *mcp.CallToolResult holds a value that contains itself
// (structuredContent a map holding itself) gets an error answer, as
// encoding/json refuses a cycle, instead of a stack overflow that no
// recover catches and that kills the whole server process. Run in a child
// process with a 64 MiB stack limit so that a regression fails fast.
func TestToolResultCycleIsInternalError(t *testing.T) {
	if os.Getenv("MCPGEN_SERVER_CYCLE_CHILD") == "1" {
		debug.SetMaxStack(64 << 20)
		s := encodingTestServer(t, Options{Tools: []Tool{
			NewTool(ToolInfo{Name: "cycle"}, func(context.Context, struct{}) (*mcp.CallToolResult, error) {
				m := map[string]any{}
				m["self"] = m
				return &mcp.CallToolResult{Content: []mcp.ContentBlock{}, StructuredContent: m}, nil
			}),
		}})
		body := callToolForBody(s, "cycle")
		if !isInternalError(body) || !bytes.Contains(body, []byte("encountered a cycle")) {
			os.Exit(3)
		}
		os.Exit(0)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestToolResultCycleIsInternalError$", "-test.count=1")
	cmd.Env = append(os.Environ(), "MCPGEN_SERVER_CYCLE_CHILD=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		first, _, _ := strings.Cut(string(out), "\n")
		t.Fatalf("the server did not answer a tool result holding a cycle with -32603: child %v: %s", err, first)
	}
}
