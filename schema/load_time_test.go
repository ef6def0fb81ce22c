package schema

import (
	"context"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"
)

// timedChildEnv names the test, and the part of it, that a child process
// of loadsInTime runs.
const timedChildEnv = "MCPGEN_SCHEMA_TIMED_CHILD"

// loadsInTime runs attack in a child process (this test binary, its
// address space capped at 2 GiB) and fails the test when it does not
// finish within factor times what base, an input of the same size that
// Load handles in linear time, takes, plus a second: the verdict does not
// depend on the machine's load, and a runaway Load is killed.
func loadsInTime(t *testing.T, what string, factor int, base, attack func()) {
	t.Helper()
	if mode, ok := strings.CutPrefix(os.Getenv(timedChildEnv), t.Name()+"|"); ok {
		syscall.Setrlimit(syscall.RLIMIT_AS, &syscall.Rlimit{Cur: 2 << 30, Max: 2 << 30})
		map[string]func(){"base": base, "attack": attack}[mode]()
		return
	}
	run := func(mode string, d time.Duration) (time.Duration, bool, []byte, error) {
		ctx, cancel := context.WithTimeout(context.Background(), d)
		defer cancel()
		cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^"+regexp.QuoteMeta(t.Name())+"$", "-test.count=1")
		cmd.Env = append(os.Environ(), timedChildEnv+"="+t.Name()+"|"+mode)
		start := time.Now()
		out, err := cmd.CombinedOutput()
		return time.Since(start), ctx.Err() != nil, out, err
	}
	tb, timedOut, out, err := run("base", 2*time.Minute)
	if timedOut || err != nil {
		t.Fatalf("baseline of %s failed (%v): %v\n%.2000s", what, tb, err, out)
	}
	limit := time.Duration(factor)*tb + time.Second
	t.Logf("baseline: %v", tb.Round(time.Millisecond))
	ta, timedOut, out, err := run("attack", limit)
	switch {
	case timedOut:
		t.Fatalf("%s still running after %v (killed)", what, limit.Round(time.Millisecond))
	case err != nil:
		t.Fatalf("%s: child failed after %v: %v\n%.2000s", what, ta.Round(time.Millisecond), err, out)
	}
	t.Logf("%s took %v", what, ta.Round(time.Millisecond))
}

// TestDeepNestingRefusedInLinearTime checks that nesting deeper than
// MaxDepth is refused as the file is read, each value read once: 2 000
// levels above a 1 MB description cost what the same bytes cost with the
// description beside the deep chain (decoding every level's subtree again,
// as nested UnmarshalJSON methods did, cost 2 000 passes over the
// megabyte, some 30 s, before the error).
func TestDeepNestingRefusedInLinearTime(t *testing.T) {
	leaf := func(n int) string {
		return `{"type": "string", "description": "` + strings.Repeat("x", n) + `"}`
	}
	chain := func(inner string) string {
		return strings.Repeat(`{"type": "array", "items": `, 2000) + inner + strings.Repeat("}", 2000)
	}
	load := func(text string) func() {
		return func() {
			_, err := loadText(text)
			if err == nil || !strings.Contains(err.Error(), "nested more than") {
				t.Errorf("Load: %v, want the nesting error", err)
			}
		}
	}
	beside := `{"$defs": {"A": ` + chain(leaf(1)) + `, "B": ` + leaf(1<<20) + `}}`
	under := `{"$defs": {"A": ` + chain(leaf(1<<20)) + `}}`
	loadsInTime(t, "Load of a 1 MB description nested 2000 deep", 5, load(beside), load(under))
}

// TestDeepNestingLocated checks that the nesting error names the first
// schema too deep by pointer, line and column.
func TestDeepNestingLocated(t *testing.T) {
	text := "{\"$defs\": {\"A\":\n" + strings.Repeat(`{"items": `, MaxDepth+5) + "{}" + strings.Repeat("}", MaxDepth+5) + "}}"
	_, err := loadText(text)
	wantErrorAt(t, err, 2, len(`{"items": `)*(MaxDepth+1)+1, "")
	if want := "#/$defs/A" + strings.Repeat("/items", MaxDepth+1); !strings.Contains(err.Error(), want+": schema nested more than") {
		t.Errorf("error %q, want it at %s", err, want)
	}
}
