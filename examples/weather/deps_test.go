package main

import (
	"os/exec"
	"strings"
	"testing"
)

// TestNoReflectionLibrary: schemas are derived at build time (mcp_gen.go
// carries them), so the server binary does not link
// github.com/invopop/jsonschema (issue 14); they are all in the native
// checker's subset, so it does not link the full validator either
// (santhosh-tekuri/jsonschema, whose init compiles every metaschema at
// start-up; issue 20).
func TestNoReflectionLibrary(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go list -deps: %v\n%s", err, out)
	}
	deps := string(out)
	if strings.Contains(deps, "github.com/invopop/jsonschema") || strings.Contains(deps, "github.com/mcpgen/mcpgen/argschema\n") {
		t.Errorf("the weather binary links the reflection library:\n%s", deps)
	}
	if strings.Contains(deps, "github.com/santhosh-tekuri/jsonschema/v6") || strings.Contains(deps, "github.com/mcpgen/mcpgen/fullschema\n") {
		t.Errorf("the weather binary links the full validator:\n%s", deps)
	}
	// The checker's messages print their numbers as x/text's English
	// printer does without linking golang.org/x/text: its code, tables
	// and init were about half a megabyte of the server's resident pages.
	if strings.Contains("\n"+deps, "\ngolang.org/x/text/") {
		t.Errorf("the weather binary links golang.org/x/text:\n%s", deps)
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
