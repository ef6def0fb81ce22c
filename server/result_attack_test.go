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

const attackMeta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}`

// attackCheckResponse holds one response to what the spec requires of every
// message (basic/transports/index.mdx: "JSON-RPC messages MUST be UTF-8
// encoded"; stdio.mdx: no embedded newlines, nothing on stdout "that is
// not a valid MCP message") and to what the product's own readers accept:
// jsonrpc.Decode, the jsonscan parse (a name repeated at any depth is
// refused, as the Go client refuses "results with a repeated member"), and
// the generated decoder of the result's definition. An error response is
// fine: the runtime answers encoding failures with -32603.
func attackCheckResponse(t *testing.T, body []byte, resultDef string) {
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

func attackServer(t *testing.T, opts Options) *Server {
	t.Helper()
	opts.Name, opts.Version = "t", "1"
	s, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func attackCallTool(s *Server, name string) []byte {
	msg := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{` + attackMeta + `,"name":"` + name + `","arguments":{}}}`
	return s.HandleBytes(context.Background(), []byte(msg), nil).Body
}

// NewTool: "Out may be ... *mcp.CallToolResult". A result whose content
// holds a nil (or typed-nil) block is sent as "content":[null]: ContentBlock
// items are objects (schema), the generated decoder refuses it, so a client
// cannot read the response. Encoding problems are -32603 (result.go).
func TestAttackToolResultNilContentBlock(t *testing.T) {
	s := attackServer(t, Options{Tools: []Tool{
		NewTool(ToolInfo{Name: "nilblock"}, func(context.Context, struct{}) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.ContentBlock{nil}}, nil
		}),
		NewTool(ToolInfo{Name: "typednil"}, func(context.Context, struct{}) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.ContentBlock{(*mcp.ImageContent)(nil)}}, nil
		}),
	}})
	for _, name := range []string{"nilblock", "typednil"} {
		t.Run(name, func(t *testing.T) { attackCheckResponse(t, attackCallTool(s, name), "CallToolResult") })
	}
}

// The same for resources/read (NewResource: Out may be
// *mcp.ReadResourceResult) and prompts/get (Out may be
// *mcp.GetPromptResult): "contents":[null] and "content":null go out.
func TestAttackReadAndPromptNilUnion(t *testing.T) {
	s := attackServer(t, Options{
		Resources: []Resource{NewResource(ResourceInfo{URI: "file:///r", Name: "r"}, func(context.Context) (*mcp.ReadResourceResult, error) {
			return &mcp.ReadResourceResult{Contents: []mcp.ResourceContentsUnion{nil}}, nil
		})},
		Prompts: []Prompt{NewPrompt(PromptInfo{Name: "p"}, func(context.Context, struct{}) (*mcp.GetPromptResult, error) {
			return &mcp.GetPromptResult{Messages: []mcp.PromptMessage{{Role: "user"}}}, nil
		})},
	})
	t.Run("resources/read", func(t *testing.T) {
		msg := `{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{` + attackMeta + `,"uri":"file:///r"}}`
		attackCheckResponse(t, s.HandleBytes(context.Background(), []byte(msg), nil).Body, "ReadResourceResult")
	})
	t.Run("prompts/get", func(t *testing.T) {
		msg := `{"jsonrpc":"2.0","id":1,"method":"prompts/get","params":{` + attackMeta + `,"name":"p"}}`
		attackCheckResponse(t, s.HandleBytes(context.Background(), []byte(msg), nil).Body, "GetPromptResult")
	})
}

// Extra members whose names differ only in invalid UTF-8 are written as
// one name twice ("\ufffd"): a result with a repeated member, which the
// runtime's parser and the Go client refuse.
func TestAttackToolResultExtraDuplicateName(t *testing.T) {
	s := attackServer(t, Options{Tools: []Tool{
		NewTool(ToolInfo{Name: "extra"}, func(context.Context, struct{}) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.ContentBlock{},
				Extra: map[string]json.RawMessage{"x-\xff": json.RawMessage(`1`), "x-\xfe": json.RawMessage(`2`)}}, nil
		}),
	}})
	attackCheckResponse(t, attackCallTool(s, "extra"), "CallToolResult")
}

// A tool whose *mcp.CallToolResult holds a value that contains itself
// (structuredContent a map holding itself) must get an error answer
// (README: "a handler panic → -32603"; encoding/json and the runtime's
// internal/jsonenc refuse a cycle with an error). The generated encoder
// recurses until the goroutine stack limit, a fatal error no recover
// catches: the whole server process dies with every request in flight. Run
// in a child process with a 64 MiB stack limit so the crash comes fast.
func TestAttackToolResultCycleKillsProcess(t *testing.T) {
	if os.Getenv("MCPGEN_ATTACK_SERVER_CYCLE") == "1" {
		debug.SetMaxStack(64 << 20)
		s := attackServer(t, Options{Tools: []Tool{
			NewTool(ToolInfo{Name: "cycle"}, func(context.Context, struct{}) (*mcp.CallToolResult, error) {
				m := map[string]any{}
				m["self"] = m
				return &mcp.CallToolResult{Content: []mcp.ContentBlock{}, StructuredContent: m}, nil
			}),
		}})
		body := attackCallTool(s, "cycle")
		if !bytes.Contains(body, []byte(`"error"`)) {
			os.Exit(3)
		}
		os.Exit(0)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestAttackToolResultCycleKillsProcess$", "-test.count=1")
	cmd.Env = append(os.Environ(), "MCPGEN_ATTACK_SERVER_CYCLE=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		first := string(out)
		if i := strings.IndexByte(first, '\n'); i >= 0 {
			first = first[:i]
		}
		t.Fatalf("the server did not answer a tool result holding a cycle with an error: child %v: %s", err, first)
	}
}
