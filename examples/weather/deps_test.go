package main

import (
	"os/exec"
	"strings"
	"testing"
)

// TestNoReflectionLibrary: schemas are derived at build time (mcp_gen.go
// carries them), so the server binary links the validator but not
// github.com/invopop/jsonschema (issue 14).
func TestNoReflectionLibrary(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go list -deps: %v\n%s", err, out)
	}
	deps := string(out)
	if strings.Contains(deps, "github.com/invopop/jsonschema") || strings.Contains(deps, "github.com/mcpgen/mcpgen/argschema\n") {
		t.Errorf("the weather binary links the reflection library:\n%s", deps)
	}
	if !strings.Contains(deps, "github.com/santhosh-tekuri/jsonschema/v6") {
		t.Errorf("the weather binary does not link the validator")
	}
}

// TestHelpExitsZero: --help prints the usage and is a success.
func TestHelpExitsZero(t *testing.T) {
	var stderr strings.Builder
	if err := run([]string{"--help"}, &stderr); err != nil {
		t.Errorf("run --help: %v", err)
	}
	if !strings.Contains(stderr.String(), "-http") {
		t.Errorf("--help printed %q, want the flags", stderr.String())
	}
}
