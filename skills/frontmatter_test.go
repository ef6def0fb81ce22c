package skills_test

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"testing/fstest"

	"go.yaml.in/yaml/v4"

	"github.com/mcpgen/mcpgen/skills"
)

// The Skills extension, "Frontmatter": the frontmatter object "MUST be
// identical in content to the frontmatter of the SKILL.md it describes".
// Scalars are typed by the YAML 1.2 core schema, mapping keys like values:
// the keys 0x10, 0o17 and +1 are the integers 16, 15 and 1 to a host's
// YAML parser, the members "16", "15" and "1" in JSON.
func TestFrontmatterIntegerKeysAreResolvedLikeValues(t *testing.T) {
	md := "---\nname: good\ndescription: x\nmetadata:\n  0x10: hex\n  0o17: octal\n  +1: plus\n  v: 0x10\n  true: yes\n  '0x11': quoted\n---\n"
	fsys := fstest.MapFS{"good/SKILL.md": {Data: []byte(md)}}
	s, _ := newServer(t, fsys, skills.Options{})
	res := result[listResult](t, call(t, s, skills.MethodList, ""))
	var fm struct {
		Metadata map[string]any `json:"metadata"`
	}
	if err := json.Unmarshal(res.Skills[0].Frontmatter, &fm); err != nil {
		t.Fatal(err)
	}
	if v := fm.Metadata["v"]; v != float64(16) {
		t.Fatalf("value 0x10 = %v, want 16", v)
	}
	for _, k := range []string{"0x10", "0o17", "+1"} {
		if _, ok := fm.Metadata[k]; ok {
			t.Errorf("key %s was rendered as %q; YAML reads it as an integer (0x10 → \"16\", 0o17 → \"15\", +1 → \"1\"), as this package renders the same scalar as a value: frontmatter %s", k, k, res.Skills[0].Frontmatter)
		}
	}
	want := map[string]any{"16": "hex", "15": "octal", "1": "plus", "v": float64(16), "true": "yes", "0x11": "quoted"}
	for k, v := range want {
		if fm.Metadata[k] != v {
			t.Errorf("metadata[%q] = %v, want %v: frontmatter %s", k, fm.Metadata[k], v, res.Skills[0].Frontmatter)
		}
	}
}

// YAML (1.2.2 §3.2.1.1) requires the keys of a mapping to be unique: 16
// and 0x10 are the key 16 twice, which a host's YAML parser refuses (or
// keeps one of), and "16" beside 16 would be one JSON member twice. A key
// with a fraction or exponent has no single JSON spelling across hosts.
func TestFrontmatterDuplicateKeyInAnotherSpelling(t *testing.T) {
	for _, c := range []struct{ yaml, want string }{
		{"16: a\n  0x10: b", `good/SKILL.md:6: frontmatter: duplicate key "0x10" (read as "16", like an earlier key)`},
		{"'16': a\n  16: b", `good/SKILL.md:6: frontmatter: duplicate key "16"`},
		{"null: a\n  ~: b", `duplicate key "~" (read as "null"`},
		{"1.5: a", `good/SKILL.md:5: frontmatter: the mapping key 1.5 is a number with a fraction or exponent`},
	} {
		md := "---\nname: good\ndescription: x\nmetadata:\n  " + c.yaml + "\n---\n"
		_, err := skills.New(fstest.MapFS{"good/SKILL.md": {Data: []byte(md)}}, skills.Options{})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: New error = %v, want %q", c.yaml, err, c.want)
		}
	}
}

