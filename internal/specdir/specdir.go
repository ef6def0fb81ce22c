// Package specdir finds the MCP specification files for tests: the folder
// named by MCPGEN_SPEC_DIR. Without it a test skips, saying how to get the
// files, except under CI (CI=true), where missing spec data fails the test.
package specdir

import (
	"os"
	"path/filepath"
	"testing"
)

// Dir returns the spec folder (holding schema/<version>/schema.json).
func Dir(t testing.TB) string {
	t.Helper()
	dir := os.Getenv("MCPGEN_SPEC_DIR")
	if dir == "" {
		missing(t, "MCPGEN_SPEC_DIR is not set")
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
