package main

import (
	"path/filepath"
	"regexp"
	"testing"
)

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
