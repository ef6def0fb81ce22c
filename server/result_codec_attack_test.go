package server

import (
	"context"
	"encoding/json"
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
