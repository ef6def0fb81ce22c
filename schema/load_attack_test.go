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

// attackLoad loads schema text the way `mcpgen generate` does.
func attackLoad(text string) (*Model, error) {
	return LoadBytes("schema.json", []byte(text), Options{Version: "2030-01-01"})
}

// childMode is what this process runs when it is the child of an attack
// test: "" in the parent.
func childMode(t *testing.T) string {
	v, ok := strings.CutPrefix(os.Getenv("MCPGEN_ATTACK_CHILD"), t.Name()+"|")
	if !ok {
		return ""
	}
	return v
}

// runChild runs the calling test again in a child process (this test
// binary) in mode, killing it after d. The child's address space is capped
// at 2 GiB, so a runaway Load neither keeps a core busy nor grows without
// bound once the test has failed.
func runChild(t *testing.T, mode string, d time.Duration) (elapsed time.Duration, timedOut bool, out []byte, err error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^"+regexp.QuoteMeta(t.Name())+"$", "-test.count=1")
	cmd.Env = append(os.Environ(), "MCPGEN_ATTACK_CHILD="+t.Name()+"|"+mode)
	start := time.Now()
	out, err = cmd.CombinedOutput()
	return time.Since(start), ctx.Err() != nil, out, err
}

// bounded runs attack in a child process and fails the test when it does
// not finish in time: within factor times what base (an input of the same
// size that the code handles in linear time) takes, plus a second, so that
// the verdict does not depend on the machine's load; without a base,
// within limit.
func bounded(t *testing.T, what string, factor int, limit time.Duration, base, attack func()) {
	t.Helper()
	switch childMode(t) {
	case "base":
		syscall.Setrlimit(syscall.RLIMIT_AS, &syscall.Rlimit{Cur: 2 << 30, Max: 2 << 30})
		base()
		return
	case "attack":
		syscall.Setrlimit(syscall.RLIMIT_AS, &syscall.Rlimit{Cur: 2 << 30, Max: 2 << 30})
		attack()
		return
	}
	if base != nil {
		tb, timedOut, out, err := runChild(t, "base", 2*time.Minute)
		if timedOut || err != nil {
			t.Fatalf("baseline of %s failed (%v): %v\n%.2000s", what, tb, err, out)
		}
		limit = time.Duration(factor)*tb + time.Second
		t.Logf("baseline: %v", tb.Round(time.Millisecond))
	}
	ta, timedOut, out, err := runChild(t, "attack", limit)
	switch {
	case timedOut:
		t.Fatalf("%s still running after %v (killed)", what, limit.Round(time.Millisecond))
	case err != nil:
		t.Fatalf("%s: child failed after %v: %v\n%.2000s", what, ta.Round(time.Millisecond), err, out)
	}
	t.Logf("%s took %v", what, ta.Round(time.Millisecond))
}

// TestAttackHugeEnumLoadsInLinearTime: the enum of a definition is
// de-duplicated with slices.Contains per value (stringEnum), quadratic in
// the enum's size: one enum of 70 000 short values (a 0.6 MB file, well
// inside MaxSchemaBytes) takes some 20 s, a 32 MB file hours, while the
// same 70 000 values as 70 enums of 1 000 load in a fraction of a second.
// Held to: load.go "every pass of Load and of the generator is linear in
// the schema's size, so a schema within the bound loads in bounded time".
func TestAttackHugeEnumLoadsInLinearTime(t *testing.T) {
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
			if _, err := attackLoad(text); err != nil {
				t.Errorf("Load: %v", err)
			}
		}
	}
	bounded(t, "Load of one enum of 70 000 values", 5, 0, load(enums(70, 1000)), load(enums(1, 70_000)))
}

// TestAttackUnionCycleBounded: a union of primitives whose member is an
// anyOf naming the union itself twice is expanded by alternatives() down to
// MaxDepth along every branch: 2^128 paths, each leaf appending one more
// "nested more than 128 levels" error. This 100-byte schema never loads and
// takes gigabytes within seconds.
// Held to: load.go "with MaxDepth it bounds what a schema costs … a schema
// within the bound loads in bounded time and memory"; the brief: never a
// hang or unbounded memory.
func TestAttackUnionCycleBounded(t *testing.T) {
	text := `{"$defs": {"A": {"anyOf": [{"anyOf": [{"$ref": "#/$defs/A"}, {"$ref": "#/$defs/A"}]}, {"type": "string"}]}}}`
	bounded(t, "Load of a self-referencing union", 0, 4*time.Second, nil, func() {
		if _, err := attackLoad(text); err == nil {
			t.Errorf("Load accepted a union that contains itself")
		}
	})
}

