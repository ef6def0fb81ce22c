package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestScaffoldTestsNameUnregisteredMethodTools: README, "Five minutes":
// "Add a tool to `tools.go` (a package-level func like the sample `Greet`,
// or a method when the tool needs state) ... then `go generate ./...`".
// mcpgen tools binds a method tool into (*Counter).MCPRegister, which
// main.go does not call, so the tool is not served: the scaffold's go test
// must fail naming the call to add, and pass once it is added.
func TestScaffoldTestsNameUnregisteredMethodTools(t *testing.T) {
	if testing.Short() {
		t.Skip("compiles a scaffolded project's test (about 5 s idle); skipped with -short")
	}
	root := repoRoot(t)
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	t.Setenv("GOWORK", "off")
	t.Setenv("GOPROXY", "off")
	t.Setenv("GOFLAGS", strings.TrimSpace(os.Getenv("GOFLAGS")+" -mod=mod"))
	dir := filepath.Join(t.TempDir(), "hello")
	if code, stdout, stderr := cli(t, "init", dir, "--replace", root, "--files-only"); code != exitOK {
		t.Fatalf("init: exit %d\n%s%s", code, stdout, stderr)
	}
	tools := filepath.Join(dir, "tools.go")
	src, err := os.ReadFile(tools)
	if err != nil {
		t.Fatal(err)
	}
	src = append(src, `
// Counter is a tool that needs state.
type Counter struct{ n int }

// CountArgs are the arguments of count.
type CountArgs struct {
	By int `+"`json:\"by,omitempty\"`"+`
}

// Count increments the counter.
//
//mcp:tool
func (c *Counter) Count(ctx context.Context, in CountArgs) (string, error) {
	c.n += in.By
	return fmt.Sprint(c.n), nil
}
`...)
	if err := os.WriteFile(tools, src, 0o644); err != nil {
		t.Fatal(err)
	}
	// go generate ./... runs exactly this (tools.go's //go:generate line).
	if code, stdout, stderr := cli(t, "tools", dir); code != exitOK {
		// A clear refusal naming what to do is an acceptable outcome.
		t.Logf("mcpgen tools refused: exit %d\n%s%s", code, stdout, stderr)
		return
	}
	if err := os.WriteFile(filepath.Join(dir, "served_test.go"), []byte(`package main

import (
	"strings"
	"testing"
)

func TestServedTools(t *testing.T) {
	srv, err := newServer()
	if err != nil {
		t.Fatal(err)
	}
	const meta = `+"`"+`"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}`+"`"+`
	resp := srv.HandleBytes(t.Context(), []byte(`+"`"+`{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{`+"`"+`+meta+`+"`"+`}}`+"`"+`), nil)
	t.Logf("tools/list: %s", resp.Body)
	if !strings.Contains(string(resp.Body), `+"`"+`"name":"count"`+"`"+`) {
		t.Errorf("NOT SERVED: the count tool added to tools.go and bound by go generate is not served")
	}
}
`), 0o644); err != nil {
		t.Fatal(err)
	}
	// go test ./... is the README's next step; the scaffold's
	// TestBindingsUpToDate must fail naming what to call.
	goTest := func() (string, error) {
		cmd := exec.Command(goCmd, "test", "-count=1", "-run", "TestServedTools|TestBindingsUpToDate|TestGreet", ".")
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	out, err := goTest()
	if err == nil {
		t.Fatalf("a method tool added as the README says, then go generate: the project tests green, the tool is not served\n%s", out)
	}
	if !strings.Contains(out, "(&Counter{}).MCPRegister(&opts)") {
		t.Fatalf("go test fails without naming the MCPRegister to call:\n%s", out)
	}
	// Doing what it says serves the tool.
	mainGo := filepath.Join(dir, "main.go")
	src, err = os.ReadFile(mainGo)
	if err != nil {
		t.Fatal(err)
	}
	fixed := strings.Replace(string(src), "\tMCPRegister(&opts)", "\tMCPRegister(&opts)\n\t(&Counter{}).MCPRegister(&opts)", 1)
	if fixed == string(src) {
		t.Fatal("main.go does not call MCPRegister(&opts)")
	}
	if err := os.WriteFile(mainGo, []byte(fixed), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := goTest(); err != nil {
		t.Errorf("with (&Counter{}).MCPRegister(&opts) in newServer: %v\n%s", err, out)
	}
}
