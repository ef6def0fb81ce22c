// Package specdir finds the MCP specification files for tests: the folder
// named by MCPGEN_SPEC_DIR. Without it a test skips, saying how to get the
// files, except under CI (CI=true), where missing spec data fails the test.
package specdir

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Dir returns the spec folder (holding schema/<version>/schema.json).
func Dir(t testing.TB) string {
	t.Helper()
	dir := os.Getenv("MCPGEN_SPEC_DIR")
	if dir == "" {
		missing(t, "MCPGEN_SPEC_DIR is not set")
	}
	if !filepath.IsAbs(dir) {
		// Relative to the module root, as the README writes it, not to the
		// package folder a test runs in.
		if root := moduleRoot(); root != "" {
			dir = filepath.Join(root, dir)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "schema")); err != nil {
		missing(t, "MCPGEN_SPEC_DIR="+dir+" has no schema folder")
	}
	return dir
}

// Schema returns the path of schema.json for a protocol version.
func Schema(t testing.TB, version string) string {
	t.Helper()
	path := filepath.Join(Dir(t), "schema", version, "schema.json")
	if _, err := os.Stat(path); err != nil {
		missing(t, "no "+path)
	}
	return path
}

// Examples returns the folder of example messages of a protocol version.
func Examples(t testing.TB, version string) string {
	t.Helper()
	path := filepath.Join(Dir(t), "schema", version, "examples")
	if _, err := os.Stat(path); err != nil {
		missing(t, "no "+path)
	}
	return path
}

func missing(t testing.TB, why string) {
	t.Helper()
	msg := "spec data not found: " + why + "; set MCPGEN_SPEC_DIR to a checkout of the MCP specification (../shared/mcp-spec here) or run `mcpgen schema fetch <version>`"
	if os.Getenv("CI") == "true" {
		t.Fatal(msg)
	}
	t.Skip(msg)
}

// moduleRoot finds the folder of the main module's go.mod above the working
// directory.
func moduleRoot() string {
	dir, err := os.Getwd()
	if err != nil {
		return ""
	}
	for {
		if data, err := os.ReadFile(filepath.Join(dir, "go.mod")); err == nil && strings.HasPrefix(string(data), "module github.com/mcpgen/mcpgen\n") {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}
