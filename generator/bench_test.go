package generator_test

import (
	"testing"

	"github.com/mcpgen/mcpgen/generator"
	"github.com/mcpgen/mcpgen/internal/specdir"
	"github.com/mcpgen/mcpgen/schema"
)

// BenchmarkGenerate2026 measures one whole-schema generation of 2026-07-28:
// load (read, parse, model), emit and gofmt every file.
func BenchmarkGenerate2026(b *testing.B) {
	path := specdir.Schema(b, "2026-07-28")
	b.ReportAllocs()
	for b.Loop() {
		m, err := schema.Load(path, schema.Options{})
		if err != nil {
			b.Fatal(err)
		}
		if _, err := generator.Generate(m, generator.Options{Package: "mcp"}); err != nil {
			b.Fatal(err)
		}
	}
}
