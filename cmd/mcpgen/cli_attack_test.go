package main

import (
	"os"
	"path/filepath"
	"testing"
)

// init's help: "The module path defaults to the folder name ... That element
// names the executable 'go build' writes, so it must not end like a source
// file (x.go, x.s) or be the name of a scaffold file (README.md)", and the
// scaffold is meant to pass 'go build' right away. init itself writes go.sum
// (from --replace's checkout, or while resolving the dependencies), so a
// module whose last element is go.sum makes `go build` fail with
// `build output "go.sum" already exists and is not an object file` (or, with
// an empty go.sum, overwrite go.sum with the binary). init accepts it.
func TestAttackInitModuleNamedGoSum(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "proj")
	code, _, stderr := cli(t, "init", dir, "--module", "example.com/go.sum", "--files-only", "--replace", repoRoot(t))
	if code != exitUsage {
		t.Errorf("init --module example.com/go.sum: exit %d (stderr %q); want %d: the executable `go build` writes, go.sum, is a file init writes", code, stderr, exitUsage)
	}
	if _, err := os.Stat(filepath.Join(dir, "go.sum")); err == nil {
		t.Errorf("init wrote %s, which `go build` (binary go.sum) then refuses to overwrite", filepath.Join(dir, "go.sum"))
	}
}

// `mcpgen init time` (the folder name is the module path; "time" is the
// name of a well-known MCP server) passes checkModulePath, writes the whole
// scaffold, then fails its dependency step with "ambiguous import: found
// package time in multiple modules" and blames the module cache ("run 'go
// mod tidy' ... with network access", which cannot help): exit 1 and a
// project that does not build. init's help promises a scaffold where "go
// vet ./... && go test ./... && go build ./..." pass right away; a module
// path that shadows a standard-library package should be refused up front
// (exit 2, nothing written) like other unusable folder names ("pass
// --module").
func TestAttackInitStdlibModulePath(t *testing.T) {
	t.Setenv("GOFLAGS", "-modcacherw")
	dir := filepath.Join(t.TempDir(), "time")
	code, _, stderr := cli(t, "init", dir, "--replace", repoRoot(t))
	if code == exitOK {
		return
	}
	if code != exitUsage {
		t.Errorf("init %s: exit %d, stderr:\n%s\nwant a usage error naming the module path (it is the standard library's time package)", dir, code, stderr)
	}
	if _, err := os.Stat(dir); err == nil && code != exitOK {
		t.Errorf("the failed init left a project in %s", dir)
	}
}
