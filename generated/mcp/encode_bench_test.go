package mcp_test

import (
	"encoding/json"
	"testing"

	"github.com/mcpgen/mcpgen/generated/mcp"
)

// BenchmarkEncode encodes each message of BenchmarkDecode, decoded once,
// with the generated encoders (AppendJSON into a reused buffer), plus a tool result whose structuredContent
// is a map (encoded by reflection).
func BenchmarkEncode(b *testing.B) {
	values := map[string]any{}
	for _, name := range []string{"ListToolsResult", "CreateMessageRequestParams", "ProgressNotificationParams"} {
		v, err := mcp.DecodeNamed(name, []byte(decodeBenchMessages[name]))
		if err != nil {
			b.Fatal(err)
		}
		values[name] = v
	}
	values["CallToolResult"] = &mcp.CallToolResult{
		Content: []mcp.ContentBlock{&mcp.TextContent{Text: "Paris: 21.5 (metric)"}},
		StructuredContent: map[string]any{"location": "Paris", "temperature": 21.5, "units": "metric",
			"hourly": []any{map[string]any{"h": 1, "t": 20.5}, map[string]any{"h": 2, "t": 21}}},
	}
	for _, name := range []string{"ListToolsResult", "CreateMessageRequestParams", "ProgressNotificationParams", "CallToolResult"} {
		v := values[name].(interface {
			AppendJSON([]byte) ([]byte, error)
		})
		b.Run(name, func(b *testing.B) {
			out, err := v.AppendJSON(nil)
			if err != nil || !json.Valid(out) {
				b.Fatal(err)
			}
			b.ReportAllocs()
			b.SetBytes(int64(len(out)))
			buf := make([]byte, 0, 2*len(out))
			for b.Loop() {
				if _, err := v.AppendJSON(buf[:0]); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
