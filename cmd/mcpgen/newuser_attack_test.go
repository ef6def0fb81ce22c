package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestAttackInitNotEmptyMessage: `mcpgen init DIR` on a folder holding two
// files says "DIR is not empty (2 entrys)": pluralize appends "s" to
// "entry". Cosmetic, but it is the first message a new user meets when the
// folder is not fresh.
func TestAttackInitNotEmptyMessage(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"a.txt", "b.txt"} {
		if err := os.WriteFile(filepath.Join(dir, name), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	code, _, stderr := cli(t, "init", dir, "--module", "example.com/x")
	if code == exitOK {
		t.Fatalf("init into a non-empty folder without --force: exit 0")
	}
	if strings.Contains(stderr, "entrys") {
		t.Errorf("misspelt plural: %s", stderr)
	}
}
