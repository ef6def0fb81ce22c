package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestAttackScaffoldMethodToolNotServed: README, "Five minutes": "Add a
// tool to `tools.go` (a package-level func like the sample `Greet`, or a
// method when the tool needs state) ... then `go generate ./...`". Doing
// exactly that in a fresh `mcpgen init` project, with a method tool, gives
// a project that vets, builds and passes its tests, and whose server does
// not serve the new tool: mcpgen tools binds it into (*Counter).MCPRegister,
// which nothing calls (main.go calls only the package-level MCPRegister),
// and neither go generate nor go test says so. The tool should be served,
// or go generate / the scaffold's tests should fail naming what to call.
func TestAttackScaffoldMethodToolNotServed(t *testing.T) {
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
	if err := os.WriteFile(filepath.Join(dir, "served_attack_test.go"), []byte(`package main

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
	cmd := exec.Command(goCmd, "test", "-count=1", "-run", "TestServedTools|TestGreet", ".")
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil && !strings.Contains(string(out), "NOT SERVED") {
		t.Logf("go test failed another way (acceptable if it names the fix): %v\n%s", err, out)
		return
	}
	if strings.Contains(string(out), "NOT SERVED") {
		t.Errorf("a method tool added as the README says, then go generate: the project builds and tests green, the tool is not served\n%s", out)
	}
}
