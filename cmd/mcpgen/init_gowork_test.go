package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestInitIgnoresAnEnclosingWorkspace: a project created in a directory
// under a go.work (a monorepo's workspace that does not list it) is a
// module of its own, whose go.mod and go.sum init resolves. init ran its
// go commands in workspace mode, where `go list -mod=mod` is refused
// ("-mod may only be set to readonly or vendor when in workspace mode")
// and the new module is not one of the workspace's, so init failed. Its
// go commands run with GOWORK=off, and the summary says to add the project
// to the workspace.
func TestInitIgnoresAnEnclosingWorkspace(t *testing.T) {
	if testing.Short() {
		t.Skip("resolves a new project's dependencies (seconds); skipped with -short")
	}
	root := repoRoot(t)
	t.Setenv("GOWORK", "") // the go command looks for a go.work upwards
	t.Setenv("GOPROXY", "off")
	t.Setenv("GOFLAGS", "-modcacherw")
	work := t.TempDir()
	if err := os.WriteFile(filepath.Join(work, "go.work"), []byte("go 1.26.0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(work, "services", "hello")
	code, stdout, stderr := cli(t, "init", dir, "--name", "Hello", "--replace", root)
	if code != exitOK {
		t.Fatalf("init under a go.work: exit %d\n%s%s", code, stdout, stderr)
	}
	for _, want := range []string{"resolved  dependencies into go.mod and go.sum (offline)", "generated mcp_gen.go", "go work use ."} {
		if !strings.Contains(stdout, want) {
			t.Errorf("init summary lacks %q:\n%s", want, stdout)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "go.sum")); err != nil {
		t.Errorf("no go.sum: %v", err)
	}
}
