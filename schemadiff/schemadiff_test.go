package schemadiff

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/schema"
)

func load(t *testing.T, path string) *schema.Model {
	t.Helper()
	m, err := schema.Load(path, schema.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func fixtures(t *testing.T) (old, new *schema.Model) {
	return load(t, filepath.Join("testdata", "old", "2030-01-01", "schema.json")),
		load(t, filepath.Join("testdata", "new", "2030-02-01", "schema.json"))
}

func TestDiffFixtures(t *testing.T) {
	old, new := fixtures(t)
	r := Diff(old, new)
	if r.Old != "2030-01-01" || r.New != "2030-02-01" {
		t.Errorf("versions %s → %s", r.Old, r.New)
	}
	var got []string
	for _, c := range r.Changes {
		got = append(got, string(c.Section)+" | "+string(c.Op)+" | "+c.Subject+" | "+c.Detail)
	}
	want := []string{
		"methods | removed | initialize | request InitializeRequest, result EmptyResult, sent by client",
		"methods | added | server/discover | request DiscoverRequest, result EmptyResult, sent by client",
		"types | added | AudioBlock | struct",
		"types | changed | Block | member ImageBlock removed",
		"types | changed | Block | member AudioBlock added",
		"types | changed | ClientRequest | member InitializeRequest removed",
		"types | changed | ClientRequest | member DiscoverRequest added",
		"types | added | DiscoverRequest | struct",
		"types | added | Fresh | struct",
		"types | removed | Gone | struct",
		"types | removed | GoneError | struct",
		"types | removed | InitializeRequest | struct",
		"types | changed | Level | enum value \"medium\" added",
		"types | added | NewError | struct",
		"types | changed | Shape | kind struct → union",
		"fields | added | Item.added | optional []Level",
		"fields | changed | Item.note | now required",
		"fields | changed | Item.size | type integer → number",
		"error codes | removed | -32001 | Gone",
		"error codes | added | -32002 | New",
		"deprecations | added | Fresh | Deprecated: already.",
		"deprecations | added | Item.old | Deprecated: use note.",
	}
	// Compare as sets first for a readable failure, then the order.
	for _, w := range want {
		if !slices.Contains(got, w) {
			t.Errorf("missing change: %s", w)
		}
	}
	for _, g := range got {
		if !slices.Contains(want, g) {
			t.Errorf("unexpected change: %s", g)
		}
	}
	if !t.Failed() {
		sortedWant := slices.Clone(want)
		if !slices.Equal(got, sortedWant) {
			t.Errorf("order:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	}
	if !r.Has(Methods, Removed, "initialize") || r.Has(Methods, Added, "initialize") {
		t.Error("Has is wrong")
	}
	if n := len(r.Filter(ErrorCodes)); n != 2 {
		t.Errorf("Filter(ErrorCodes) has %d changes", n)
	}
}

func TestDiffSameIsEmpty(t *testing.T) {
	old, _ := fixtures(t)
	again, _ := fixtures(t)
	r := Diff(old, again)
	if len(r.Changes) != 0 {
		t.Errorf("changes between identical models: %+v", r.Changes)
	}
	var text bytes.Buffer
	r.WriteText(&text)
	if text.String() != "Changes from 2030-01-01 to 2030-01-01: none\n" {
		t.Errorf("text = %q", text.String())
	}
	var js bytes.Buffer
	r.WriteJSON(&js)
	if !strings.Contains(js.String(), `"changes": []`) {
		t.Errorf("JSON = %s", js.String())
	}
}

func TestWriteText(t *testing.T) {
	old, new := fixtures(t)
	var buf bytes.Buffer
	if err := Diff(old, new).WriteText(&buf); err != nil {
		t.Fatal(err)
	}
	text := buf.String()
	for _, want := range []string{
		"Changes from 2030-01-01 to 2030-02-01: methods 2, types 13, fields 3, error codes 2, deprecations 2\n",
		"\nmethods\n  - initialize (request InitializeRequest, result EmptyResult, sent by client)\n  + server/discover (",
		"\n  ~ Item.size: type integer → number\n",
		"\nerror codes\n  - -32001 (Gone)\n  + -32002 (New)\n",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("text lacks %q:\n%s", want, text)
		}
	}
	// Deterministic: the same input gives the same bytes.
	var again bytes.Buffer
	Diff(old, new).WriteText(&again)
	if again.String() != text {
		t.Error("text output differs between runs")
	}
}

func TestWriteJSON(t *testing.T) {
	old, new := fixtures(t)
	var buf bytes.Buffer
	if err := Diff(old, new).WriteJSON(&buf); err != nil {
		t.Fatal(err)
	}
	var r Report
	if err := json.Unmarshal(buf.Bytes(), &r); err != nil {
		t.Fatal(err)
	}
	if r.Old != "2030-01-01" || !r.Has(Methods, Added, "server/discover") || len(r.Changes) != 22 {
		t.Errorf("decoded report: %+v", r)
	}
	if strings.Contains(buf.String(), `"detail": ""`) {
		t.Error("empty details are not omitted")
	}
}

func loadText(t *testing.T, version, text string) *schema.Model {
	t.Helper()
	m, err := schema.LoadBytes(version+"/schema.json", []byte(text), schema.Options{Version: version})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestDiffReportsEnforcedConstraints: a change that makes the generated
// package differ is reported: a struct that gains additionalProperties:
// false (its Go field Extra goes, undeclared members are refused), one
// that gains typed additionalProperties, and a field that gains a minimum
// (0 is refused).
func TestDiffReportsEnforcedConstraints(t *testing.T) {
	old := `{"$defs": {"A": {"type": "object", "properties": {"x": {"type": "string"}, "n": {"type": "integer"}}}}}`
	cases := map[string]struct{ text, subject, detail string }{
		"closed object": {`{"$defs": {"A": {"type": "object", "properties": {"x": {"type": "string"}, "n": {"type": "integer"}}, "additionalProperties": false}}}`,
			"A", "undeclared members kept → refused (additionalProperties: false)"},
		"new minimum": {`{"$defs": {"A": {"type": "object", "properties": {"x": {"type": "string"}, "n": {"type": "integer", "minimum": 1}}}}}`,
			"A.n", "type integer → integer, minimum 1"},
		"map values": {`{"$defs": {"A": {"type": "object", "properties": {"x": {"type": "string"}, "n": {"type": "integer"}}, "additionalProperties": {"type": "integer"}}}}`,
			"A", "undeclared members kept → integer (additionalProperties)"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			r := Diff(loadText(t, "2030-01-01", old), loadText(t, "2030-02-01", tc.text))
			if len(r.Changes) == 0 {
				t.Fatalf("no change reported between\n  %s\n  %s", old, tc.text)
			}
			want := Change{Section: Types, Op: Changed, Subject: tc.subject, Detail: tc.detail}
			if tc.subject == "A.n" {
				want.Section = Fields
			}
			if !slices.Contains(r.Changes, want) {
				t.Errorf("changes %+v, want %+v", r.Changes, want)
			}
		})
	}
}

// TestWriteTextOneLinePerChange: the text report has one line per change
// ("Lines start with + (added), - (removed) or ~ (changed)", mcpgen schema
// diff --help). A deprecation notice is a paragraph of a description that
// may wrap over several lines, and a property name may hold any character;
// printed raw, they gave lines that were no change at all, or that read as
// changes that did not happen ("- A.x", though A.x is unchanged). The
// paragraph is joined into one line, and the name's line break escaped.
func TestWriteTextOneLinePerChange(t *testing.T) {
	old := loadText(t, "2030-01-01", `{"$defs": {"A": {"type": "object", "properties": {"x": {"type": "string"}}}}}`)
	new := loadText(t, "2030-02-01", `{"$defs": {"A": {"type": "object", "properties": {
		"x": {"type": "string"},
		"y\n  - A.x (optional string)": {"type": "string"},
		"z": {"type": "string", "description": "Deprecated: use x, which takes\nthe same values."}
	}}}}`)
	r := Diff(old, new)
	var buf bytes.Buffer
	if err := r.WriteText(&buf); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimRight(buf.String(), "\n"), "\n")
	var changeLines int
	for _, line := range lines[1:] {
		switch {
		case line == "", line == string(Methods), line == string(Types), line == string(Fields), line == string(ErrorCodes), line == string(Deprecations):
		case strings.HasPrefix(line, "  + "), strings.HasPrefix(line, "  - "), strings.HasPrefix(line, "  ~ "):
			changeLines++
		default:
			t.Errorf("line %q is neither a heading nor a change", line)
		}
	}
	if changeLines != len(r.Changes) {
		t.Errorf("%d change lines for %d changes:\n%s", changeLines, len(r.Changes), buf.String())
	}
	if strings.Contains(buf.String(), "\n  - A.x") {
		t.Errorf("the report shows A.x removed, though it is unchanged:\n%s", buf.String())
	}
	for _, want := range []string{`  + A.y\n  - A.x (optional string)`, "(Deprecated: use x, which takes the same values.)"} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("the report lacks %q:\n%s", want, buf.String())
		}
	}
}
