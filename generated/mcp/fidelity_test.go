package mcp_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/mcpgen/mcpgen/generated/mcp"
	"github.com/mcpgen/mcpgen/internal/specdir"
)

// TestSpecExamplesRoundTrip decodes every example message of the spec into
// its generated type and encodes it again: the JSON must be equal (same
// members and values, order free).
func TestSpecExamplesRoundTrip(t *testing.T) {
	dir := specdir.Examples(t, mcp.ProtocolVersion)
	files, err := filepath.Glob(filepath.Join(dir, "*", "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatalf("no examples under %s", dir)
	}
	for _, file := range files {
		typeName := filepath.Base(filepath.Dir(file))
		t.Run(typeName+"/"+filepath.Base(file), func(t *testing.T) {
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			v, err := mcp.DecodeNamed(typeName, data)
			if err != nil {
				t.Fatalf("decode: %v", err)
			}
			out, err := json.Marshal(v)
			if err != nil {
				t.Fatalf("encode: %v", err)
			}
			var want, got any
			if err := json.Unmarshal(data, &want); err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(out, &got); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(want, got) {
				t.Errorf("round trip changed the message\nwant %s\ngot  %s", compact(data), out)
			}
		})
	}
	t.Logf("%d examples round-tripped", len(files))
}

func compact(data []byte) string {
	var v any
	if json.Unmarshal(data, &v) != nil {
		return string(data)
	}
	out, _ := json.Marshal(v)
	return string(out)
}
