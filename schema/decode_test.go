package schema

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"
)

// loadText loads schema text the way `mcpgen generate` does.
func loadText(text string) (*Model, error) {
	return LoadBytes("schema.json", []byte(text), Options{Version: "2030-01-01"})
}

// wantErrorAt fails unless err is an ErrorList whose first entry names
// where the problem is: the line (and, when col > 0, the column) of the
// bad value, or a JSON pointer.
func wantErrorAt(t *testing.T, err error, line, col int, pointer string) {
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

// TestWrongKindValueLocatedInFile checks that a value of the wrong JSON
// kind inside a definition is reported at its line and column in the file
// (not counted from the start of the definition) or at its pointer.
func TestWrongKindValueLocatedInFile(t *testing.T) {
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
			_, err := loadText(c.text)
			wantErrorAt(t, err, line, col, c.pointer)
		})
	}
}

// TestBadTypeKeywordLocated checks that a "type" keyword that is neither a
// string nor a list of strings is reported at its line or pointer.
func TestBadTypeKeywordLocated(t *testing.T) {
	text := "{\"$defs\": {\n  \"A\": {\"type\": \"string\"},\n  \"B\": {\"type\": \"object\", \"properties\": {\n    \"x\": {\"type\": 5}\n  }}\n}}"
	_, err := loadText(text)
	wantErrorAt(t, err, 4, 0, "#/$defs/B/properties/x/type")
}

// TestRepeatedMemberNamesRefused checks that a name repeated in one object
// of the schema file (a keyword, a definition, $defs, a property) is an
// error, never resolved silently: encoding/json would keep the last one
// (or merge two $defs), another tool reading the file the first.
func TestRepeatedMemberNamesRefused(t *testing.T) {
	cases := map[string]string{
		"repeated keyword":    `{"$defs": {"A": {"type": "object", "properties": {"x": {"type": "string"}}, "required": ["x"], "required": []}}}`,
		"repeated type":       `{"$defs": {"A": {"type": "string", "type": "integer"}}}`,
		"repeated definition": `{"$defs": {"A": {"type": "string"}, "A": {"type": "object", "properties": {"x": {"type": "string"}}}}}`,
		"repeated $defs":      `{"$defs": {"A": {"type": "string"}}, "$defs": {"B": {"type": "integer"}}}`,
		"repeated property":   `{"$defs": {"A": {"type": "object", "properties": {"x": {"type": "string"}, "x": {"type": "integer"}}}}}`,
		"escaped repetition":  `{"$defs": {"A": {"type": "object", "properties": {"x": {"type": "string"}, "\u0078": {"type": "integer"}}}}}`,
	}
	for name, text := range cases {
		t.Run(name, func(t *testing.T) {
			m, err := loadText(text)
			if err == nil {
				t.Fatalf("loaded %d types from a schema with a repeated member name, want an error naming it", len(m.Types))
			}
			wantErrorAt(t, err, 1, 0, "")
			if !strings.Contains(err.Error(), "repeated") {
				t.Errorf("error %q does not say what is repeated", err)
			}
		})
	}
}

// TestNonUTF8Refused checks that bytes that are not UTF-8 in a string of
// the schema (RFC 8259 §8.1), and an escaped half of a surrogate pair
// (§8.2), are errors at their line and column, not turned into U+FFFD in
// the generated names and values.
func TestNonUTF8Refused(t *testing.T) {
	cases := map[string]string{
		"definition name":   "{\"$defs\": {\"A\xff\": {\"type\": \"string\"}}}",
		"property name":     "{\"$defs\": {\"A\": {\"type\": \"object\", \"properties\": {\"n\xc3\": {\"type\": \"string\"}}}}}",
		"enum value":        "{\"$defs\": {\"A\": {\"type\": \"string\", \"enum\": [\"a\xfe\", \"b\"]}}}",
		"lone surrogate":    "{\"$defs\": {\"A\": {\"type\": \"string\", \"enum\": [\"a\\ud800\", \"b\"]}}}",
		"swapped surrogate": "{\"$defs\": {\"A\": {\"type\": \"string\", \"enum\": [\"a\\udc00\\ud800\", \"b\"]}}}",
	}
	for name, text := range cases {
		t.Run(name, func(t *testing.T) {
			m, err := loadText(text)
			if err == nil {
				var names []string
				for _, ty := range m.Types {
					names = append(names, fmt.Sprintf("%q", ty.Name))
				}
				t.Fatalf("loaded a schema that is not UTF-8 (types %s), want an error", strings.Join(names, ", "))
			}
			bad := strings.IndexFunc(text, func(r rune) bool { return r == utf8.RuneError || r == '\\' })
			wantErrorAt(t, err, 1, bad+1, "")
		})
	}
	// A character written as a surrogate pair, or itself, is fine.
	if _, err := loadText(`{"$defs": {"A": {"type": "string", "enum": ["\ud83d\ude00", "😀 é"]}}}`); err != nil {
		t.Errorf("valid text refused: %v", err)
	}
}

// TestDefsAndDefinitionsRefused checks that a schema holding both "$defs"
// and "definitions" is refused, not loaded from "$defs" alone with the
// definitions under "definitions" left out without a word.
func TestDefsAndDefinitionsRefused(t *testing.T) {
	m, err := loadText(`{"$defs": {"A": {"type": "string"}}, "definitions": {"B": {"type": "integer"}}}`)
	if err != nil {
		wantErrorAt(t, err, 1, 38, "")
		if !strings.Contains(err.Error(), "both") {
			t.Errorf("error %q does not say that both are there", err)
		}
		return // refused: fine
	}
	if m.Type("B") == nil {
		t.Fatalf("definitions/B silently dropped (types: %d); want an error or both sets loaded", len(m.Types))
	}
}
