package generator_test

import (
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"testing"

	"github.com/mcpgen/mcpgen/generator"
	"github.com/mcpgen/mcpgen/internal/specdir"
	"github.com/mcpgen/mcpgen/schema"
)

// BenchmarkGenerate2026 measures one whole-schema generation of 2026-07-28:
// load (read, parse, model), emit, gofmt and type-check every file.
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

// BenchmarkGenerate10x generates a schema ten times the size of
// 2026-07-28: its definitions, copied nine more times under new names.
// Compared with BenchmarkGenerate2026 it shows that time and memory grow
// linearly with the schema.
func BenchmarkGenerate10x(b *testing.B) {
	data := tenfold(b, specdir.Schema(b, "2026-07-28"))
	benchBytes(b, data)
}

// BenchmarkGenerateNested40 generates one definition nesting inline
// objects and unions 40 levels deep (canonical keys once doubled per level).
func BenchmarkGenerateNested40(b *testing.B) {
	n := `{"type":"object","properties":{"leaf":{"type":"string"}}}`
	for i := range 40 {
		if i%2 == 0 {
			n = fmt.Sprintf(`{"type":"object","properties":{"u":{"anyOf":[{"type":"object","properties":{"k":{"const":"x"}},"required":["k"]},{"type":"object","properties":{"k":{"const":"y"},"n":%s},"required":["k"]}]}}}`, n)
		} else {
			n = fmt.Sprintf(`{"type":"object","properties":{"a%d":%s}}`, i, n)
		}
	}
	benchBytes(b, []byte(`{"$defs":{"Deep":`+n+`}}`))
}

func benchBytes(b *testing.B, data []byte) {
	b.ReportAllocs()
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		m, err := schema.LoadBytes("bench.json", data, schema.Options{Version: "2030-01-01"})
		if err != nil {
			b.Fatal(err)
		}
		if _, err := generator.Generate(m, generator.Options{Package: "p"}); err != nil {
			b.Fatal(err)
		}
	}
}

var defRef = regexp.MustCompile(`"#/\$defs/([^"]+)"`)

// tenfold returns a schema with every definition of path ten times: once
// as it is and nine times renamed <Name>Copy<k>, referring to its copies.
func tenfold(b *testing.B, path string) []byte {
	b.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	var doc struct {
		Defs map[string]json.RawMessage `json:"$defs"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		b.Fatal(err)
	}
	out := map[string]json.RawMessage{}
	for name, def := range doc.Defs {
		out[name] = def
		for k := 1; k < 10; k++ {
			out[fmt.Sprintf("%sCopy%d", name, k)] = defRef.ReplaceAll(def, []byte(fmt.Sprintf(`"#/$$defs/${1}Copy%d"`, k)))
		}
	}
	data, err := json.Marshal(map[string]any{"$defs": out})
	if err != nil {
		b.Fatal(err)
	}
	return data
}
