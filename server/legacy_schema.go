package server

import (
	"github.com/mcpgen/mcpgen/internal/jsonscan"
)

// Tool definitions for legacy sessions. 2026-07-28 lets the members of a
// tool's inputSchema and outputSchema properties be boolean schemas (the
// schemas NewTool derives for a field of type any are `true`), but every
// initialize-era revision's schema.json types each member of the root
// properties as an object. A legacy tools/list therefore sends those
// members in object form: true becomes {} and false {"not":{}}, the same
// schemas. Anywhere else a boolean schema is valid JSON Schema in every
// revision (draft-06 on; 2020-12 in 2025-11-25), and the revisions' schemas
// leave it open, so it is sent as written: "additionalProperties": false
// stays false (SEP-1613). Before 2025-06-18 the definition also loses its
// outputSchema, and from then on an outputSchema whose root is not an
// object (2026-07-28 allows any).

// legacyToolDefs caches legacyToolDef by definition text, one cache for
// revisions without outputSchema (before 2025-06-18) and one for those with
// it: a tools/list converts each definition once, not on every request.
var legacyToolDefs [2]schemaCache[[]byte]

// legacyToolDef returns the tool definition def (an encoded Tool) as a
// legacy session at version sends it: the boolean schemas among its
// schemas' root properties in object form, and without an outputSchema before 2025-06-18 or one whose
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
		case t.TextEqual(m, "outputSchema") && (!withOutput || !rootTypeIsObject(t.Raw(v))):
			changed = true
		case t.TextEqual(m, "inputSchema"), t.TextEqual(m, "outputSchema"):
			var edits []schemaEdit
			edits = rootPropertySchemas(&t, v, edits)
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

// schemaEdit is a boolean schema at node of a tape, to be written in object
// form.
type schemaEdit struct {
	node  int
	value bool
}

// rootPropertySchemas appends to edits the boolean schemas among the
// members of the root "properties" of the schema at node i, in document
// order.
func rootPropertySchemas(t *jsonscan.Tape, i int, edits []schemaEdit) []schemaEdit {
	if t.Kind(i) != jsonscan.KindObject {
		return edits
	}
	props, found := t.Member(i, "properties")
	if !found || t.Kind(props) != jsonscan.KindObject {
		return edits
	}
	for m := t.FirstMember(props); m >= 0; m = t.NextMember(props, m) {
		switch t.Kind(m + 1) {
		case jsonscan.KindTrue:
			edits = append(edits, schemaEdit{m + 1, true})
		case jsonscan.KindFalse:
			edits = append(edits, schemaEdit{m + 1, false})
		}
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
