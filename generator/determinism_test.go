package generator_test

import (
	"bytes"
	"testing"

	"github.com/mcpgen/mcpgen/internal/specdir"
)

// TestDeterministic generates 2026-07-28 twice, loading the schema afresh
// each time: the files must be byte-identical.
func TestDeterministic(t *testing.T) {
	path := specdir.Schema(t, "2026-07-28")
	first := generateFile(t, path, "mcp")
	second := generateFile(t, path, "mcp")
	if len(first) != len(second) {
		t.Fatalf("%d files, then %d", len(first), len(second))
	}
	for i := range first {
		if first[i].Name != second[i].Name {
			t.Errorf("file %d: %s, then %s", i, first[i].Name, second[i].Name)
		}
		if !bytes.Equal(first[i].Content, second[i].Content) {
			t.Errorf("%s differs between two runs at line %d", first[i].Name, firstDiffLine(first[i].Content, second[i].Content))
		}
	}
	// The package doc names the schema by its place in the spec, not by
	// where the spec was checked out.
	for _, f := range first {
		if f.Name == "doc.go" {
			if !bytes.Contains(f.Content, []byte("schema/2026-07-28/schema.json")) {
				t.Errorf("doc.go does not name the schema:\n%s", f.Content)
			}
			if bytes.Contains(f.Content, []byte(specdir.Dir(t))) {
				t.Errorf("doc.go names the spec checkout:\n%s", f.Content)
			}
		}
	}
}
