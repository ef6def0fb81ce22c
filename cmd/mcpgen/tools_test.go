package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/bind"
)

// toolsModule writes a module using this repository as github.com/mcpgen/mcpgen,
// with the files of one package p, and returns the package folder. The go
// command runs offline, outside any workspace.
func toolsModule(t testing.TB, files map[string]string) string {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	gomod := "module example.com/m\n\ngo 1.26\n\nrequire github.com/mcpgen/mcpgen v0.0.0\n\nreplace github.com/mcpgen/mcpgen => " + root + "\n"
	mustWrite(t, filepath.Join(dir, "go.mod"), gomod)
	mustWrite(t, filepath.Join(dir, "go.sum"), string(sum))
	pkg := filepath.Join(dir, "p")
	if err := os.Mkdir(pkg, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, src := range files {
		mustWrite(t, filepath.Join(pkg, name), src)
	}
	return pkg
}

func mustWrite(t testing.TB, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// offlineGo makes the go command that bind runs work offline and outside
// any workspace.
func offlineGo(t testing.TB) {
	t.Setenv("GOWORK", "off")
	t.Setenv("GOFLAGS", "-mod=mod")
	t.Setenv("GOPROXY", "off")
}

// runToolsCmd runs `mcpgen tools args…` and returns status, stdout, stderr.
func runToolsCmd(args ...string) (int, string, string) {
	var stdout, stderr bytes.Buffer
	e := &env{stdout: &stdout, stderr: &stderr}
	c := toolsCommand()
	code := c.run(e, c, args)
	return code, stdout.String(), stderr.String()
}

const toolsSrc = `package p

import "context"

type Service struct{ greeting string }

type GreetArgs struct {
	Name string ` + "`json:\"name\" jsonschema:\"required,description=Who to greet\"`" + `
}

// Greet says hello.
//
//mcp:tool title="Greeter" readOnly
func (s *Service) Greet(ctx context.Context, in GreetArgs) (string, error) { return s.greeting + in.Name, nil }
`

const secondTool = `
// Shout says HELLO.
//
//mcp:tool
func Shout(in GreetArgs) (string, error) { return "HELLO " + in.Name, nil }
`

func TestToolsWritesOnlyOnChange(t *testing.T) {
	offlineGo(t)
	dir := toolsModule(t, map[string]string{"tools.go": toolsSrc})
	out := filepath.Join(dir, bind.OutputFile)

	if code, _, stderr := runToolsCmd("--check", dir); code != exitFail || !strings.Contains(stderr, out+" is missing") {
		t.Fatalf("--check before generating: status %d, stderr %q", code, stderr)
	}
	if code, stdout, stderr := runToolsCmd(dir); code != exitOK || stdout != "" {
		t.Fatalf("status %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	first, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(first, []byte(bind.GeneratedHeader+"\n")) ||
		!bytes.Contains(first, []byte("func (s *Service) MCPTools() []server.Tool")) ||
		!bytes.Contains(first, []byte(`Title:       "Greeter",`)) {
		t.Fatalf("unexpected output:\n%s", first)
	}

	// An unchanged rerun rewrites nothing: the modification time stays.
	old := time.Now().Add(-time.Hour).Truncate(time.Second)
	if err := os.Chtimes(out, old, old); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := runToolsCmd(dir, "-v"); code != exitOK || !strings.Contains(stderr, "unchanged") {
		t.Fatalf("rerun: status %d, stderr %q", code, stderr)
	}
	if fi, err := os.Stat(out); err != nil || !fi.ModTime().Equal(old) {
		t.Fatalf("unchanged rerun touched %s (mtime %v, want %v, err %v)", out, fi.ModTime(), old, err)
	}
	if code, _, stderr := runToolsCmd(dir, "--check"); code != exitOK {
		t.Fatalf("--check of a fresh file: status %d, stderr %q", code, stderr)
	}

	// A new tool makes the file stale; --check says so and writes nothing.
	mustWrite(t, filepath.Join(dir, "tools.go"), toolsSrc+secondTool)
	code, _, stderr := runToolsCmd("--check", dir)
	if code != exitFail || !strings.Contains(stderr, out+" is stale") {
		t.Fatalf("--check of a stale file: status %d, stderr %q", code, stderr)
	}
	if now, _ := os.ReadFile(out); !bytes.Equal(now, first) {
		t.Fatal("--check wrote the file")
	}
	if code, _, stderr := runToolsCmd(dir); code != exitOK {
		t.Fatalf("regenerate: status %d, stderr %q", code, stderr)
	}
	second, _ := os.ReadFile(out)
	if !bytes.Contains(second, []byte("return Shout(*in.(*GreetArgs))")) {
		t.Fatalf("regenerated file lacks the new tool:\n%s", second)
	}
	entries, _ := os.ReadDir(filepath.Dir(dir))
	for _, e := range entries {
		if strings.Contains(e.Name(), "mcpgen-") {
			t.Errorf("temporary %s left behind", e.Name())
		}
	}
}

func TestToolsErrorsWriteNothing(t *testing.T) {
	offlineGo(t)
	src := `package p

import "context"

type Args struct{ Q string }

// A is fine.
//
//mcp:tool
func A(ctx context.Context, in Args) (string, error) { return "", nil }

// B has a misspelt key.
//
//mcp:tool readonly
func B(ctx context.Context, in Args) (string, error) { return "", nil }

// C has the same name as A.
//
//mcp:tool name=a
func C(ctx context.Context, in int) (string, error) { return "", nil }
`
	dir := toolsModule(t, map[string]string{"tools.go": src})
	code, stdout, stderr := runToolsCmd(dir)
	if code != exitUsage || stdout != "" {
		t.Fatalf("status %d (want %d), stdout %q", code, exitUsage, stdout)
	}
	file := filepath.Join(dir, "tools.go")
	for _, want := range []string{
		file + ":14:12: unknown key readonly in //mcp:tool directive (did you mean readOnly?)",
		file + ":19:",
		"mcpgen: tools: ",
		"nothing written",
	} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
	lines := strings.Split(strings.TrimSpace(stderr), "\n")
	for _, l := range lines[:len(lines)-1] {
		if !strings.HasPrefix(l, file+":") {
			t.Errorf("error line %q is not file:line:col: message", l)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, bind.OutputFile)); !os.IsNotExist(err) {
		t.Errorf("%s was written despite errors (%v)", bind.OutputFile, err)
	}

	// As go generate runs it: in the package folder, with relative names.
	t.Chdir(dir)
	if code, _, stderr := runToolsCmd(); code != exitUsage || !strings.HasPrefix(stderr, "tools.go:14:12: unknown key readonly") {
		t.Errorf("in the package folder: status %d, stderr:\n%s", code, stderr)
	}

	// An existing generated file is left as it was.
	mustWrite(t, filepath.Join(dir, bind.OutputFile), bind.GeneratedHeader+"\n\npackage p\n")
	if code, _, _ := runToolsCmd(dir); code != exitUsage {
		t.Fatalf("status %d", code)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, bind.OutputFile)); string(b) != bind.GeneratedHeader+"\n\npackage p\n" {
		t.Errorf("old generated file changed to:\n%s", b)
	}
}

func TestToolsNoDirectivesRemovesOldFile(t *testing.T) {
	offlineGo(t)
	dir := toolsModule(t, map[string]string{"p.go": "package p\n\nfunc F() {}\n"})
	if code, _, stderr := runToolsCmd(dir); code != exitOK {
		t.Fatalf("status %d, stderr %q", code, stderr)
	}
	out := filepath.Join(dir, bind.OutputFile)
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Fatalf("a package without directives got %s", out)
	}
	mustWrite(t, out, bind.GeneratedHeader+"\n\npackage p\n\nfunc (s *Service) MCPTools() {}\n")
	if code, _, stderr := runToolsCmd("--check", dir); code != exitFail || !strings.Contains(stderr, "no longer needed") {
		t.Fatalf("--check: status %d, stderr %q", code, stderr)
	}
	if code, _, stderr := runToolsCmd(dir); code != exitOK {
		t.Fatalf("status %d, stderr %q", code, stderr)
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Fatalf("old generated %s not removed", out)
	}
}

func TestToolsKeepsHandWrittenFile(t *testing.T) {
	offlineGo(t)
	dir := toolsModule(t, map[string]string{"tools.go": toolsSrc, bind.OutputFile: "package p\n\n// mine\n"})
	code, _, stderr := runToolsCmd(dir)
	if code != exitFail || !strings.Contains(stderr, "was not generated") {
		t.Fatalf("status %d, stderr %q", code, stderr)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, bind.OutputFile)); string(b) != "package p\n\n// mine\n" {
		t.Errorf("hand-written file replaced by:\n%s", b)
	}
}

func TestToolsUsage(t *testing.T) {
	for _, args := range [][]string{
		{"a", "b"},
		{"--out", "sub/x.go"},
		{"--out", "x.txt"},
		{"--out", "x_test.go"},
		{"--nope"},
	} {
		if code, _, stderr := runToolsCmd(args...); code != exitUsage || !strings.Contains(stderr, "mcpgen tools") {
			t.Errorf("%q: status %d, stderr %q", args, code, stderr)
		}
	}
	if code, stdout, _ := runToolsCmd("--help"); code != exitOK || !strings.Contains(stdout, "//go:generate go run github.com/mcpgen/mcpgen/cmd/mcpgen tools") {
		t.Errorf("--help: status %d, stdout %q", code, stdout)
	}
	if code, _, stderr := runToolsCmd(filepath.Join(t.TempDir(), "missing")); code != exitUsage || stderr == "" {
		t.Errorf("missing folder: status %d, stderr %q", code, stderr)
	}
}

// BenchmarkTools20 runs `mcpgen tools` on a package with 20 tools, as go
// generate does on every run after the first (load, emit, compare).
func BenchmarkTools20(b *testing.B) {
	offlineGo(b)
	var src strings.Builder
	src.WriteString("package p\n\nimport \"context\"\n\ntype Service struct{}\n")
	for i := range 20 {
		fmt.Fprintf(&src, `
type Args%[1]d struct {
	Location string `+"`json:\"location\" jsonschema:\"required,description=Where\"`"+`
	Units    string `+"`json:\"units,omitempty\" jsonschema:\"enum=metric,enum=imperial,default=metric\"`"+`
}

type Report%[1]d struct {
	Temp float64 `+"`json:\"temp\"`"+`
}

// Tool%[1]d does thing number %[1]d.
//
//mcp:tool title="Tool %[1]d" readOnly
func (s *Service) Tool%[1]d(ctx context.Context, in Args%[1]d) (Report%[1]d, error) { return Report%[1]d{}, nil }
`, i)
	}
	dir := toolsModule(b, map[string]string{"tools.go": src.String()})
	for b.Loop() {
		if code, _, stderr := runToolsCmd(dir); code != exitOK {
			b.Fatalf("status %d: %s", code, stderr)
		}
	}
	out, err := os.ReadFile(filepath.Join(dir, bind.OutputFile))
	if err != nil || bytes.Count(out, []byte("server.NewTool(")) != 20 {
		b.Fatalf("output: %v\n%s", err, out)
	}
}

// TestToolsOutRefusesIgnoredFileName: the go command ignores files whose
// names begin with "_" or "." (go help packages), so bindings written to
// _mcp_gen.go or .mcp_gen.go would never be compiled while `tools` and
// `tools --check` exit 0; such a --out is refused like a _test.go name.
func TestToolsOutRefusesIgnoredFileName(t *testing.T) {
	for _, name := range []string{"_mcp_gen.go", ".mcp_gen.go", "gen_linux.go", "gen_amd64.go", "gen_android.go", "gen_js_wasm.go", "gen_windows_arm64.go"} {
		if err := checkOutName(name); err == nil {
			t.Errorf("checkOutName(%q) accepts a file the go command ignores or compiles on one platform only", name)
		}
	}
	for _, name := range []string{"mcp_gen.go", "gen_unix.go", "linux.go", "gen_linuxx.go", "gen_linux_tools.go"} {
		if err := checkOutName(name); err != nil {
			t.Errorf("checkOutName(%s) = %v", name, err)
		}
	}
}

// TestToolsMissingFolderIsNamed: `mcpgen tools DIR` with a DIR that does
// not exist, or a file given instead of a folder, exits 2 naming DIR; it
// used to say "fork/exec /usr/local/go/bin/go: no such file or directory",
// blaming the go command (which runs in DIR).
func TestToolsMissingFolderIsNamed(t *testing.T) {
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

// TestToolsOutRefusesPlatformFileName: a --out name with a GOOS/GOARCH
// suffix (go help buildconstraint: "*_GOOS.go") is compiled by the go
// command only on that platform: the package fails to build elsewhere
// ("undefined: MCPRegister"). It is refused like the other names the go
// command skips: exit 2, nothing written.
func TestToolsOutRefusesPlatformFileName(t *testing.T) {
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
