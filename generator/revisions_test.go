package generator_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/internal/specdir"
)

// revisions are the protocol revisions the generator must handle.
var revisions = []string{"2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"}

// TestEveryRevisionCompiles generates every revision (and the fixture) into
// one temporary module, one package each, and runs `go vet ./...` there,
// which type-checks them all. The module has no requirements: generated
// code needs only the standard library.
func TestEveryRevisionCompiles(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the go command; skipped with -short")
	}
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command in PATH")
	}
	mod := t.TempDir()
	write := func(path string, data []byte) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(mod, "go.mod"), []byte("module example.com/gen\n\ngo 1.26\n"))
	packages := map[string]string{"fixture": fixtureSchema}
	for _, v := range revisions {
		packages["mcp"+strings.ReplaceAll(v, "-", "")] = specdir.Schema(t, v)
	}
	for pkg, path := range packages {
		for _, f := range generateFile(t, path, pkg) {
			write(filepath.Join(mod, pkg, f.Name), f.Content)
		}
	}
	cmd := exec.Command(goCmd, "vet", "./...")
	cmd.Dir = mod
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod", "GOTOOLCHAIN=local")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go vet ./... in the generated module: %v\n%s", err, out)
	}
}
