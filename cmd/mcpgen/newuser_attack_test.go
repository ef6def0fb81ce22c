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
