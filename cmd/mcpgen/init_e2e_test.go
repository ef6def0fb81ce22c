package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/bind"
)

// TestInitEndToEnd is the newcomer's path: init a project against this
// checkout, then go generate, vet, test and build it offline, and talk to
// the built server over stdio. It takes tens of seconds (it compiles the
// project, its tests and mcpgen), so -short skips it.
func TestInitEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end: builds and runs a new project (tens of seconds); skipped with -short")
	}
	start := time.Now()
	root := repoRoot(t)
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Fatal("the go command is not on PATH")
	}
	// Offline, outside any workspace; -mod=mod as the brief of the scaffold
	// allows, though the scaffold builds with -mod=readonly as well.
	t.Setenv("GOWORK", "off")
	t.Setenv("GOPROXY", "off")
	t.Setenv("GOFLAGS", strings.TrimSpace(os.Getenv("GOFLAGS")+" -mod=mod"))

	dir := filepath.Join(t.TempDir(), "hello")
	code, stdout, stderr := cli(t, "init", dir, "--name", "Hello", "--replace", root)
	if code != exitOK {
		t.Fatalf("init: exit %d\n%s%s", code, stdout, stderr)
	}
	for _, want := range []string{"resolved  dependencies into go.mod and go.sum (offline)", "generated mcp_gen.go"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("init summary lacks %q:\n%s", want, stdout)
		}
	}
	bindings, err := os.ReadFile(filepath.Join(dir, "mcp_gen.go"))
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("init: %s", time.Since(start).Round(time.Millisecond))

	for _, args := range [][]string{{"generate", "./..."}, {"vet", "./..."}, {"test", "./..."}, {"build", "./..."}} {
		if args[0] == "test" {
			// go test caches no result whose test read a file modified in
			// the last two seconds: on a fast machine the scaffold is that
			// new, and the cached rerun growScaffold expects never comes.
			ageFiles(t, dir)
		}
		t0 := time.Now()
		cmd := exec.Command(goCmd, args...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		t.Logf("go %s: %s", strings.Join(args, " "), time.Since(t0).Round(time.Millisecond))
	}
	if again, _ := os.ReadFile(filepath.Join(dir, "mcp_gen.go")); !bytes.Equal(again, bindings) {
		t.Error("go generate changed the mcp_gen.go that init wrote")
	}

	// The readonly build works too: go.mod and go.sum are complete.
	t0 := time.Now()
	cmd := exec.Command(goCmd, "build", "-mod=readonly", "-o", os.DevNull, ".")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Errorf("go build -mod=readonly: %v\n%s", err, out)
	}
	t.Logf("go build -mod=readonly: %s", time.Since(t0).Round(time.Millisecond))

	growScaffold(t, goCmd, dir)

	binary := filepath.Join(dir, "hello")
	if runtime.GOOS == "windows" {
		binary += ".exe"
	}
	if out, err := exec.Command(binary, "--help").CombinedOutput(); err != nil || !strings.Contains(string(out), "-http") {
		t.Errorf("%s --help: %v (want exit 0 and the flags)\n%s", binary, err, out)
	}
	talkStdio(t, binary)
	t.Logf("end-to-end total: %s", time.Since(start).Round(time.Millisecond))
}