// TestAttackUnionDiamondLinear: an acyclic chain of 30 unions of
// primitives, each naming the next one twice (U0 = U1 | U1, …, U30 =
// string), is flattened by alternatives() path by path: 2^30 alternatives
// for a 2 KB schema; Load runs out of memory or time.
// Held to: load.go "every pass of Load … is linear in the schema's size".
func TestAttackUnionDiamondLinear(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"$defs": {`)
	for i := range 30 {
		fmt.Fprintf(&b, `"U%d": {"anyOf": [{"$ref": "#/$defs/U%d"}, {"$ref": "#/$defs/U%d"}]}, `, i, i+1, i+1)
	}
	b.WriteString(`"U30": {"type": "string"}}}`)
	bounded(t, "Load of 31 chained unions", 0, 4*time.Second, nil, func() {
		if _, err := attackLoad(b.String()); err != nil {
			t.Errorf("Load: %v", err)
		}
	})
}

// TestAttackAllOfDiamondLinear: an acyclic chain of 30 definitions, each
// the allOf of the next one twice (D0 = D1 ∧ D1, …, D30 an object), is
// merged by mergeAllOf path by path: 2^30 merges for a 2 KB schema.
// Held to: load.go "every pass of Load … is linear in the schema's size".
func TestAttackAllOfDiamondLinear(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"$defs": {`)
	for i := range 30 {
		fmt.Fprintf(&b, `"D%d": {"allOf": [{"$ref": "#/$defs/D%d"}, {"$ref": "#/$defs/D%d"}]}, `, i, i+1, i+1)
	}
	b.WriteString(`"D30": {"type": "object", "properties": {"x": {"type": "string"}}}}}`)
	bounded(t, "Load of 31 chained allOf", 0, 4*time.Second, nil, func() {
		if _, err := attackLoad(b.String()); err != nil {
			t.Errorf("Load: %v", err)
		}
	})
}

// TestAttackAllOfRefinementKeepsConstraints: a definition that extends a
// base with allOf and re-declares a property only to document it (the
// common way to refine a base type) loses the base's constraints:
// mergeProperty keeps the later schema and takes back from the earlier one
// only description, type and const. The enum of "level" vanishes and its
// type becomes any (the re-declaration has only a description), the
// minimum of "n" and the enum of "s" vanish, so the generated Ext accepts
// {"level": 7, "n": -1, "s": "z"}, which the schema refuses.
// Held to: JSON Schema 2020-12 §10.2.1.1 (allOf: "An instance validates
// successfully against this keyword if it validates successfully against
// all schemas defined by this keyword's value"); the brief: never a silently
// wrong result.
func TestAttackAllOfRefinementKeepsConstraints(t *testing.T) {
	m, err := attackLoad(`{"$defs": {
		"Base": {"type": "object", "properties": {
			"level": {"type": "string", "enum": ["low", "high"]},
			"n": {"type": "integer", "minimum": 0},
			"s": {"type": "string", "enum": ["a"]}}},
		"Ext": {"allOf": [{"$ref": "#/$defs/Base"}, {"type": "object", "properties": {
			"level": {"description": "How loud."},
			"n": {"type": "integer", "description": "A count."},
			"s": {"type": "string", "description": "S."}}}]}}}`)
	if err != nil {
		t.Fatal(err)
	}
	ext := m.Type("Ext")
	if ext == nil {
		t.Fatal("no type Ext")
	}
	for _, f := range ext.Fields {
		switch f.Name {
		case "level":
			if refText(f.Type) != "string" || len(f.Enum) != 2 {
				t.Errorf("Ext.level: type %s, enum %v; want string, [low high] from Base", refText(f.Type), f.Enum)
			}
		case "n":
			if f.Minimum == nil || *f.Minimum != 0 {
				t.Errorf("Ext.n: minimum %v; want 0 from Base", f.Minimum)
			}
		case "s":
			if len(f.Enum) != 1 {
				t.Errorf("Ext.s: enum %v; want [a] from Base", f.Enum)
			}
		}
	}
}

// TestAttackObjectConstType: a member whose schema is only a const of an
// object or array ({"const": {"a": 1}}) gets the Go type of an integer
// (constPrim treats every const that is not a string, boolean or a number
// with ".eE" as an integer), so the generated decoder refuses the one
// value the schema allows: DecodeNamed("A", {"o":{"a":1}}) fails with
// "o: expected an integer, got object".
// Held to: JSON Schema 2020-12 §6.1.3 (const: valid when equal to the
// value); README: every example message round-trips; the brief: never a
// silently wrong result.
func TestAttackObjectConstType(t *testing.T) {
	m, err := attackLoad(`{"$defs": {"A": {"type": "object", "properties": {"o": {"const": {"a": 1}}, "arr": {"const": [1, 2]}}}}}`)
	if err != nil {
		return // refused with an error: fine
	}
	for _, f := range m.Type("A").Fields {
		if f.Type.Prim == Integer || f.Type.Prim == Number {
			t.Errorf("member %s (const %s) has type %s: the const itself does not decode", f.Name, f.Const, refText(f.Type))
		}
	}
}
