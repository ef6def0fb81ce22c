package server

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/generated/mcp"
)

// A legacy (initialize-era) client gets messages of its revision (README,
// Compatibility: "content a revision lacks is converted"). In 2025-11-25
// and 2025-06-18 Tool.outputSchema is "restricted to type: \"object\" at
// the root level" (schema.json: its "type" is required and const
// "object"), and CallToolResult.structuredContent is an object. A tool whose
// outputSchema is {"type":"array"} (allowed in 2026-07-28) is listed without
// it, as its array structuredContent is dropped from tools/call: a legacy
// client never sees a definition that breaks its schema, nor one that
// promises structured content that does not come.
func TestLegacyNonObjectOutputSchema(t *testing.T) {
	arr := json.RawMessage(`{"type":"array","items":{"type":"string"}}`)
	f := newFixture(t, func(o *Options) {
		o.Tools = append(o.Tools, NewTool(ToolInfo{Name: "list_names", OutputSchema: arr},
			func(ctx context.Context, in noArgs) (*mcp.CallToolResult, error) {
				return &mcp.CallToolResult{Content: []mcp.ContentBlock{&mcp.TextContent{Text: `["a","b"]`}}, StructuredContent: []any{"a", "b"}}, nil
			}))
	})
	check := func(t *testing.T, v string, list, call json.RawMessage) {
		t.Helper()
		var l struct {
			Tools []struct {
				Name         string          `json:"name"`
				OutputSchema json.RawMessage `json:"outputSchema"`
			} `json:"tools"`
		}
		if err := json.Unmarshal(list, &l); err != nil {
			t.Fatal(err)
		}
		listed, objectListed := false, false
		for _, tl := range l.Tools {
			switch {
			case tl.Name == "list_names" && tl.OutputSchema != nil:
				listed = true
				var root struct {
					Type any `json:"type"`
				}
				_ = json.Unmarshal(tl.OutputSchema, &root)
				if root.Type != "object" {
					t.Errorf("%s tools/list: outputSchema %s has no root type \"object\", as %s requires", v, tl.OutputSchema, v)
				}
			case tl.Name == "weather_current" && tl.OutputSchema != nil:
				objectListed = true
			}
		}
		if !objectListed {
			t.Errorf("%s tools/list: the object outputSchema of weather_current is gone too: %s", v, list)
		}
		var c struct {
			StructuredContent json.RawMessage `json:"structuredContent"`
		}
		_ = json.Unmarshal(call, &c)
		if listed && c.StructuredContent == nil {
			t.Errorf("%s: tools/list declares an outputSchema, tools/call answers without structuredContent: %s", v, call)
		}
	}
	for _, v := range []string{"2025-11-25", "2025-06-18"} {
		t.Run(v+"/one request", func(t *testing.T) {
			meta := `{"io.modelcontextprotocol/protocolVersion":"` + v + `","io.modelcontextprotocol/clientCapabilities":{}}`
			list, _ := rpcMeta(t, f.s, "tools/list", `{}`, meta, nil)
			wantResult(t, list)
			call, _ := rpcMeta(t, f.s, "tools/call", `{"name":"list_names","arguments":{}}`, meta, nil)
			wantResult(t, call)
			check(t, v, list.Result, call.Result)
		})
		t.Run(v+"/session", func(t *testing.T) {
			p := startLegacyStdio(t, f.s)
			p.initialize(v, `{}`)
			list, _ := p.response0(t, "1", "tools/list", `{}`)
			call, _ := p.response0(t, "2", "tools/call", `{"name":"list_names","arguments":{}}`)
			enc := func(m map[string]any) json.RawMessage {
				b, err := json.Marshal(resultOf(t, m))
				if err != nil {
					t.Fatal(err)
				}
				return b
			}
			check(t, v, enc(list), enc(call))
		})
	}
	// The modern era keeps it.
	list := rpc(t, f.s, "tools/list", `{}`)
	wantResult(t, list)
	if !strings.Contains(string(list.Result), `{"type":"array","items":{"type":"string"}}`) {
		t.Errorf("2026-07-28 tools/list lost the array outputSchema: %s", list.Result)
	}
}
