package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestGenerateRefusesUnimportablePackageName: --package _ and --package
// main (and init) are usage errors naming the flag, not a "generator bug"
// blamed on the schema nor a package main that go build refuses.
func TestGenerateRefusesUnimportablePackageName(t *testing.T) {
	// Not isolate(): its empty XDG_CACHE_HOME would also empty GOCACHE,
	// which the type check of a failing output falls back on.
	path := writeSchema(t, t.TempDir(), "2030-01-01", tinySchema)
	for _, pkg := range []string{"_", "main", "init"} {
		t.Run(pkg, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "proto")
			code, _, stderr := cli(t, "generate", "--schema", path, "--out", out, "--package", pkg)
			if code != exitUsage || !strings.Contains(stderr, "--package") || strings.Contains(stderr, "generator bug") {
				t.Errorf("--package %s: exit %d, stderr:\n%s\nwant exit %d and a message naming --package", pkg, code, stderr, exitUsage)
			}
			if _, err := os.Stat(out); err == nil {
				t.Errorf("--package %s: wrote %s", pkg, out)
			}
		})
	}
	if got := defaultPackage(filepath.Join("x", "main")); got != "mcp" {
		t.Errorf("defaultPackage(x/main) = %q, want mcp", got)
	}
}
