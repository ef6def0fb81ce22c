package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// TestAttackToolsMissingFolderBlamesGoBinary: `mcpgen tools DIR` with a DIR
// that does not exist (a typo in the package folder, the brief's "wrong
// path") must say that the folder does not exist. It says instead
// "fork/exec /usr/local/go/bin/go: no such file or directory", blaming the
// go command, which is installed and fine: the user is sent to reinstall Go.
// The same for a file given instead of a folder ("...go: not a directory").
func TestAttackToolsMissingFolderBlamesGoBinary(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "no-such-pkg")
	file := filepath.Join(t.TempDir(), "tools.go")
	if err := os.WriteFile(file, []byte("package main\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, dir := range []string{missing, file} {
		code, _, stderr := cli(t, "tools", dir)
		if code != 2 {
			t.Errorf("mcpgen tools %s: exit %d, want 2", dir, code)
		}
		if strings.Contains(stderr, "fork/exec") || strings.Contains(stderr, "bin/go") {
			t.Errorf("mcpgen tools %s blames the go binary instead of the folder:\n%s", dir, stderr)
		}
		if !strings.Contains(stderr, dir) {
			t.Errorf("mcpgen tools %s: the message does not name the folder:\n%s", dir, stderr)
		}
	}
}

// TestAttackToolsOutNameExcludedByPlatform: `mcpgen tools --out NAME`
// refuses a name the go command would not compile ("_x.go", ".x.go":
// "the go command ignores a file whose name begins with '_' or '.', so the
// bindings would not be compiled"; "_test.go"), but accepts and writes a
// name with a GOOS/GOARCH suffix, which the go command compiles only on that
// platform (go help buildconstraint: "*_GOOS.go"). mcpgen tools exits 0,
// writes gen_windows.go, and the package then fails to build here with
// "undefined: MCPRegister" (or builds on the author's machine and breaks
// on every other). It should be refused like the other uncompiled names:
// exit 2, nothing written.
func TestAttackToolsOutNameExcludedByPlatform(t *testing.T) {
	other := "windows"
	if runtime.GOOS == "windows" {
		other = "linux"
	}
	dir := t.TempDir()
	write := func(name, src string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("go.mod", "module example.com/plat\n\ngo 1.26\n")
	write("tools.go", `package main

import "context"

type Args struct {
	Name string `+"`json:\"name\"`"+`
}

// Greet greets.
//
//mcp:tool
func Greet(ctx context.Context, in Args) (string, error) { return in.Name, nil }

func main() {}
`)
	t.Setenv("GOFLAGS", "-mod=mod")
	t.Setenv("GOPROXY", "off")
	t.Setenv("GOWORK", "off")
	for _, name := range []string{"gen_" + other + ".go", "gen_" + other + "_s390x.go"} {
		code, stdout, stderr := cli(t, "tools", "--out", name, dir)
		if code != 2 {
			t.Errorf("mcpgen tools --out %s: exit %d, want 2 (the go command compiles %s only for GOOS=%s)\n%s%s",
				name, code, name, other, stdout, stderr)
		}
		if _, err := os.Stat(filepath.Join(dir, name)); err == nil {
			t.Errorf("mcpgen tools --out %s wrote bindings the go command does not compile on %s/%s", name, runtime.GOOS, runtime.GOARCH)
		}
	}
}

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
