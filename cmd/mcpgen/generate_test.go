package main

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
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

// TestGenerateIntoFolderOnAnotherFileSystem: an output folder on another
// file system than its parent (here a link to a folder in /dev/shm, like a
// mount point or a Docker volume) is written: the files are staged inside
// it, so no rename crosses file systems.
func TestGenerateIntoFolderOnAnotherFileSystem(t *testing.T) {
	const other = "/dev/shm"
	var a, b syscall.Stat_t
	tmp := t.TempDir()
	if syscall.Stat(other, &a) != nil || syscall.Stat(tmp, &b) != nil || a.Dev == b.Dev {
		t.Skipf("%s is not a separate file system here", other)
	}
	target, err := os.MkdirTemp(other, "mcpgen-test-*")
	if err != nil {
		t.Skip(err)
	}
	t.Cleanup(func() { os.RemoveAll(target) })

	spec, _ := isolate(t)
	writeSchema(t, filepath.Join(spec, "schema"), "2030-01-01", tinySchema)
	out := filepath.Join(tmp, "proto") // a link to an (empty) folder on another file system
	if err := os.Symlink(target, out); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := cli(t, "generate", "--schema", "2030-01-01", "--out", out)
	if code != exitOK {
		t.Fatalf("generate into a folder on another file system: exit %d\n%s%s", code, stdout, stderr)
	}
	if n := len(snapshot(t, target)); n != 14 {
		t.Errorf("%d files in the output folder, want 14", n)
	}
}
