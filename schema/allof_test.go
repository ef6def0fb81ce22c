package schema

import (
	"strings"
	"testing"
)

// TestAllOfRedeclarationKeepsConstraints checks that a definition
// extending a base with allOf and re-declaring a property to document it
// keeps the base's constraints (enum, type, minimum): allOf requires a
// value to fit every part (JSON Schema 2020-12 §10.2.1.1). The generated
// Ext would otherwise accept {"level": 7, "n": -1, "s": "z"}.
func TestAllOfRedeclarationKeepsConstraints(t *testing.T) {
	m, err := loadText(`{"$defs": {
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
	ext := mustType(t, m, "Ext")
	if f := mustField(t, ext, "level"); refText(f.Type) != "string" || len(f.Enum) != 2 || f.Doc != "How loud." {
		t.Errorf("Ext.level: type %s, enum %v, doc %q; want string, [low high] from Base, the later description", refText(f.Type), f.Enum, f.Doc)
	}
	if f := mustField(t, ext, "n"); f.Minimum == nil || *f.Minimum != 0 {
		t.Errorf("Ext.n: minimum %v; want 0 from Base", f.Minimum)
	}
	if f := mustField(t, ext, "s"); len(f.Enum) != 1 {
		t.Errorf("Ext.s: enum %v; want [a] from Base", f.Enum)
	}
}

// TestAllOfRedeclarationNarrows checks that two constraining declarations
// of one property in an allOf both apply: the narrower bounds, the enum
// values both list, the type both allow, the properties of both.
func TestAllOfRedeclarationNarrows(t *testing.T) {
	m, err := loadText(`{"$defs": {
		"Level": {"type": "string", "enum": ["low", "high"]},
		"Base": {"type": "object", "properties": {
			"n": {"type": "number", "minimum": 0, "maximum": 10},
			"e": {"type": "string", "enum": ["a", "b", "c"]},
			"o": {"type": "object", "properties": {"x": {"type": "string"}}, "required": ["x"]},
			"l": {"$ref": "#/$defs/Level"}}},
		"Ext": {"allOf": [{"$ref": "#/$defs/Base"}, {"properties": {
			"n": {"type": "integer", "minimum": 2},
			"e": {"type": "string", "enum": ["c", "b", "z"]},
			"o": {"type": "object", "properties": {"y": {"type": "integer"}}, "required": ["y", "x"]},
			"l": {"type": "string", "description": "The level."}}}]}}}`)
	if err != nil {
		t.Fatal(err)
	}
	ext := mustType(t, m, "Ext")
	if f := mustField(t, ext, "n"); refText(f.Type) != "integer" || f.Minimum == nil || *f.Minimum != 2 || f.Maximum == nil || *f.Maximum != 10 {
		t.Errorf("Ext.n: %s in [%s, %s], want integer in [2, 10]", refText(f.Type), fmtBound(f.Minimum), fmtBound(f.Maximum))
	}
	if f := mustField(t, ext, "e"); strings.Join(f.Enum, ",") != "c,b" {
		t.Errorf("Ext.e: enum %v, want [c b]", f.Enum)
	}
	o := mustField(t, ext, "o").Type.Named
	if o == nil || len(o.Fields) != 2 || !o.Fields[0].Required || !o.Fields[1].Required {
		t.Errorf("Ext.o: %+v, want an object requiring x and y", o)
	}
	if f := mustField(t, ext, "l"); f.Type.Named == nil || f.Type.Named.Name != "Level" || f.Doc != "The level." {
		t.Errorf("Ext.l: %s (doc %q), want Level, its type said again", refText(f.Type), f.Doc)
	}
}

// TestAllOfRedeclarationConflicts checks that declarations of one property
// no value fits, or that the model cannot combine, are errors at the later
// declaration, never one of them dropped.
func TestAllOfRedeclarationConflicts(t *testing.T) {
	for _, tc := range []struct{ base, ext, msg string }{
		{`{"type": "string"}`, `{"type": "integer"}`, `types "string" and "integer" in an allOf`},
		{`{"const": 1}`, `{"const": 2}`, "const 1 and const 2 in an allOf"},
		{`{"type": "string", "enum": ["a"]}`, `{"type": "string", "enum": ["b"]}`, "enums in an allOf without a common value"},
		{`{"$ref": "#/$defs/S"}`, `{"$ref": "#/$defs/T"}`, `$ref "#/$defs/S" and $ref "#/$defs/T" cannot be combined`},
		{`{"anyOf": [{"type": "string"}, {"type": "null"}]}`, `{"type": "string"}`, "a union (anyOf, oneOf) cannot be combined"},
	} {
		_, err := loadText(`{"$defs": {"S": {"type": "string"}, "T": {"type": "integer"},
			"Base": {"type": "object", "properties": {"p": ` + tc.base + `}},
			"Ext": {"allOf": [{"$ref": "#/$defs/Base"}, {"properties": {"p": ` + tc.ext + `}}]}}}`)
		if err == nil || !strings.Contains(err.Error(), "#/$defs/Ext/allOf/1/properties/p") || !strings.Contains(err.Error(), tc.msg) {
			t.Errorf("%s then %s: %v, want an error at #/$defs/Ext/allOf/1/properties/p: …%s…", tc.base, tc.ext, err, tc.msg)
		}
	}
}
