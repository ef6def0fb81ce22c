package generator_test

import (
	"errors"
	"testing"

	"github.com/mcpgen/mcpgen/generated/mcp"
)

// TestAttackDecodeErrorPathIndex: an array or map whose elements are
// objects is decoded with encoding/json (plain[[]Tool]), so a bad element
// is reported without its index or key: in a tools/list result whose
// second tool lacks its name the error says "tools.name", not
// "tools[1].name", naming a place that does not exist in the message.
// Held to: the generated DecodeError's doc (support.go): "Path names the
// offending member, such as "params.content[2].type"".
func TestAttackDecodeErrorPathIndex(t *testing.T) {
	cases := map[string]struct{ name, msg, path string }{
		"array of objects": {"ListToolsResult",
			`{"cacheScope":"public","ttlMs":0,"tools":[{"name":"a","inputSchema":{"type":"object"}},{"inputSchema":{"type":"object"}}]}`, "tools[1].name"},
		"array of objects, wrong type": {"ListToolsResult",
			`{"cacheScope":"public","ttlMs":0,"tools":[{"name":"a","inputSchema":{"type":"object"}},{"name":5,"inputSchema":{"type":"object"}}]}`, "tools[1].name"},
	}
	for label, c := range cases {
		t.Run(label, func(t *testing.T) {
			_, err := mcp.DecodeNamed(c.name, []byte(c.msg))
			var de *mcp.DecodeError
			if !errors.As(err, &de) {
				t.Fatalf("err = %v, want a DecodeError", err)
			}
			if de.Path != c.path {
				t.Errorf("path %q (%v), want %q", de.Path, err, c.path)
			}
		})
	}
}
