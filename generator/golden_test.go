package generator_test

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/generator"
	"github.com/mcpgen/mcpgen/schema"
)

var update = flag.Bool("update", false, "rewrite testdata/golden from the current generator")

// fixtureSchema is a small schema with one of every construct; its output is
// kept under testdata/golden so that changes to emitted code show in review.
var fixtureSchema = filepath.Join("testdata", "fixture", "2030-01-01", "schema.json")

// goldenSkip are files not kept as golden: support.go and jsonappend.go
// are internal/support's files with only the package name changed.
var goldenSkip = map[string]bool{"support.go": true, "jsonappend.go": true}

func generateFile(t testing.TB, path, pkg string) []generator.File {
	t.Helper()
	m, err := schema.Load(path, schema.Options{})
	if err != nil {
		t.Fatalf("Load %s: %v", path, err)
	}
	files, err := generator.Generate(m, generator.Options{Package: pkg})
	if err != nil {
		t.Fatalf("Generate %s: %v", path, err)
	}
	return files
}

// TestGolden compares the output for the fixture schema with
// testdata/golden. Run `go test ./generator -run TestGolden -update` to
// accept a change, then review the diff.
func TestGolden(t *testing.T) {
	files := generateFile(t, fixtureSchema, "fixture")
	dir := filepath.Join("testdata", "golden")
	if *update {
		if err := os.RemoveAll(dir); err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	var want []string
	for _, f := range files {
		if goldenSkip[f.Name] {
			continue
		}
		want = append(want, f.Name)
		path := filepath.Join(dir, f.Name)
		if *update {
			if err := os.WriteFile(path, f.Content, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		golden, err := os.ReadFile(path)
		if err != nil {
			t.Errorf("%s: %v (run `go test ./generator -run TestGolden -update`)", f.Name, err)
			continue
		}
		if !bytes.Equal(golden, f.Content) {
			t.Errorf("%s differs from %s at line %d; if the change is intended, run `go test ./generator -run TestGolden -update` and review the diff",
				f.Name, path, firstDiffLine(golden, f.Content))
		}
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if !slices.Contains(want, e.Name()) {
			t.Errorf("golden file %s is no longer generated; run with -update", e.Name())
		}
	}
}

func firstDiffLine(a, b []byte) int {
	la, lb := strings.Split(string(a), "\n"), strings.Split(string(b), "\n")
	for i := range min(len(la), len(lb)) {
		if la[i] != lb[i] {
			return i + 1
		}
	}
	return min(len(la), len(lb)) + 1
}

// TestOutputShape checks what every generated file must be: named *.go,
// carrying the header, in the requested package, sorted by name.
func TestOutputShape(t *testing.T) {
	files := generateFile(t, fixtureSchema, "widgets")
	if len(files) == 0 {
		t.Fatal("no files")
	}
	var names []string
	for _, f := range files {
		names = append(names, f.Name)
		if !strings.HasSuffix(f.Name, ".go") || strings.HasSuffix(f.Name, "_test.go") {
			t.Errorf("file name %s", f.Name)
		}
		if !bytes.HasPrefix(f.Content, []byte("// "+generator.Header+"\n")) {
			t.Errorf("%s does not start with the header", f.Name)
		}
		if !bytes.Contains(f.Content, []byte("\npackage widgets\n")) {
			t.Errorf("%s is not in package widgets", f.Name)
		}
	}
	if !slices.IsSorted(names) {
		t.Errorf("files not sorted: %v", names)
	}
	// The default package is mcp.
	m, err := schema.Load(fixtureSchema, schema.Options{})
	if err != nil {
		t.Fatal(err)
	}
	def, err := generator.Generate(m, generator.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(def[0].Content, []byte("\npackage mcp\n")) {
		t.Errorf("default package is not mcp:\n%s", def[0].Content)
	}
}

// TestOutputIndependentOfLocation generates from the same schema through a
// relative and an absolute path: the output must not differ.
func TestOutputIndependentOfLocation(t *testing.T) {
	abs, err := filepath.Abs(fixtureSchema)
	if err != nil {
		t.Fatal(err)
	}
	a := generateFile(t, fixtureSchema, "fixture")
	b := generateFile(t, abs, "fixture")
	for i := range a {
		if !bytes.Equal(a[i].Content, b[i].Content) {
			t.Errorf("%s depends on the schema's location", a[i].Name)
		}
	}
}
