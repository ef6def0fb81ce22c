package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestAttackGenerateIntoAnotherPackage: `mcpgen generate --out .` run in the
// folder of an existing package (say an `mcpgen init` project, package
// main) writes the generated package (here "mcp", the default when the
// folder name is no identifier; "hello" for a folder named hello) beside
// it: exit 0, and the folder no longer builds ("found packages main
// (main.go) and mcp (client.go)"). generate refuses --package main because
// it "would make a command", and promises that "other files are never
// touched" and that a failed run "leaves the folder as it was", yet it
// leaves a folder with two packages that the go command refuses. It should
// refuse (exit 2, nothing written), naming the package the folder holds.
func TestAttackGenerateIntoAnotherPackage(t *testing.T) {
	isolate(t)
	schema := writeSchema(t, t.TempDir(), "2030-01-01", tinySchema)
	dir := filepath.Join(t.TempDir(), "hello")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "main.go"), []byte("package main\n\nfunc main() {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := cli(t, "generate", "--schema", schema, "--out", dir)
	entries, _ := os.ReadDir(dir)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if code == exitOK {
		t.Errorf("generate --out <folder of package main>: exit 0, the folder now holds %v (package main beside the generated package)\n%s%s", names, stdout, stderr)
	}
}

// TestAttackCallTimeoutIgnoredWhileConnecting: `mcpgen call --help`:
// "--timeout duration  time limit for each request". Against a command that
// never answers (a wrong binary, a server stuck at start), `--timeout 1s`
// should give up after about a second per request (server/discover, then
// initialize). It waits for the client's own ProbeTimeout instead, 10 s for
// server/discover and 10 s more for initialize: about 20 s, whatever
// --timeout says.
func TestAttackCallTimeoutIgnoredWhileConnecting(t *testing.T) {
	if _, err := exec.LookPath("sleep"); err != nil {
		t.Skip("no sleep command")
	}
	done := make(chan int, 1)
	start := time.Now()
	go func() {
		var out, errOut bytes.Buffer
		done <- run([]string{"call", "--server", "sleep 12", "--timeout", "1s"}, &out, &errOut)
	}()
	select {
	case code := <-done:
		if code == exitOK {
			t.Errorf("call against a silent server: exit 0")
		}
		t.Logf("gave up after %s", time.Since(start).Round(time.Millisecond))
	case <-time.After(6 * time.Second):
		t.Errorf("mcpgen call --timeout 1s against a server that never answers has not given up after %s (two requests of at most 1 s each)", time.Since(start).Round(time.Second))
	}
}

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
