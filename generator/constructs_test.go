package generator_test

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/mcpgen/mcpgen/generator"
	"github.com/mcpgen/mcpgen/schema"
)

// TestConstructs generates each schema under testdata/constructs/<name>/:
// the output must equal golden/ beside it (run with -update to accept a
// change), and every package, with the behaviour_test.go.txt beside its
// schema as a test of its own, must pass go vet and go test in one
// temporary module. Each construct the generator supports has a folder;
// the ones it refuses are pointer errors in hostileSchemas.
func TestConstructs(t *testing.T) {
	dirs, err := filepath.Glob(filepath.Join("testdata", "constructs", "*", "schema.json"))
	if err != nil || len(dirs) == 0 {
		t.Fatalf("no constructs (%v)", err)
	}
	mod := t.TempDir()
	for _, path := range dirs {
		dir := filepath.Dir(path)
		name := filepath.Base(dir)
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			m, err := schema.LoadBytes(name+"/schema.json", data, schema.Options{Version: "2030-01-01"})
			if err != nil {
				t.Fatalf("Load: %v", err)
			}
			files, err := generator.Generate(m, generator.Options{Package: name})
			if err != nil {
				t.Fatalf("Generate: %v", err)
			}
			checkGolden(t, filepath.Join(dir, "golden"), files)
			for _, f := range files {
				writeFile(t, filepath.Join(mod, name, f.Name), f.Content)
			}
			if test, err := os.ReadFile(filepath.Join(dir, "behaviour_test.go.txt")); err == nil {
				writeFile(t, filepath.Join(mod, name, "behaviour_test.go"), test)
			}
		})
	}
	if testing.Short() {
		return
	}
	goVet(t, mod, "test")
}

// checkGolden compares generated files with a golden folder (support.go,
// the same for every package, is not kept), or rewrites it with -update.
func checkGolden(t *testing.T, dir string, files []generator.File) {
	t.Helper()
	if *update {
		if err := os.RemoveAll(dir); err != nil {
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
			writeFile(t, path, f.Content)
			continue
		}
		golden, err := os.ReadFile(path)
		if err != nil {
			t.Errorf("%v (run `go test ./generator -run TestConstructs -update`)", err)
			continue
		}
		if !bytes.Equal(golden, f.Content) {
			t.Errorf("%s differs from %s at line %d; if intended, run `go test ./generator -run TestConstructs -update` and review the diff", f.Name, path, firstDiffLine(golden, f.Content))
		}
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if !slices.Contains(want, e.Name()) {
			t.Errorf("golden file %s is no longer generated; run with -update", filepath.Join(dir, e.Name()))
		}
	}
}
