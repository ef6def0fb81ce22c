package server

import (
	"github.com/mcpgen/mcpgen/internal/jsonscan"
)

// Tool definitions for legacy sessions. 2026-07-28 lets a tool's
// inputSchema and outputSchema hold boolean subschemas (the schemas NewTool
// derives for a field of type any are `true`), but every initialize-era
// revision types each member of a schema's properties as an object, and
// clients of those revisions read schemas as objects throughout. A legacy
// tools/list therefore sends every subschema as an object: true becomes {}
// and false {"not":{}}, the same schemas in object form. Before
// 2025-06-18 the definition also loses its outputSchema, and from then on
// an outputSchema whose root is not an object (2026-07-28 allows any).

// Keywords whose value is one subschema, an object of subschemas, or an
// array of subschemas (JSON Schema 2020-12, with the draft-07 forms of
// items, additionalItems, definitions and dependencies).
var (
	schemaKeywordsOne = map[string]bool{
		"additionalProperties": true, "unevaluatedProperties": true, "unevaluatedItems": true,
		"additionalItems": true, "contains": true, "propertyNames": true, "not": true,
		"if": true, "then": true, "else": true, "contentSchema": true,
	}
	schemaKeywordsMap = map[string]bool{
		"properties": true, "patternProperties": true, "$defs": true, "definitions": true,
		"dependentSchemas": true, "dependencies": true,
	}
	schemaKeywordsList = map[string]bool{"allOf": true, "anyOf": true, "oneOf": true, "prefixItems": true}
)

// legacyToolDefs caches legacyToolDef by definition text, one cache for
// revisions without outputSchema (before 2025-06-18) and one for those with
// it: a tools/list converts each definition once, not on every request.
var legacyToolDefs [2]schemaCache[[]byte]

// legacyToolDef returns the tool definition def (an encoded Tool) as a
// legacy session at version sends it: its schemas' boolean subschemas in
// object form and without an outputSchema before 2025-06-18 or one whose
// root is not "type": "object". def itself is
// returned when nothing changes or it does not parse.
func legacyToolDef(def []byte, version string) []byte {
	if len(def) == 0 {
		return def
	}
	withOutput := version >= "2025-06-18"
	cache := &legacyToolDefs[0]
	if withOutput {
		cache = &legacyToolDefs[1]
	}
	// The cache holds nil for a definition that stays as it is: def may be
	// a buffer its caller reuses, so it is never kept.
	out, _ := cache.get(def, func() ([]byte, error) {
		if out := convertToolDef(def, withOutput); &out[0] != &def[0] {
			return out, nil
		}
		return nil, nil
	})
	if out == nil {
		return def
	}
	return out
}

// convertToolDef is legacyToolDef without the cache.
func convertToolDef(def []byte, withOutput bool) []byte {
	t, perr := jsonscan.ParseKept(def, jsonscan.MaxArgumentsDepth)
	if perr != nil || t.Kind(0) != jsonscan.KindObject {
		return def
	}
	changed := false
	out := make([]byte, 0, len(def)+16)
	out = append(out, '{')
	for m := t.FirstMember(0); m >= 0; m = t.NextMember(0, m) {
		v := m + 1
		switch {
		case t.TextEqual(m, "outputSchema") && (!withOutput || !objectRooted(&t, v)):
			changed = true
		case t.TextEqual(m, "inputSchema"), t.TextEqual(m, "outputSchema"):
			var edits []schemaEdit
			edits = booleanSubschemas(&t, v, edits)
			changed = changed || len(edits) > 0
			out = appendComma(out)
			out = append(out, t.Raw(m)...)
			out = append(out, ':')
			out = appendEdited(out, &t, v, edits)
		default:
			out = appendMember(out, t.Raw(m), t.Raw(v))
		}
	}
	if !changed {
		return def
	}
	return append(out, '}')
}

// objectRooted reports whether the schema at node i of t is an object
// whose type is "object": the only outputSchema the legacy revisions allow
// (their schema.json makes outputSchema.type required and const "object").
func objectRooted(t *jsonscan.Tape, i int) bool {
	if t.Kind(i) != jsonscan.KindObject {
		return false
	}
	typ, found := t.Member(i, "type")
	return found && t.Kind(typ) == jsonscan.KindString && t.TextEqual(typ, "object")
}

// schemaEdit is a boolean schema at node of a tape, to be written in object
// form.
type schemaEdit struct {
	node  int
	value bool
}

// booleanSubschemas appends to edits the boolean schemas in the schema at
// node i of t (i itself included), in document order.
func booleanSubschemas(t *jsonscan.Tape, i int, edits []schemaEdit) []schemaEdit {
	switch t.Kind(i) {
	case jsonscan.KindTrue:
		return append(edits, schemaEdit{i, true})
	case jsonscan.KindFalse:
		return append(edits, schemaEdit{i, false})
	case jsonscan.KindObject:
	default:
		return edits
	}
	for m := t.FirstMember(i); m >= 0; m = t.NextMember(i, m) {
		v := m + 1
		key := t.Text(m)
		switch {
		case schemaKeywordsOne[key]:
			edits = booleanSubschemas(t, v, edits)
		case key == "items":
			if t.Kind(v) == jsonscan.KindArray { // draft-07's tuple form
				edits = eachSubschema(t, v, edits)
			} else {
				edits = booleanSubschemas(t, v, edits)
			}
		case schemaKeywordsMap[key] && t.Kind(v) == jsonscan.KindObject:
			for n := t.FirstMember(v); n >= 0; n = t.NextMember(v, n) {
				// dependencies may also map to an array of names.
				edits = booleanSubschemas(t, n+1, edits)
			}
		case schemaKeywordsList[key] && t.Kind(v) == jsonscan.KindArray:
			edits = eachSubschema(t, v, edits)
		}
	}
	return edits
}

// eachSubschema is booleanSubschemas for each element of array node arr.
func eachSubschema(t *jsonscan.Tape, arr int, edits []schemaEdit) []schemaEdit {
	for e := t.FirstElement(arr); e >= 0; e = t.NextElement(arr, e) {
		edits = booleanSubschemas(t, e, edits)
	}
	return edits
}

// appendEdited appends the raw value at node i of t with edits applied.
func appendEdited(out []byte, t *jsonscan.Tape, i int, edits []schemaEdit) []byte {
	raw, base := t.Raw(i), t.Offset(i)
	at := 0
	for _, e := range edits {
		start := t.Offset(e.node) - base
		out = append(out, raw[at:start]...)
		if e.value {
			out = append(out, "{}"...)
		} else {
			out = append(out, `{"not":{}}`...)
		}
		at = start + len(t.Raw(e.node))
	}
	return append(out, raw[at:]...)
}
