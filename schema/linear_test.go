package schema

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"
)

// These tests hold Load to its promise (load.go, MaxSchemaBytes): every
// pass is linear in the schema's size, so a schema within the bound loads
// in bounded time and memory. A runaway Load must fail the test, not hang
// it or exhaust the machine, so each load runs in a child process (this
// test binary) with a deadline and an address space capped at 2 GiB.

// linearChildEnv tells a child process which test it runs, and in which
// mode ("base" or "load").
const linearChildEnv = "MCPGEN_LINEAR_TEST_CHILD"

// runInChild runs the calling test again in a child process in mode,
// killing it after d.
func runInChild(t *testing.T, mode string, d time.Duration) (elapsed time.Duration, timedOut bool, out []byte, err error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^"+regexp.QuoteMeta(t.Name())+"$", "-test.count=1")
	cmd.Env = append(os.Environ(), linearChildEnv+"="+t.Name()+"|"+mode)
	start := time.Now()
	out, err = cmd.CombinedOutput()
	return time.Since(start), ctx.Err() != nil, out, err
}

// loadsInTime runs load in a child process and fails the test when it does
// not finish in time: within factor times what base (an input of the same
// size that Load handles in linear time) takes, plus a second, so that the
// verdict does not depend on the machine's load; without a base, within
// limit.
func loadsInTime(t *testing.T, what string, factor int, limit time.Duration, base, load func()) {
	t.Helper()
	if mode, ok := strings.CutPrefix(os.Getenv(linearChildEnv), t.Name()+"|"); ok {
		syscall.Setrlimit(syscall.RLIMIT_AS, &syscall.Rlimit{Cur: 2 << 30, Max: 2 << 30})
		if mode == "base" {
			base()
		} else {
			load()
		}
		return
	}
	if base != nil {
		tb, timedOut, out, err := runInChild(t, "base", 2*time.Minute)
		if timedOut || err != nil {
			t.Fatalf("baseline of %s failed (%v): %v\n%.2000s", what, tb, err, out)
		}
		limit = time.Duration(factor)*tb + time.Second
		t.Logf("baseline: %v", tb.Round(time.Millisecond))
	}
	took, timedOut, out, err := runInChild(t, "load", limit)
	switch {
	case timedOut:
		t.Fatalf("%s still running after %v (killed)", what, limit.Round(time.Millisecond))
	case err != nil:
		t.Fatalf("%s: child failed after %v: %v\n%.2000s", what, took.Round(time.Millisecond), err, out)
	}
	t.Logf("%s took %v", what, took.Round(time.Millisecond))
}

// TestHugeEnumLoadsInLinearTime checks that the values of an enum are told
// apart in linear time: one enum of 70 000 values loads about as fast as
// 70 enums of 1 000 (de-duplicating with a search per value took some
// 20 s).
func TestHugeEnumLoadsInLinearTime(t *testing.T) {
	enums := func(defs, per int) string {
		var b strings.Builder
		b.WriteString(`{"$defs": {`)
		for d := range defs {
			if d > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, `"E%d": {"type": "string", "enum": [`, d)
			for i := range per {
				if i > 0 {
					b.WriteByte(',')
				}
				fmt.Fprintf(&b, `"v%d"`, d*per+i)
			}
			b.WriteString(`]}`)
		}
		b.WriteString(`}}`)
		return b.String()
	}
	load := func(text string) func() {
		return func() {
			if _, err := loadText(text); err != nil {
				t.Errorf("Load: %v", err)
			}
		}
	}
	loadsInTime(t, "Load of one enum of 70 000 values", 5, 0, load(enums(70, 1000)), load(enums(1, 70_000)))
}

// TestUnionContainingItselfIsRefused checks that a union of primitives
// reaching itself through its members (here through an anyOf naming it
// twice) is refused at once: expanding it path by path down to MaxDepth
// would take 2^128 steps.
func TestUnionContainingItselfIsRefused(t *testing.T) {
	text := `{"$defs": {"A": {"anyOf": [{"anyOf": [{"$ref": "#/$defs/A"}, {"$ref": "#/$defs/A"}]}, {"type": "string"}]}}}`
	loadsInTime(t, "Load of a self-referencing union", 0, 4*time.Second, nil, func() {
		_, err := loadText(text)
		if err == nil || !strings.Contains(err.Error(), "#/$defs/A/anyOf/0/anyOf/0: union cycle: A contains itself") {
			t.Errorf("Load: %v, want the union cycle at its first $ref", err)
		}
	})
}

// TestRepeatedUnionMembersLoadInLinearTime checks that a chain of 31
// unions of primitives, each naming the next twice (U0 = U1 | U1, …, U30 =
// string), is expanded once per definition: path by path it is 2^30
// alternatives for a 2 KB schema.
func TestRepeatedUnionMembersLoadInLinearTime(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"$defs": {`)
	for i := range 30 {
		fmt.Fprintf(&b, `"U%d": {"anyOf": [{"$ref": "#/$defs/U%d"}, {"$ref": "#/$defs/U%d"}]}, `, i, i+1, i+1)
	}
	b.WriteString(`"U30": {"type": "string"}}}`)
	loadsInTime(t, "Load of 31 chained unions", 0, 4*time.Second, nil, func() {
		m, err := loadText(b.String())
		if err != nil {
			t.Fatalf("Load: %v", err)
		}
		if u := m.Type("U0"); u.Kind != KindScalarUnion || len(u.Prims) != 1 || u.Prims[0] != String {
			t.Errorf("U0: %s of %v, want a union of strings", u.Kind, u.Prims)
		}
	})
}

// TestRepeatedAllOfPartsMergeInLinearTime checks that a chain of 31
// definitions, each the allOf of the next one twice (D0 = D1 ∧ D1, …, D30
// an object), is merged once per definition: path by path it is 2^30
// merges for a 2 KB schema.
func TestRepeatedAllOfPartsMergeInLinearTime(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"$defs": {`)
	for i := range 30 {
		fmt.Fprintf(&b, `"D%d": {"allOf": [{"$ref": "#/$defs/D%d"}, {"$ref": "#/$defs/D%d"}]}, `, i, i+1, i+1)
	}
	b.WriteString(`"D30": {"type": "object", "properties": {"x": {"type": "string"}}}}}`)
	loadsInTime(t, "Load of 31 chained allOf", 0, 4*time.Second, nil, func() {
		m, err := loadText(b.String())
		if err != nil {
			t.Fatalf("Load: %v", err)
		}
		if d := m.Type("D0"); d.Kind != KindStruct || len(d.Fields) != 1 || d.Fields[0].Name != "x" {
			t.Errorf("D0: %s with %d fields, want a struct with x", d.Kind, len(d.Fields))
		}
	})
}
