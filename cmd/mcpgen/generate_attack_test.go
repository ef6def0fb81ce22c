package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestAttackInitModuleNamedLikeSource: a module path whose last element
// ends in ".go" (example.com/main.go passes module.CheckImportPath) gives a
// binary named like a source file. Init accepts it, reports success and
// prints "go build && ./main.go" as the next step; that `go build` fails
// at once ("build output "main.go" already exists and is not an object
// file"); with example.com/x.go the first build writes a binary x.go that
// every later build then reads as Go source.
// Held to: init --help "so that 'go generate ./... && go vet ./... &&
// go test ./... && go build ./...' pass right away", and the summary's
// own next step `go build && ./<binary>`.
func TestAttackInitModuleNamedLikeSource(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a new project")
	}
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	t.Setenv("GOWORK", "off")
	t.Setenv("GOPROXY", "off")
	t.Setenv("GOFLAGS", strings.TrimSpace(os.Getenv("GOFLAGS")+" -mod=mod"))
	dir := filepath.Join(t.TempDir(), "srv")
	code, stdout, stderr := cli(t, "init", dir, "--module", "example.com/main.go", "--replace", repoRoot(t))
	if code == exitUsage {
		return // refused with a usage error: fine
	}
	if code != exitOK {
		t.Fatalf("init: exit %d\n%s%s", code, stdout, stderr)
	}
	cmd := exec.Command(goCmd, "build")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("init succeeded and printed:\n%s\nbut its next step `go build` fails: %v\n%s", stdout, err, out)
	}
}

// TestAttackInitDockerTagInSummary: with --http the summary's next step is
// `docker build -t <binary> . && docker run … <binary>`, the binary name
// unchanged, so a module such as example.com/WeatherServer prints
// `docker build -t WeatherServer .`, which docker refuses ("invalid
// reference format: repository name must be lowercase"); the README and
// the Dockerfile init wrote use the valid ghcr.io/your-org/weatherserver.
// Held to: the Docker image reference grammar (distribution/reference:
// path components are [a-z0-9]+ with separators), and the README Init
// wrote, which the summary points to ("# README.md, Deploy").
func TestAttackInitDockerTagInSummary(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "srv")
	code, stdout, stderr := cli(t, "init", dir, "--module", "example.com/WeatherServer", "--http", "--files-only", "--replace", repoRoot(t))
	if code != exitOK {
		t.Fatalf("init: exit %d\n%s%s", code, stdout, stderr)
	}
	m := regexp.MustCompile(`docker build -t (\S+) `).FindStringSubmatch(stdout)
	if m == nil {
		t.Fatalf("no docker build step in the summary:\n%s", stdout)
	}
	component := `[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*`
	ref := regexp.MustCompile(`^(?:[a-zA-Z0-9.-]+(?::[0-9]+)?/)?` + component + `(?:/` + component + `)*(?::[\w][\w.-]{0,127})?$`)
	if !ref.MatchString(m[1]) {
		t.Errorf("summary says `docker build -t %s`: not a valid image reference\n%s", m[1], stdout)
	}
}