// The Skills extension, "Frontmatter": the entry's frontmatter "contains
// every field the author wrote, not a curated subset" and "MUST be
// identical in content to the frontmatter of the SKILL.md it describes".
// A YAML document end marker ("...") inside the frontmatter starts a second
// YAML document; the fields after it are silently dropped from the entry
// (and a host's single-document parser, js-yaml load / PyYAML safe_load,
// refuses the frontmatter outright). New must refuse such a SKILL.md, as
// it refuses any other frontmatter it cannot render whole.
func TestFrontmatterOfTwoYAMLDocumentsIsRefused(t *testing.T) {
	fsys := fstest.MapFS{"good/SKILL.md": {Data: skillWith("good", "...\n{allowed-tools: Bash, license: MIT}\n")}}
	_, err := skills.New(fsys, skills.Options{})
	if err == nil {
		s, _ := newServer(t, fsys, skills.Options{})
		res := result[listResult](t, call(t, s, skills.MethodList, ""))
		t.Fatalf("New accepted a frontmatter of two YAML documents and serves %s: the author's allowed-tools and license fields are gone from the entry", res.Skills[0].Frontmatter)
	}
	if !strings.Contains(err.Error(), "good/SKILL.md:5: frontmatter holds a second YAML document") {
		t.Fatalf("New error = %v; want it to name good/SKILL.md:5, where the second document starts", err)
	}
}

// The Skills extension, "Frontmatter" ("identical in content"), and the
// package doc: "scalars typed by the YAML 1.2 core schema (what hosts' YAML
// parsers do)". In YAML an explicit tag decides a node's type whatever its
// style (YAML 1.2.2 §3.3.2, §6.9.1): !!int "3" is the integer 3,
// !!bool "true" the boolean true, !!null "" null, and the non-specific
// tag "!" makes the plain scalar ! 12 the string "12". go.yaml.in/yaml/v4
// — the very parser this package uses — decodes them so; the entry renders
// the first three as strings and the last as the integer 12, so a host
// comparing the entry with its parse of the SKILL.md (Frontmatter
// Verification) finds a discrepancy on every such skill.
func TestFrontmatterExplicitTagDecidesTheType(t *testing.T) {
	extra := "retries: !!int \"3\"\nenabled: !!bool \"true\"\nnothing: !!null \"\"\nversion: ! 12\n"
	fsys := fstest.MapFS{"good/SKILL.md": {Data: skillWith("good", extra)}}
	s, _ := newServer(t, fsys, skills.Options{})
	res := result[listResult](t, call(t, s, skills.MethodList, ""))
	var got map[string]any
	if err := json.Unmarshal(res.Skills[0].Frontmatter, &got); err != nil {
		t.Fatal(err)
	}
	var parsed map[string]any
	if err := yaml.Unmarshal([]byte("name: good\ndescription: d\n"+extra), &parsed); err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(parsed)
	var want map[string]any
	if err := json.Unmarshal(b, &want); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"retries", "enabled", "nothing", "version"} {
		if !reflect.DeepEqual(got[k], want[k]) {
			t.Errorf("frontmatter %s = %#v; the YAML (go.yaml.in/yaml/v4) says %#v", k, got[k], want[k])
		}
	}
}

// A scalar whose explicit tag it cannot satisfy (!!int abc, !!float x) is
// not valid YAML content: go.yaml.in/yaml/v4 refuses it ("cannot construct
// !!str `abc` as a !!int"), so does every host parser. README ("skills.New
// refuses, naming the file, a SKILL.md without frontmatter …"; the doc of
// New: "frontmatter that is not YAML") — New serves it with the tag
// dropped instead, an entry no host can reproduce. So are a scalar tag on
// a collection and a tag outside the core schema (!!timestamp, a local
// !env), which hosts read differently or refuse, and JSON has no type for.
func TestFrontmatterTagItsValueCannotSatisfyIsRefused(t *testing.T) {
	for _, extra := range []string{"retries: !!int abc\n", "ratio: !!float many\n", "flag: !!bool maybe\n",
		"x: !!str {a: 1}\n", "day: !!timestamp 2001-01-01\n", "home: !env HOME\n"} {
		_, err := skills.New(fstest.MapFS{"good/SKILL.md": {Data: skillWith("good", extra)}}, skills.Options{})
		if err == nil || !strings.Contains(err.Error(), "good/SKILL.md:4: ") {
			t.Errorf("%q: New error = %v; want an error naming good/SKILL.md:4", extra, err)
		}
	}
}