// ageFiles sets the modification time of every file under dir an hour
// back.
func ageFiles(t *testing.T, dir string) {
	t.Helper()
	old := time.Now().Add(-time.Hour)
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		return os.Chtimes(path, old, old)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// growScaffold checks that the scaffold's tests stay right as it grows:
// a doc comment edited without go generate fails TestBindingsUpToDate even
// though the previous run was cached (the check runs in-process, so the test
// cache sees the sources), and a second tool added with go generate keeps
// every test green (the sample tool is found by name, not by count).
func growScaffold(t *testing.T, goCmd, dir string) {
	t.Helper()
	goTest := func() (string, error) {
		cmd := exec.Command(goCmd, "test", "./...")
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	if out, err := goTest(); err != nil || !strings.Contains(out, "(cached)") {
		t.Fatalf("second go test: %v (want a cached pass)\n%s", err, out)
	}
	tools := filepath.Join(dir, "tools.go")
	src, err := os.ReadFile(tools)
	if err != nil {
		t.Fatal(err)
	}
	edited := strings.Replace(string(src), "// Greet ", "// Greet, edited, ", 1)
	if edited == string(src) {
		t.Fatal("tools.go has no \"// Greet \" doc comment to edit")
	}
	if err := os.WriteFile(tools, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := goTest(); err == nil || !strings.Contains(out, "mcp_gen.go is stale") {
		t.Errorf("go test after editing a doc comment: %v, want TestBindingsUpToDate to fail\n%s", err, out)
	}
	extra := edited + `
// EchoArgs are the arguments of echo.
type EchoArgs struct {
	Text string ` + "`json:\"text\" jsonschema:\"required,description=What to echo, as is\"`" + `
}

// Echo returns the text.
//
//mcp:tool readOnly
func Echo(ctx context.Context, in EchoArgs) (string, error) { return in.Text, nil }
`
	if err := os.WriteFile(tools, []byte(extra), 0o644); err != nil {
		t.Fatal(err)
	}
	readme := readmeExample(t)
	if err := os.WriteFile(filepath.Join(dir, "readme_tool.go"), []byte("package main\n\nimport (\n\t\"context\"\n\t\"fmt\"\n)\n\n"+readme.code), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"generate", "./..."}, {"vet", "./..."}, {"test", "./..."}} {
		cmd := exec.Command(goCmd, args...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("go %s with a second tool and the README's: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	pkg, err := bind.Load(dir, bind.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range pkg.Tools {
		if tool.Name != "weather_current" {
			continue
		}
		var got, want any
		if err := json.Unmarshal([]byte(tool.InputSchema.JSON), &got); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal([]byte(readme.schema), &want); err != nil {
			t.Fatalf("the README's schema block is not JSON: %v", err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("README example: derived inputSchema\n%s\nbut the README documents\n%s", tool.InputSchema.JSON, readme.schema)
		}
		var out struct{ Required []string }
		if err := json.Unmarshal([]byte(tool.OutputSchema.JSON), &out); err != nil || strings.Join(out.Required, ",") != "location,temperature,units" {
			t.Errorf("README example: outputSchema required %v (%v), want location, temperature, units", out.Required, err)
		}
		return
	}
	t.Error("the README example's weather_current tool was not bound")
}

// readmeExample is the quickstart's tool code and the inputSchema the
// README documents for it, taken from the README itself.
func readmeExample(t *testing.T) (ex struct{ code, schema string }) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(repoRoot(t), "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	block := func(start string) string {
		i := strings.Index(text, start)
		if i < 0 {
			t.Fatalf("README has no block starting %q", start)
		}
		body := text[i+len(start):]
		return body[:strings.Index(body, "```")]
	}
	ex.code = block("```go\n// WeatherArgs are the arguments of weather_current.")
	ex.code = "// WeatherArgs are the arguments of weather_current." + ex.code
	i := strings.Index(text, "`weather_current` (the")
	if i < 0 {
		t.Fatal("README does not document the inputSchema of weather_current")
	}
	text = text[i:]
	ex.schema = block("```json\n")
	return ex
}

// talkStdio starts the scaffold's server and checks its answers to
// server/discover, tools/list and tools/call over newline-delimited
// JSON-RPC, then that it exits cleanly when stdin closes.
func talkStdio(t *testing.T, binary string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, binary)
	cmd.WaitDelay = 2 * time.Second
	var serverErr bytes.Buffer
	cmd.Stderr = &serverErr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	const meta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}`
	requests := []string{
		`{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{` + meta + `}}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{` + meta + `}}`,
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"greet","arguments":{"name":"Ada"},` + meta + `}}`,
	}
	if _, err := fmt.Fprintln(stdin, strings.Join(requests, "\n")); err != nil {
		t.Fatal(err)
	}

	type response struct {
		ID     int             `json:"id"`
		Result json.RawMessage `json:"result"`
		Error  json.RawMessage `json:"error"`
	}
	results := map[int]json.RawMessage{}
	sc := bufio.NewScanner(out)
	sc.Buffer(nil, 1<<20)
	for len(results) < len(requests) && sc.Scan() {
		var r response
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("not a JSON-RPC message on stdout: %q (%v)", sc.Text(), err)
		}
		if r.Error != nil {
			t.Fatalf("request %d failed: %s", r.ID, r.Error)
		}
		results[r.ID] = r.Result
	}
	if len(results) < len(requests) {
		t.Fatalf("got %d of %d answers (scan: %v); server stderr:\n%s", len(results), len(requests), sc.Err(), serverErr.String())
	}
	stdin.Close()
	if err := cmd.Wait(); err != nil {
		t.Errorf("server exit after stdin closed: %v\n%s", err, serverErr.String())
	}

	var discover struct {
		SupportedVersions []string        `json:"supportedVersions"`
		Capabilities      map[string]any  `json:"capabilities"`
		Meta              json.RawMessage `json:"_meta"`
	}
	if err := json.Unmarshal(results[1], &discover); err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(discover.SupportedVersions, "2026-07-28") || discover.Capabilities["tools"] == nil ||
		!strings.Contains(string(discover.Meta), `"name":"Hello"`) {
		t.Errorf("server/discover: %s", results[1])
	}

	var list struct {
		Tools []struct {
			Name        string `json:"name"`
			InputSchema struct {
				Required []string `json:"required"`
			} `json:"inputSchema"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(results[2], &list); err != nil {
		t.Fatal(err)
	}
	if len(list.Tools) != 1 || list.Tools[0].Name != "greet" || !slices.Equal(list.Tools[0].InputSchema.Required, []string{"name"}) {
		t.Errorf("tools/list: %s", results[2])
	}

	var call struct {
		StructuredContent struct {
			Message string `json:"message"`
		} `json:"structuredContent"`
		IsError bool `json:"isError"`
	}
	if err := json.Unmarshal(results[3], &call); err != nil || call.IsError || call.StructuredContent.Message != "Hello, Ada." {
		t.Errorf("tools/call greet: %s (%v)", results[3], err)
	}
}

// TestInitAuthEndToEnd: mcpgen init --auth against this checkout; the
// project vets, tests (its auth_test.go checks the 401 challenge and the
// metadata document) and builds offline, and the binary refuses to serve
// HTTP without an issuer.
func TestInitAuthEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end: builds a new project (tens of seconds); skipped with -short")
	}
	root := repoRoot(t)
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Fatal("the go command is not on PATH")
	}
	// The oauth module's dependencies come from the module proxy once
	// (a clean CI machine has not built that module yet); the rest is offline.
	dl := exec.Command(goCmd, "mod", "download")
	dl.Dir = filepath.Join(root, "oauth")
	dl.Env = append(os.Environ(), "GOWORK=off")
	if out, err := dl.CombinedOutput(); err != nil {
		t.Fatalf("go mod download in oauth: %v\n%s", err, out)
	}
	t.Setenv("GOWORK", "off")
	t.Setenv("GOPROXY", "off")
	t.Setenv("GOFLAGS", strings.TrimSpace(os.Getenv("GOFLAGS")+" -mod=mod"))

	dir := filepath.Join(t.TempDir(), "guarded")
	code, stdout, stderr := cli(t, "init", dir, "--auth", "--replace", root)
	if code != exitOK {
		t.Fatalf("init --auth: exit %d\n%s%s", code, stdout, stderr)
	}
	for _, args := range [][]string{{"vet", "./..."}, {"test", "./..."}, {"build", "-mod=readonly", "."}} {
		cmd := exec.Command(goCmd, args...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	binary := filepath.Join(dir, "guarded")
	if runtime.GOOS == "windows" {
		binary += ".exe"
	}
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, binary, "--http", "127.0.0.1:0")
	cmd.Env = append(os.Environ(), "MCP_AUTH_ISSUER=", "MCP_AUTH_RESOURCE=")
	out, err := cmd.CombinedOutput()
	if err == nil || !strings.Contains(string(out), "--auth-issuer") {
		t.Errorf("serving HTTP without an issuer: %v\n%s", err, out)
	}
}

// TestInitClusterEndToEnd: a --cluster scaffold builds against this
// checkout's cluster modules, and a replica that cannot reach its cluster
// says which variable named it.
func TestInitClusterEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end: builds a new project (tens of seconds); skipped with -short")
	}
	root := repoRoot(t)
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Fatal("the go command is not on PATH")
	}
	// The backends' dependencies come from the module proxy once (a clean
	// CI machine has not built those modules yet); the rest is offline.
	for _, mod := range []string{"natscluster", "rediscluster"} {
		dl := exec.Command(goCmd, "mod", "download")
		dl.Dir = filepath.Join(root, "cluster", mod)
		dl.Env = append(os.Environ(), "GOWORK=off")
		if out, err := dl.CombinedOutput(); err != nil {
			t.Fatalf("go mod download in cluster/%s: %v\n%s", mod, err, out)
		}
	}
	t.Setenv("GOWORK", "off")
	t.Setenv("GOPROXY", "off")
	t.Setenv("GOFLAGS", strings.TrimSpace(os.Getenv("GOFLAGS")+" -mod=mod"))

	dir := filepath.Join(t.TempDir(), "replicated")
	code, stdout, stderr := cli(t, "init", dir, "--cluster", "--replace", root)
	if code != exitOK {
		t.Fatalf("init --cluster: exit %d\n%s%s", code, stdout, stderr)
	}
	for _, args := range [][]string{{"vet", "./..."}, {"test", "./..."}, {"build", "-mod=readonly", "."}} {
		cmd := exec.Command(goCmd, args...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	binary := filepath.Join(dir, "replicated")
	if runtime.GOOS == "windows" {
		binary += ".exe"
	}
	for env, want := range map[string]string{
		"MCPGEN_NATS_URL=nats://127.0.0.1:1":   "MCPGEN_NATS_URL: natscluster: connecting",
		"MCPGEN_REDIS_URL=redis://127.0.0.1:1": "MCPGEN_REDIS_URL: rediscluster: connecting",
	} {
		ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
		cmd := exec.CommandContext(ctx, binary, "--http", "127.0.0.1:0")
		cmd.Env = append(os.Environ(), env)
		out, err := cmd.CombinedOutput()
		cancel()
		if err == nil || !strings.Contains(string(out), want) {
			t.Errorf("%s: %v\n%s (want %q)", env, err, out, want)
		}
	}
}
