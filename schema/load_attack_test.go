package schema

import (
	"context"
	"errors"
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

// wantLocated fails unless err is an ErrorList whose first entry names
// where the problem is: the line (and, when col > 0, the column) of the
// bad value, or a JSON pointer.
func wantLocated(t *testing.T, err error, line, col int, pointer string) {
	t.Helper()
	var list ErrorList
	if !errors.As(err, &list) || len(list) == 0 {
		t.Fatalf("err = %v, want a schema error list", err)
	}
	e := list[0]
	if pointer != "" && e.Pointer == pointer {
		return
	}
	if e.Line == line && (col == 0 || e.Col == col) {
		return
	}
	t.Fatalf("error %q: at line %d col %d pointer %q; want line %d (col %d) or pointer %q",
		e.Error(), e.Line, e.Col, e.Pointer, line, col, pointer)
}

// TestAttackNestedSyntaxErrorLocation: a value of the wrong JSON type inside
// a definition is reported at a line and column computed from the offset
// of the nested decoder (relative to the definition's own bytes), not of the
// file: the CLI points at line 1 for a value on line 4.
// Held to: the CLI's message for bad input names file:line:col (the
// loader's own doc, load.go: "located by file and JSON pointer (or line and
// column when the file is not valid JSON)").
func TestAttackNestedSyntaxErrorLocation(t *testing.T) {
	cases := []struct {
		name, text string
		bad        string // the bad value, where the error must point
		pointer    string
	}{
		{"definition is a number", "{\"$defs\": {\n  \"Ok\": {\"type\": \"string\"},\n  \"A\": 5\n}}", "5", "#/$defs/A"},
		{"items is a number", "{\"$defs\": {\n  \"A\": {\n    \"type\": \"array\",\n    \"items\": 5\n  }\n}}", "5", "#/$defs/A/items"},
		{"required is a string", "{\"$defs\": {\n  \"A\": {\n    \"type\": \"object\",\n    \"properties\": {\"x\": {\"type\": \"string\"}},\n    \"required\": \"x\"\n  }\n}}", "\"x\"\n", "#/$defs/A/required"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			off := strings.Index(c.text, c.bad)
			line := strings.Count(c.text[:off], "\n") + 1
			col := off - strings.LastIndex(c.text[:off], "\n")
			_, err := attackLoad(c.text)
			wantLocated(t, err, line, col, c.pointer)
		})
	}
}

// TestAttackTypeKeywordErrorLocated: a "type" keyword that is neither a
// string nor a list of strings is reported with neither a line nor a JSON
// pointer ("schema.json: invalid JSON: type must be a string or a list of
// strings"), so in a 200 KB schema nobody can find it.
// Held to: bad input gets a CLI message with file:line:col or JSON pointer.
func TestAttackTypeKeywordErrorLocated(t *testing.T) {
	text := "{\"$defs\": {\n  \"A\": {\"type\": \"string\"},\n  \"B\": {\"type\": \"object\", \"properties\": {\n    \"x\": {\"type\": 5}\n  }}\n}}"
	_, err := attackLoad(text)
	wantLocated(t, err, 4, 0, "#/$defs/B/properties/x/type")
}

// TestAttackDuplicateKeysRefused: a name repeated in one object of the
// schema file is silently resolved by encoding/json (last one wins, or for
// "$defs" the two objects are merged), so the loader generates from a
// schema other than the one written, and another JSON Schema tool reading
// the same file may keep the first. RFC 8259 §4 leaves the meaning of
// repeated names undefined; the project's own parser (jsonscan) refuses them
// in every message. A schema must never lose meaning silently (node.go).
// Held to: hostile input gets a clear error, never a disagreement between
// two parsers of one document.
func TestAttackDuplicateKeysRefused(t *testing.T) {
	cases := map[string]string{
		"repeated keyword":    `{"$defs": {"A": {"type": "object", "properties": {"x": {"type": "string"}}, "required": ["x"], "required": []}}}`,
		"repeated type":       `{"$defs": {"A": {"type": "string", "type": "integer"}}}`,
		"repeated definition": `{"$defs": {"A": {"type": "string"}, "A": {"type": "object", "properties": {"x": {"type": "string"}}}}}`,
		"repeated $defs":      `{"$defs": {"A": {"type": "string"}}, "$defs": {"B": {"type": "integer"}}}`,
		"repeated property":   `{"$defs": {"A": {"type": "object", "properties": {"x": {"type": "string"}, "x": {"type": "integer"}}}}}`,
	}
	for name, text := range cases {
		t.Run(name, func(t *testing.T) {
			m, err := attackLoad(text)
			if err == nil {
				t.Fatalf("loaded %d types from a schema with a repeated member name, want an error naming it", len(m.Types))
			}
		})
	}
}

