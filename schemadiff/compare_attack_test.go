package schemadiff

import (
	"testing"

	"github.com/mcpgen/mcpgen/schema"
)

func loadText(t *testing.T, version, text string) *schema.Model {
	t.Helper()
	m, err := schema.LoadBytes(version+"/schema.json", []byte(text), schema.Options{Version: version})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestAttackDiffSeesWhatTheGeneratorEnforces: between two revisions that
// generate different packages, `schema diff` reports "none". A definition
// that gains "additionalProperties": false loses its Go field Extra (a
// breaking API change) and its decoder now refuses every undeclared member
// that it used to keep; a field that gains "minimum": 1 makes the decoder
// and encoder refuse 0. The differ compares neither Type.Closed/Open/Extra
// nor the bounds of a field (Ref.Check).
// Held to: README "Regenerating": `mcpgen schema diff` shows "what
// changed: types, fields, methods, error codes, deprecations"; schema
// --help "Diff shows what changed between two revisions".
func TestAttackDiffSeesWhatTheGeneratorEnforces(t *testing.T) {
	old := `{"$defs": {"A": {"type": "object", "properties": {"x": {"type": "string"}, "n": {"type": "integer"}}}}}`
	cases := map[string]string{
		"closed object": `{"$defs": {"A": {"type": "object", "properties": {"x": {"type": "string"}, "n": {"type": "integer"}}, "additionalProperties": false}}}`,
		"new minimum":   `{"$defs": {"A": {"type": "object", "properties": {"x": {"type": "string"}, "n": {"type": "integer", "minimum": 1}}}}}`,
		"map values":    `{"$defs": {"A": {"type": "object", "properties": {"x": {"type": "string"}, "n": {"type": "integer"}}, "additionalProperties": {"type": "integer"}}}}`,
	}
	for name, text := range cases {
		t.Run(name, func(t *testing.T) {
			r := Diff(loadText(t, "2030-01-01", old), loadText(t, "2030-02-01", text))
			if len(r.Changes) == 0 {
				t.Errorf("no change reported between\n  %s\n  %s", old, text)
			}
		})
	}
}
