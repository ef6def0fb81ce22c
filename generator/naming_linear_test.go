package generator_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/generator"
	"github.com/mcpgen/mcpgen/schema"
)

// generateBounded loads and generates hard in a child process (this test
// binary, running only the calling test) and fails the test if it takes
// more than five times the CPU time base (definitions of the same size
// that the generator handles in linear time) takes, plus a second: CPU
// time, so that the verdict does not depend on the machine's load. A
// child still running at ten times that in wall time is killed, so a
// runaway Generate does not keep a core busy after the test failed.
func generateBounded(t *testing.T, base, hard string) {
	t.Helper()
	refuseBounded(t, base, hard, "")
}

// refuseBounded is generateBounded for a hard that must be refused (when
// wantErr is not empty): Load must report wantErr at a JSON pointer, in
// time.
func refuseBounded(t *testing.T, base, hard, wantErr string) {
	t.Helper()
	mode, _ := strings.CutPrefix(os.Getenv("MCPGEN_LINEAR_TEST_CHILD"), t.Name()+"|")
	if mode == "base" || mode == "hard" {
		defs := map[string]string{"base": base, "hard": hard}[mode]
		m, err := loadDefs(t, defs)
		var list schema.ErrorList
		if mode == "hard" && wantErr != "" {
			if !errors.As(err, &list) || !strings.HasPrefix(list[0].Pointer, "#/") || !strings.Contains(err.Error(), wantErr) {
				t.Fatalf("Load: %v, want an error at a JSON pointer saying %q", err, wantErr)
			}
			return
		}
		if err != nil {
			t.Fatalf("Load: %v", err)
		}
		if _, err := generator.Generate(m, generator.Options{Package: "p"}); err != nil {
			t.Fatalf("Generate: %v", err)
		}
		return
	}
	// child runs the test again in mode and returns its CPU time (user and
	// system), which a loaded machine stretches far less than its wall
	// time, and whether the wall-time cap d killed it.
	child := func(mode string, d time.Duration) (time.Duration, bool, []byte, error) {
		ctx, cancel := context.WithTimeout(context.Background(), d)
		defer cancel()
		cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^"+regexp.QuoteMeta(t.Name())+"$", "-test.count=1")
		cmd.Env = append(os.Environ(), "MCPGEN_LINEAR_TEST_CHILD="+t.Name()+"|"+mode)
		out, err := cmd.CombinedOutput()
		var cpu time.Duration
		if ps := cmd.ProcessState; ps != nil {
			cpu = ps.UserTime() + ps.SystemTime()
		}
		return cpu, ctx.Err() != nil, out, err
	}
	tb, timedOut, out, err := child("base", 2*time.Minute)
	if timedOut || err != nil {
		t.Fatalf("baseline failed (%v CPU): %v\n%.2000s", tb, err, out)
	}
	// The verdict is on CPU time: five times the baseline's, plus a
	// second. The wall-time cap only stops a runaway child, and is wide
	// enough that a loaded machine (a CI run beside other work once
	// stalled a 30ms child for 1.7s) does not reach it.
	limit := 5*tb + time.Second
	ta, timedOut, out, err := child("hard", 10*limit+10*time.Second)
	switch {
	case timedOut || ta > limit:
		t.Fatalf("Load and Generate of %d KB of definitions took more than %v of CPU (%v, killed: %v); %d KB of other definitions take %v",
			len(hard)>>10, limit.Round(time.Millisecond), ta.Round(time.Millisecond), timedOut, len(base)>>10, tb.Round(time.Millisecond))
	case err != nil:
		t.Fatalf("child failed: %v\n%.2000s", err, out)
	}
	t.Logf("Load and Generate of %d KB of definitions took %v of CPU (baseline %v)", len(hard)>>10, ta.Round(time.Millisecond), tb.Round(time.Millisecond))
}

// separatorVariants returns n distinct names that all read "ABCDEFG" once
// Go-cased: the letters a…g with a separator between each two.
func separatorVariants(n int) []string {
	seps := []string{"_", "-", ".", " ", ":", "+", ","}
	var out []string
	for i := 0; len(out) < n; i++ {
		var b strings.Builder
		x := i
		for j, c := range "abcdefg" {
			b.WriteRune(c)
			if j < 6 {
				b.WriteString(seps[x%len(seps)])
				x /= len(seps)
			}
		}
		out = append(out, b.String())
	}
	return out
}

// TestCollidingTypeNamesAreNamedInLinearTime: definitions whose names read
// the same once Go-cased ("a_b…", "a-b…", "a.b…") are named ABCDEFG,
// ABCDEFGType, ABCDEFGType2…; probing the suffixes from the start for each
// one (as idents.nameType once did) cost n²/2 probes: 16 000 of them (a
// 0.4 MB schema) took about half a minute (16 000 distinct names: about a
// second).
// Held to: schema/load.go "every pass of Load and of the generator is
// linear in the schema's size, so a schema within the bound loads in
// bounded time and memory".
func TestCollidingTypeNamesAreNamedInLinearTime(t *testing.T) {
	defs := func(names []string) string {
		var b strings.Builder
		b.WriteString("{")
		for i, name := range names {
			if i > 0 {
				b.WriteString(",")
			}
			key, _ := json.Marshal(name)
			fmt.Fprintf(&b, `%s:{"type":"string"}`, key)
		}
		b.WriteString("}")
		return b.String()
	}
	colliding := separatorVariants(16_000)
	distinct := make([]string, len(colliding))
	for i := range distinct {
		distinct[i] = fmt.Sprintf("t%d_abcdefg", i) // about as long, all different
	}
	generateBounded(t, defs(distinct), defs(colliding))
}

// TestCollidingEnumValuesAreNamedInLinearTime: enum values that read the
// same once Go-cased ("a_", "a-", "a.") are numbered TA2, TA3…, and values
// that are spelled "a2", "a3"… then clash with those numbers. Resolving the
// clashes one per pass over the whole enum, each pass building a map of
// every name (as enumValueNames once did), made 6 000 + 6 000 such values
// (a 0.1 MB schema) take tens of seconds.
// Held to: schema/load.go "every pass of Load and of the generator is
// linear in the schema's size".
func TestCollidingEnumValuesAreNamedInLinearTime(t *testing.T) {
	const n = 6000
	vals := []string{"a"}
	seps := []string{"_", "-", ".", " ", ",", ";", ":", "+"}
	for l := 1; len(vals) <= n; l++ {
		var rec func(prefix string, depth int)
		rec = func(prefix string, depth int) {
			if len(vals) > n {
				return
			}
			if depth == 0 {
				vals = append(vals, prefix)
				return
			}
			for _, s := range seps {
				rec(prefix+s, depth-1)
			}
		}
		rec("a", l)
	}
	for i := 2; i < n+2; i++ {
		vals = append(vals, fmt.Sprintf("a%d", i))
	}
	distinct := make([]string, len(vals))
	for i := range distinct {
		distinct[i] = fmt.Sprintf("w%d", i)
	}
	enum := func(vals []string) string {
		data, _ := json.Marshal(vals)
		return `{"E":{"type":"string","enum":` + string(data) + `}}`
	}
	generateBounded(t, enum(distinct), enum(vals))
}