// TestAttackNonUTF8Refused: bytes that are not UTF-8 inside the schema
// (a definition name, a property name, a description) are silently
// replaced by U+FFFD, so the generated wire names are not the schema's.
// RFC 8259 §8.1: JSON text exchanged between systems MUST be UTF-8.
// Held to: bad input gets a clear error with file:line:col.
func TestAttackNonUTF8Refused(t *testing.T) {
	cases := map[string]string{
		"definition name": "{\"$defs\": {\"A\xff\": {\"type\": \"string\"}}}",
		"property name":   "{\"$defs\": {\"A\": {\"type\": \"object\", \"properties\": {\"n\xc3\": {\"type\": \"string\"}}}}}",
		"enum value":      "{\"$defs\": {\"A\": {\"type\": \"string\", \"enum\": [\"a\xfe\", \"b\"]}}}",
	}
	for name, text := range cases {
		t.Run(name, func(t *testing.T) {
			m, err := attackLoad(text)
			if err == nil {
				var names []string
				for _, ty := range m.Types {
					names = append(names, fmt.Sprintf("%q", ty.Name))
				}
				t.Fatalf("loaded a schema that is not UTF-8 (types %s), want an error", strings.Join(names, ", "))
			}
		})
	}
}

// TestAttackDefsAndDefinitions: a schema holding both "$defs" and
// "definitions" (a revision moving from draft-07 to 2020-12 halfway) loads
// only "$defs"; the definitions under "definitions" vanish from the
// generated package without a word.
// Held to: a schema never loses meaning silently (node.go); hostile input
// gets a clear error.
func TestAttackDefsAndDefinitions(t *testing.T) {
	m, err := attackLoad(`{"$defs": {"A": {"type": "string"}}, "definitions": {"B": {"type": "integer"}}}`)
	if err != nil {
		return // refused: fine
	}
	if m.Type("B") == nil {
		t.Fatalf("definitions/B silently dropped (types: %d); want an error or both sets loaded", len(m.Types))
	}
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

// TestAttackDeepNestingBoundedBeforeParse: nesting deeper than MaxDepth is
// refused only after the whole file is decoded, and the decoding is
// quadratic: node.UnmarshalJSON decodes (and validates) its subtree again
// at every level, so 2 000 levels above a 1 MB description cost 2 000
// passes over that megabyte (about 30 s; a 32 MB file with 9 000 levels,
// hours) before the "nested more than 128 levels" error. The same bytes
// with the description beside the deep chain instead of under it load at
// once.
// Held to: load.go "a schema within the bound loads in bounded time".
func TestAttackDeepNestingBoundedBeforeParse(t *testing.T) {
	leaf := func(n int) string {
		return `{"type": "string", "description": "` + strings.Repeat("x", n) + `"}`
	}
	chain := func(inner string) string {
		return strings.Repeat(`{"type": "array", "items": `, 2000) + inner + strings.Repeat("}", 2000)
	}
	load := func(text string) func() {
		return func() {
			_, err := attackLoad(text)
			if err == nil || !strings.Contains(err.Error(), "nested more than") {
				t.Errorf("Load: %v, want the nesting error", err)
			}
		}
	}
	beside := `{"$defs": {"A": ` + chain(leaf(1)) + `, "B": ` + leaf(1<<20) + `}}`
	under := `{"$defs": {"A": ` + chain(leaf(1<<20)) + `}}`
	bounded(t, "Load of a 1 MB description nested 2000 deep", 5, 0, load(beside), load(under))
}
