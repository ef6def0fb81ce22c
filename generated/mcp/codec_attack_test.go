package mcp_test

import (
	"encoding/json"
	"testing"

	"github.com/mcpgen/mcpgen/generated/mcp"
)

// README: "The generated encoders refuse, with an error ..., what their own
// decoders would refuse", and "The decoders refuse a member named twice at
// any depth (inside structuredContent, ... and kept undeclared members
// too)". Raw JSON a caller puts in structuredContent, an Extra member or a
// _meta member is written with its repeated member, and the decoder of the
// same type refuses the message the encoder produced.
func TestAttackRawJSONWithRepeatedMemberRefused(t *testing.T) {
	dup := json.RawMessage(`{"a":1,"a":2}`)
	cases := []struct {
		name string
		v    any
	}{
		{"CallToolResult", mcp.CallToolResult{Content: []mcp.ContentBlock{}, StructuredContent: dup}},
		{"CallToolResult", mcp.CallToolResult{Content: []mcp.ContentBlock{}, Extra: map[string]json.RawMessage{"x": dup}}},
		{"TextContent", mcp.TextContent{Text: "x", Meta: mcp.MetaObject{Extra: map[string]json.RawMessage{"k": dup}}}},
	}
	for _, c := range cases {
		out, err := json.Marshal(c.v)
		if err != nil {
			continue
		}
		if _, derr := mcp.DecodeNamed(c.name, out); derr != nil {
			t.Errorf("%s: encoder wrote %s (no error); its own decoder refuses it: %v", c.name, out, derr)
		}
	}
}
