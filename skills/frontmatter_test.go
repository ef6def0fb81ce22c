package skills_test

import (
	"encoding/json"
	"strings"
	"testing"
	"testing/fstest"

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
