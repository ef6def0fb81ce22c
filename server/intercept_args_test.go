package server

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/generated/mcp"
)

// TestMiddlewareRewritesArgumentsInPlace: a tool middleware that rewrites
// the arguments in their own buffer (append(args[:0], …), the same length)
// hands next other bytes in the same slice; they are validated and decoded
// as those bytes, not read through the message's parse of the bytes that
// were there (which checked a string "abcd" while the tool got a number).
func TestMiddlewareRewritesArgumentsInPlace(t *testing.T) {
	schema := json.RawMessage(`{"type":"object","properties":{"n":{"type":"string"}}}`)
	var ran []string
	typed := NewTool(ToolInfo{Name: "typed", InputSchema: schema}, func(ctx context.Context, a struct {
		N string `json:"n"`
	}) (string, error) {
		ran = append(ran, "typed "+a.N)
		return "ok", nil
	})
	raw := NewTool(ToolInfo{Name: "raw", InputSchema: schema}, func(ctx context.Context, a json.RawMessage) (string, error) {
		ran = append(ran, "raw "+string(a))
		return "ok", nil
	})
	rewrite := func(next ToolHandler) ToolHandler {
		return func(ctx context.Context, c *ToolCall) (*mcp.CallToolResult, error) {
			c.Arguments = append(c.Arguments[:0], `{"n":123456}`...) // as long as {"n":"abcd"}
			return next(ctx, c)
		}
	}
	s, err := New(Options{Name: "p", Version: "1", Tools: []Tool{typed, raw}, ToolMiddleware: []ToolMiddleware{rewrite}})
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"typed", "raw"} {
		r := s.HandleBytes(context.Background(), []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"`+name+`","arguments":{"n":"abcd"},"_meta":`+metaFor("2026-07-28")+`}}`), nil)
		if !strings.Contains(string(r.Body), `"isError":true`) || !strings.Contains(string(r.Body), "expected string, got number") {
			t.Errorf("%s: %s, want the schema's refusal of a number", name, r.Body)
		}
	}
	if len(ran) != 0 {
		t.Errorf("tools ran with %q", ran)
	}
	// Arguments a middleware leaves alone are still read from the parse.
	pass := func(next ToolHandler) ToolHandler { return next }
	s, err = New(Options{Name: "p", Version: "1", Tools: []Tool{raw}, ToolMiddleware: []ToolMiddleware{pass}})
	if err != nil {
		t.Fatal(err)
	}
	r := s.HandleBytes(context.Background(), []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"raw","arguments":{"n":"abcd"},"_meta":`+metaFor("2026-07-28")+`}}`), nil)
	if strings.Contains(string(r.Body), `"isError"`) || len(ran) != 1 || ran[0] != `raw {"n":"abcd"}` {
		t.Errorf("unchanged arguments: %s, ran %q", r.Body, ran)
	}
}
