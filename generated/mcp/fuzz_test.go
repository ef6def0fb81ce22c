package mcp_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"testing"

	"github.com/mcpgen/mcpgen/generated/mcp"
)

// fuzzTypes are the definitions the decoding fuzzer exercises: every union
// (by discriminator and by shape) and the messages a server decodes.
var fuzzTypes = []string{
	"ContentBlock", "CallToolOutcome", "ElicitRequestParams", "PrimitiveSchemaDefinition",
	"InputRequest", "InputResponse", "JSONRPCMessage", "ClientRequest", "ServerNotification",
	"SamplingContent", "ResourceContentsUnion", "ServerResult", "EnumSchema", "RequestId",
	"CallToolRequest", "CallToolRequestParams", "RequestMetaObject", "SubscriptionsListenRequest",
	"CompleteRequest", "Tool", "DiscoverResult",
}

// FuzzDecodeNamed decodes arbitrary JSON as generated types: it must never
// panic, and whatever decodes must encode and decode again to the same JSON.
func FuzzDecodeNamed(f *testing.F) {
	if dir := os.Getenv("MCPGEN_SPEC_DIR"); dir != "" {
		files, _ := filepath.Glob(filepath.Join(dir, "schema", mcp.ProtocolVersion, "examples", "*", "*.json"))
		sort.Strings(files)
		for i, file := range files {
			if data, err := os.ReadFile(file); err == nil {
				f.Add(uint8(i), data)
			}
		}
	}
	f.Add(uint8(0), []byte(`{"type":"text","text":"hi"}`))
	f.Add(uint8(3), []byte(`{"type":"string","enum":["a"],"enumNames":["A"]}`))
	f.Add(uint8(13), []byte(`12`))
	f.Fuzz(func(t *testing.T, which uint8, data []byte) {
		name := fuzzTypes[int(which)%len(fuzzTypes)]
		v, err := mcp.DecodeNamed(name, data)
		if err != nil {
			return
		}
		out, err := json.Marshal(v)
		if err != nil {
			return // e.g. a decoded value Go cannot encode again (NaN is not JSON)
		}
		v2, err := mcp.DecodeNamed(name, out)
		if err != nil {
			t.Fatalf("%s: re-decoding our own encoding failed: %v\nin:  %s\nout: %s", name, err, data, out)
		}
		out2, err := json.Marshal(v2)
		if err != nil {
			t.Fatal(err)
		}
		var a, b any
		if json.Unmarshal(out, &a) != nil || json.Unmarshal(out2, &b) != nil || !reflect.DeepEqual(a, b) {
			t.Fatalf("%s: encoding is not stable\nfirst:  %s\nsecond: %s", name, out, out2)
		}
	})
}
