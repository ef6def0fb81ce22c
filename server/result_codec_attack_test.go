package server

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/generated/mcp"
)

// Like TestRawJSONNotUTF8IsRefused, for raw JSON and maps a handler returns
// that are written with a member name repeated: checkOutgoing holds the
// response to the product's own readers (its doc: "the jsonscan parse (a
// name repeated at any depth is refused), and the generated decoder");
// README: the generated encoders refuse what their decoders refuse, and a
// map key that is not UTF-8 because "two such names would be written as one
// name twice". The response must be -32603 (or at least readable), not a
// message the server's own client refuses.
func TestAttackRepeatedMemberInResultNotSent(t *testing.T) {
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
func TestAttackCyclicResultIsInternalErrorNotCrash(t *testing.T) {
	if os.Getenv("MCPGEN_ATTACK_SERVER_CYCLE") == "1" {
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
	cmd := exec.Command(os.Args[0], "-test.run=^TestAttackCyclicResultIsInternalErrorNotCrash$", "-test.count=1")
	cmd.Env = append(os.Environ(), "MCPGEN_ATTACK_SERVER_CYCLE=1")
	out, err := cmd.CombinedOutput()
	s := string(out)
	if err != nil || !strings.Contains(s, `BODY: {"jsonrpc":"2.0","id":1,"error":{"code":-32603`) {
		if len(s) > 400 {
			s = s[:400]
		}
		t.Fatalf("a tool result containing itself through map[int]any: want a -32603 answer; the server process ended with %v:\n%s", err, s)
	}
}
