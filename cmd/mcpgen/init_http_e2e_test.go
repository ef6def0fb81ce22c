package main

import (
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestInitHTTPEndToEnd: mcpgen init --http against this checkout writes the
// deployment files; the project vets, tests (health_test.go serves /healthz
// and /readyz) and builds offline with -mod=readonly and CGO_ENABLED=0, as
// the Dockerfile's build stage does; the binary serves HTTP, its
// --probe passes against /healthz and /readyz while it serves, --rate
// answers 429 with Retry-After past the burst, --cors-origins answers a
// preflight, and after SIGTERM it exits 0 and the probe fails.
func TestInitHTTPEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end: builds and runs a new project (tens of seconds); skipped with -short")
	}
	if runtime.GOOS == "windows" {
		t.Skip("sends SIGTERM")
	}
	root := repoRoot(t)
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Fatal("the go command is not on PATH")
	}
	t.Setenv("GOWORK", "off")
	t.Setenv("GOPROXY", "off")
	t.Setenv("GOFLAGS", strings.TrimSpace(os.Getenv("GOFLAGS")+" -mod=mod"))

	dir := filepath.Join(t.TempDir(), "deployed")
	code, stdout, stderr := cli(t, "init", dir, "--http", "--replace", root)
	if code != exitOK {
		t.Fatalf("init --http: exit %d\n%s%s", code, stdout, stderr)
	}
	for _, name := range []string{"Dockerfile", ".dockerignore", "server.json", "health.go", "health_test.go"} {
		if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
			t.Errorf("init --http did not write %s: %v", name, err)
		}
	}
	if !strings.Contains(stdout, "docker build") {
		t.Errorf("the summary does not say how to build the image:\n%s", stdout)
	}
	binary := filepath.Join(t.TempDir(), "server")
	for _, args := range [][]string{{"vet", "./..."}, {"test", "./..."}, {"build", "-mod=readonly", "-trimpath", "-o", binary, "."}} {
		cmd := exec.Command(goCmd, args...)
		cmd.Dir = dir
		if args[0] == "build" {
			cmd.Env = append(os.Environ(), "CGO_ENABLED=0") // the Dockerfile's static binary
		}
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	srv := exec.Command(binary, "--http", addr, "--rate", "0.01", "--rate-burst", "2", "--cors-origins", "https://app.example")
	srv.Stderr = os.Stderr
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- srv.Wait() }()
	t.Cleanup(func() { _ = srv.Process.Kill() })
	probe := func(path string) error {
		return exec.Command(binary, "--probe", "http://"+addr+path).Run()
	}
	deadline := time.Now().Add(15 * time.Second)
	for probe("/healthz") != nil {
		if time.Now().After(deadline) {
			t.Fatalf("--probe /healthz never passed: %v", probe("/healthz"))
		}
		time.Sleep(50 * time.Millisecond)
	}
	if err := probe("/readyz"); err != nil {
		t.Errorf("--probe /readyz: %v", err)
	}
	if err := probe("/nowhere"); err == nil {
		t.Error("--probe of a 404 passed")
	}

	const meta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}`
	post := func(id int) *http.Response {
		req, _ := http.NewRequest(http.MethodPost, "http://"+addr+"/mcp",
			strings.NewReader(`{"jsonrpc":"2.0","id":`+strconv.Itoa(id)+`,"method":"tools/list","params":{`+meta+`}}`))
		for k, v := range map[string]string{"Content-Type": "application/json", "Accept": "application/json, text/event-stream",
			"MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/list"} {
			req.Header.Set(k, v)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp
	}
	for id := 1; id <= 2; id++ {
		if resp := post(id); resp.StatusCode != http.StatusOK {
			t.Fatalf("request %d of the burst: %s", id, resp.Status)
		}
	}
	if resp := post(3); resp.StatusCode != http.StatusTooManyRequests || resp.Header.Get("Retry-After") == "" {
		t.Errorf("past --rate-burst: %s, Retry-After %q; want 429 with Retry-After", resp.Status, resp.Header.Get("Retry-After"))
	}
	pre, _ := http.NewRequest(http.MethodOptions, "http://"+addr+"/mcp", nil)
	pre.Header.Set("Origin", "https://app.example")
	pre.Header.Set("Access-Control-Request-Method", "POST")
	pre.Header.Set("Access-Control-Request-Headers", "content-type, mcp-method, mcp-protocol-version")
	resp, err := http.DefaultClient.Do(pre)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNoContent || resp.Header.Get("Access-Control-Allow-Origin") != "https://app.example" {
		t.Errorf("preflight with --cors-origins: %s %v", resp.Status, resp.Header)
	}

	if err := srv.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-exited:
		if err != nil {
			t.Errorf("after SIGTERM: %v, want exit 0", err)
		}
	case <-time.After(15 * time.Second):
		t.Fatal("the server did not stop within 15 s of SIGTERM")
	}
	if err := probe("/healthz"); err == nil {
		t.Error("--probe passed after the server stopped")
	}
}
