package bind

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeManyTools writes a module with one package of n tools into dir.
func writeManyTools(t testing.TB, dir string, n int) {
	t.Helper()
	fake, err := filepath.Abs(filepath.Join("testdata", "fakemcpgen"))
	if err != nil {
		t.Fatal(err)
	}
	gomod := "module example.com/many\n\ngo 1.26\n\nrequire github.com/mcpgen/mcpgen v0.0.0\n\nreplace github.com/mcpgen/mcpgen => " + fake + "\n"
	var src strings.Builder
	src.WriteString("package many\n\nimport (\n\t\"context\"\n\n\t\"github.com/mcpgen/mcpgen/generated/mcp\"\n)\n\ntype Service struct{}\n")
	for i := range n {
		fmt.Fprintf(&src, `
type Args%[1]d struct {
	Location string `+"`json:\"location\" jsonschema:\"required,description=Where\"`"+`
	Units    string `+"`json:\"units,omitempty\" jsonschema:\"enum=metric,enum=imperial\"`"+`
}

type Report%[1]d struct {
	Temp float64 `+"`json:\"temp\"`"+`
}

// Tool%[1]d does thing number %[1]d.
//
//mcp:tool title="Tool %[1]d" readOnly
func (s *Service) Tool%[1]d(ctx context.Context, in Args%[1]d) (Report%[1]d, error) { return Report%[1]d{}, nil }
`, i)
	}
	src.WriteString("\nvar _ []mcp.ContentBlock\n")
	for name, content := range map[string]string{"go.mod": gomod, "tools.go": src.String()} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestLoadManyTools(t *testing.T) {
	dir := t.TempDir()
	writeManyTools(t, dir, 20)
	pkg, err := Load(dir, LoadOptions{Env: testEnv()})
	if err != nil {
		t.Fatal(err)
	}
	if len(pkg.Tools) != 20 || pkg.Tools[19].Name != "tool19" || pkg.Tools[19].Args.Expr != "Args19" {
		t.Fatalf("got %d tools", len(pkg.Tools))
	}
}

// BenchmarkLoad20Tools measures one whole Load (go list, parse, type-check,
// bind) of a package with 20 tools.
func BenchmarkLoad20Tools(b *testing.B) {
	dir := b.TempDir()
	writeManyTools(b, dir, 20)
	env := testEnv()
	for b.Loop() {
		pkg, err := Load(dir, LoadOptions{Env: env})
		if err != nil {
			b.Fatal(err)
		}
		if len(pkg.Tools) != 20 {
			b.Fatalf("got %d tools", len(pkg.Tools))
		}
	}
}
