package mcp_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/generated/mcp"
)

// decodeBenchMessages are results and params on the hot path of a
// request: a tools/list result with 20 tools (arrays of structs), a
// sampling request (integers, arrays of unions) and a small result.
var decodeBenchMessages = func() map[string]string {
	var tools []string
	for i := range 20 {
		tools = append(tools, fmt.Sprintf(`{"name":"tool_%d","description":"Does thing %d.","inputSchema":{"type":"object","properties":{"q":{"type":"string"},"n":{"type":"integer"}},"required":["q"]},"annotations":{"readOnlyHint":true}}`, i, i))
	}
	return map[string]string{
		"ListToolsResult": `{"cacheScope":"public","ttlMs":60000,"tools":[` + strings.Join(tools, ",") + `]}`,
		"CreateMessageRequestParams": `{"messages":[{"role":"user","content":{"type":"text","text":"What is the capital of France?"}},{"role":"assistant","content":{"type":"text","text":"Paris."}}],` +
			`"maxTokens":100,"temperature":0.5,"stopSequences":["\n\n","END"],"modelPreferences":{"hints":[{"name":"claude"}],"intelligencePriority":0.8}}`,
		"ProgressNotificationParams": `{"progressToken":"abc","progress":50,"total":100,"message":"halfway"}`,
	}
}()

// BenchmarkDecode decodes each message with the generated decoders.
func BenchmarkDecode(b *testing.B) {
	for _, name := range []string{"ListToolsResult", "CreateMessageRequestParams", "ProgressNotificationParams"} {
		msg := []byte(decodeBenchMessages[name])
		b.Run(name, func(b *testing.B) {
			if _, err := mcp.DecodeNamed(name, msg); err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			b.SetBytes(int64(len(msg)))
			for b.Loop() {
				if _, err := mcp.DecodeNamed(name, msg); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
