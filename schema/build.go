package schema

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"
)

// builder turns schema nodes into model types.
type builder struct {
	file   string
	prefix string // "#/$defs/" or "#/definitions/"
	defs   map[string]*node
	ov     Overrides

	types  map[string]*Type // by name
	inline map[string]*Type // inline schemas by canonical text, for sharing
	done   map[*Type]bool
	errs   ErrorList

	overridden map[*Type]bool  // inline types named by Overrides.Names
	used       map[string]bool // the Overrides entries that matched, as "Table key"

	// The Overrides entries keyed by Place, resolved to the JSON pointer
	// of the member (labels maps "Table pointer" back to the Place), and
	// the entries that resolved to nothing, as "Table Place".
	names     map[string]string
	raw       map[string]bool
	relaxed   map[string]string
	labels    map[string]string
	unmatched []string

	ts        []byte             // schema.ts, for @category
	resultPtr map[*Method]string // the member carrying a request's result, when a response states it

	canon  map[*node]string      // canonical keys, computed once per node
	kinds  map[*node][]string    // JSON kinds of union members, once per node
	alts   map[altKey]*altResult // definitions as union alternatives, once each (nil while expanding)
	merged map[*node]*node       // allOf schemas merged, once each (nil while merging)

	declared  int  // properties the schema declares, at any depth
	flattened int  // properties of the allOf schemas merged so far
	overFlat  bool // flattened went over its bound (reported once)
	merging   int  // allOf merges in progress, each within the one before
}

func newBuilder(file, prefix string, defs map[string]*node, ov Overrides) *builder {
	return &builder{
		file: file, prefix: prefix, defs: defs, ov: ov,
		types:      map[string]*Type{},
		inline:     map[string]*Type{},
		done:       map[*Type]bool{},
		canon:      map[*node]string{},
		overridden: map[*Type]bool{},
		used:       map[string]bool{},
		kinds:      map[*node][]string{},
		alts:       map[altKey]*altResult{},
		merged:     map[*node]*node{},
		resultPtr:  map[*Method]string{},
		names:      map[string]string{},
		raw:        map[string]bool{},
		relaxed:    map[string]string{},
		labels:     map[string]string{},
	}
}

func (b *builder) errorf(ptr, format string, args ...any) {
	b.errs = append(b.errs, &Error{File: b.file, Pointer: ptr, Msg: fmt.Sprintf(format, args...)})
}

func (b *builder) build() *Model {
	names := sortedKeys(b.defs)
	for _, name := range names {
		b.types[name] = &Type{Name: name, Pointer: b.prefix + name}
	}
	for _, name := range names {
		b.checkKeywords(b.defs[name], b.prefix+name, 0)
	}
	before := len(b.errs)
	if b.checkAliasCycles(names); len(b.errs) > before {
		return &Model{byName: b.types} // every later pass follows aliases
	}
	for _, name := range names {
		if key := b.canonical(b.defs[name]); b.inline[key] == nil {
			b.inline[key] = b.types[name]
		}
	}
	for _, name := range names {
		b.define(b.types[name], b.defs[name])
	}
	m := &Model{byName: b.types}
	for _, name := range sortedKeys(b.types) {
		m.Types = append(m.Types, b.types[name])
	}
	resolveAliases(m.Types)
	b.checkNullElements(m)
	openMetaObjects(m)
	if len(b.errs) == 0 {
		b.checkRequiredCycles(m)
	}
	b.methods(m) // also with errors: the overrides are resolved on it
	return m
}

// MaxDepth is how deeply schemas may nest (properties within properties,
// items, unions…). Deeper nesting is an error, which bounds the recursion
// of every later pass.
const MaxDepth = 128

// checkOverrides reports the entries of the overrides table that matched
// nothing, on the revision the table is written for.
func (b *builder) checkOverrides(version string) {
	if b.ov.Revision != "" && b.ov.Revision != version {
		return
	}
	var keys []string
	for k := range b.names {
		keys = append(keys, "Names "+k)
	}
	for k := range b.raw {
		keys = append(keys, "Raw "+k)
	}
	for k := range b.relaxed {
		keys = append(keys, "Relaxed "+k)
	}
	keys = append(keys, b.unmatched...)
	for k := range b.ov.Presence {
		keys = append(keys, "Presence "+k)
	}
	for k := range b.ov.Directions {
		keys = append(keys, "Directions "+k)
	}
	for _, r := range b.ov.Tags {
		keys = append(keys, "Tags "+r.Property)
		for typ := range r.Values {
			keys = append(keys, "Tags "+r.Property+" "+typ)
		}
	}
	slices.Sort(keys)
	for _, k := range keys {
		if !b.used[k] {
			table, key, _ := strings.Cut(k, " ")
			if label, ok := b.labels[k]; ok {
				key = label
			}
			b.errs = append(b.errs, &Error{File: b.file, Msg: fmt.Sprintf("override %s[%q] matches nothing in this schema: update the overrides table", table, key)})
		}
	}
}

// checkKeywords reports keywords the loader does not understand, and
// nesting deeper than MaxDepth.
func (b *builder) checkKeywords(n *node, ptr string, depth int) {
	if n == nil {
		return
	}
	if depth > MaxDepth {
		b.errorf(ptr, "schema nested more than %d levels deep", MaxDepth)
		return
	}
	if n.False {
		b.errorf(ptr, "unsupported boolean schema false (it admits no value): leave the member out, or use additionalProperties: false")
		return
	}
	for _, k := range n.keywords {
		if !knownKeywords[k] {
			b.errorf(ptr, "unsupported JSON Schema keyword %q", k)
		}
	}
	b.checkValueTypes(n, ptr)
	b.checkInt64(n, ptr)
	b.checkByteEnum(n, ptr)
	b.declared += len(n.Properties)
	for _, k := range sortedKeys(n.Properties) {
		b.checkKeywords(n.Properties[k], ptr+"/properties/"+escapePointer(k), depth+1)
	}
	b.checkKeywords(n.Items, ptr+"/items", depth+1)
	if n.AdditionalProperties != nil {
		b.checkKeywords(n.AdditionalProperties.Schema, ptr+"/additionalProperties", depth+1)
	}
	for _, kw := range []string{"allOf", "anyOf", "oneOf"} {
		list := map[string][]*node{"anyOf": n.AnyOf, "oneOf": n.OneOf, "allOf": n.AllOf}[kw]
		for i, c := range list {
			b.checkKeywords(c, fmt.Sprintf("%s/%s/%d", ptr, kw, i), depth+1)
		}
	}
}

// checkByteEnum refuses an enum or a const on a string of format byte:
// the values are []byte in Go, which no enum check compares.
func (b *builder) checkByteEnum(n *node, ptr string) {
	if byteEnum(n) {
		b.errorf(ptr, "unsupported enum or const on a string of format byte: leave the values out, or drop the format")
	}
}

func byteEnum(n *node) bool {
	return hasType(n, "string") && n.Format == "byte" && (len(n.Enum) > 0 || n.Const != nil)
}

// checkCombined applies to x, the combination in an allOf of two
// declarations a and c of one property found at ptr, the checks
// checkKeywords applies to each declaration: the type of one and the enum,
// const, bounds or format of the other may be refused only together
// ({"type": "integer"} and {"enum": [1e30]}, or {"enum": ["x"]}). What
// either declaration is refused for alone was reported at its own pointer.
func (b *builder) checkCombined(a, c, x *node, ptr string) {
	if !refusesValueTypes(a) && !refusesValueTypes(c) {
		b.checkValueTypes(x, ptr)
	}
	if !outsideInt64(a) && !outsideInt64(c) {
		b.checkInt64(x, ptr)
	}
	if !byteEnum(a) && !byteEnum(c) {
		b.checkByteEnum(x, ptr)
	}
}

// checkValueTypes reports an enum value or a const that the schema's own
// type refuses ({"type": "integer", "enum": ["1"]}): no value could then be
// both, and the type generated for it would refuse every message. The
// first bad enum value is reported, at its pointer.
func (b *builder) checkValueTypes(n *node, ptr string) {
	badEnum, badConst := valueTypeMismatch(n)
	if badEnum >= 0 {
		b.errorf(fmt.Sprintf("%s/enum/%d", ptr, badEnum), "enum value %s is not of the declared type %s", compact(n.Enum[badEnum]), typeText(n.Type))
	}
	if badConst {
		b.errorf(ptr+"/const", "const %s is not of the declared type %s", compact(n.Const), typeText(n.Type))
	}
}

// valueTypeMismatch finds what checkValueTypes refuses: the index of the
// first enum value the declared type refuses (or -1), and whether it
// refuses the const.
func valueTypeMismatch(n *node) (badEnum int, badConst bool) {
	if len(n.Type) == 0 {
		return -1, false
	}
	badEnum = slices.IndexFunc(n.Enum, func(v json.RawMessage) bool { return !ofType(v, n.Type) })
	return badEnum, n.Const != nil && !ofType(n.Const, n.Type)
}

// refusesValueTypes reports whether checkValueTypes refuses n.
func refusesValueTypes(n *node) bool {
	badEnum, badConst := valueTypeMismatch(n)
	return badEnum >= 0 || badConst
}

// ofType reports whether a JSON value is of one of the JSON Schema types
// listed (an integer is a number without a fractional part, as in JSON
// Schema: 1.0 is an integer).
func ofType(v json.RawMessage, types typeList) bool {
	var x any
	d := json.NewDecoder(bytes.NewReader(v))
	d.UseNumber()
	if d.Decode(&x) != nil {
		return false
	}
	for _, t := range types {
		switch x := x.(type) {
		case nil:
			if t == "null" {
				return true
			}
		case bool:
			if t == "boolean" {
				return true
			}
		case string:
			if t == "string" {
				return true
			}
		case json.Number:
			if t == "number" {
				return true
			}
			if f, err := x.Float64(); t == "integer" && err == nil && f == math.Trunc(f) {
				return true
			}
		case []any:
			if t == "array" {
				return true
			}
		case map[string]any:
			if t == "object" {
				return true
			}
		}
	}
	return false
}

// typeText is a type keyword as written: "integer", or ["string","null"].
func typeText(types typeList) string {
	if len(types) == 1 {
		return fmt.Sprintf("%q", types[0])
	}
	data, _ := json.Marshal([]string(types))
	return string(data)
}

// checkAliasCycles reports definitions that are only a $ref to another
// and come back to themselves (A = B, B = A): no type is behind them.
// Each definition is walked once: a walk stops at a definition an
// earlier walk finished, so a chain of n aliases costs n steps, not n².
func (b *builder) checkAliasCycles(names []string) {
	const onPath = -1
	state := map[string]int{} // 0 unvisited, onPath, or 1 finished
	for _, name := range names {
		var path []string
		at := map[string]int{} // index in path of the definitions on it
		for cur := name; ; {
			n := b.defs[cur]
			if n == nil || n.Ref == "" || len(n.Properties) > 0 || state[cur] == 1 {
				break
			}
			if state[cur] == onPath {
				cycle := append(path[at[cur]:], cur)
				b.errorf(b.prefix+name+"/$ref", "alias cycle: %s (each is only a $ref to the next)", strings.Join(cycle, " → "))
				break
			}
			state[cur] = onPath
			at[cur] = len(path)
			path = append(path, cur)
			target, ok := strings.CutPrefix(n.Ref, b.prefix)
			if !ok {
				break
			}
			cur = unescapePointer(target)
		}
		for _, p := range path {
			state[p] = 1
		}
	}
}

// target resolves a $ref to the named type it points at.
func (b *builder) target(ref, ptr string) *Type {
	name, ok := strings.CutPrefix(ref, b.prefix)
	if !ok || strings.Contains(name, "/") {
		b.errorf(ptr, "unsupported $ref %q: only references to %s<name> are supported", ref, b.prefix)
		return nil
	}
	t := b.types[unescapePointer(name)]
	if t == nil {
		b.errorf(ptr, "dangling $ref %q: no such definition", ref)
	}
	return t
}

// define fills in a named type from its schema.
func (b *builder) define(t *Type, n *node) {
	if b.done[t] {
		return
	}
	b.done[t] = true
	t.Doc = n.Description
	t.Deprecated = deprecation(n)
	ptr := t.Pointer
	switch {
	case n.Ref != "" && hasObjectKeywords(n):
		// $ref beside object keywords: both apply, as in an allOf.
		b.defineStruct(t, b.mergeAllOf(n, ptr))
	case n.Ref != "":
		b.checkRefSiblings(n, ptr)
		t.Kind = KindAlias
		if target := b.target(n.Ref, ptr+"/$ref"); target != nil {
			t.Elem = &Ref{Named: target}
		}
	case len(n.AnyOf) > 0 || len(n.OneOf) > 0:
		b.defineUnion(t, n)
	case len(n.AllOf) > 0:
		b.defineStruct(t, b.mergeAllOf(n, ptr))
	case len(n.Type) > 1 && len(n.Enum) > 0:
		b.defineTypedEnum(t, n, ptr)
	case len(n.Type) > 1:
		b.defineScalarUnion(t, n, ptr) // "null" stays allowed: it decodes as nil and encodes again
	case hasType(n, "object") || n.Properties != nil:
		if n.Properties == nil && n.AdditionalProperties != nil && n.AdditionalProperties.Allowed {
			t.Kind = KindMap
			t.Elem = b.elemRef(n.AdditionalProperties.Schema, ptr+"/additionalProperties", t.Name+"Value")
		} else if n.Properties == nil {
			t.Kind = KindMap
			t.Elem = &Ref{Any: true}
		} else {
			b.defineStruct(t, n)
		}
	case hasType(n, "array"):
		t.Kind = KindArray
		t.Elem = b.elemRef(n.Items, ptr+"/items", t.Name+"Item")
	case hasType(n, "string") && len(n.Enum) > 0:
		t.Kind = KindEnum
		t.Enum = b.stringEnum(n.Enum, ptr+"/enum")
	case len(n.Type) == 1 && len(n.Enum) > 0:
		// An integer, number or boolean enum: a scalar whose value must be
		// one of the literals.
		t.Kind = KindScalar
		t.Elem = &Ref{Prim: b.prim(n.Type[0], ptr+"/type")}
		t.Literals = literals(n.Enum)
		t.Minimum, t.Maximum = bounds(n, t.Elem.Prim)
	case len(n.Type) == 1:
		t.Kind = KindScalar
		t.Elem = &Ref{Prim: b.prim(n.Type[0], ptr+"/type")}
		t.Format = n.Format
		t.Minimum, t.Maximum = bounds(n, t.Elem.Prim)
		if n.Const != nil {
			t.Literals = literals([]json.RawMessage{n.Const})
		}
	case n.isEmpty():
		t.Kind = KindAny
	default:
		b.errorf(ptr, "unsupported schema: no type, $ref or union")
	}
}

func hasType(n *node, name string) bool { return slices.Contains(n.Type, name) }

func (b *builder) prim(name, ptr string) Prim {
	switch p := Prim(name); p {
	case String, Integer, Number, Boolean:
		return p
	}
	b.errorf(ptr, "unsupported type %q", name)
	return String
}

// stringEnum decodes the values of a string enum, in order; null, which
// only a type listing "null" admits (checkValueTypes), is left out: it is
// the nullability of the type or member. A value equal to an earlier one
// ("a" twice, or "a" and "\u0061") allows nothing more and is left out, as
// it would make a second constant of one value.
func (b *builder) stringEnum(values []json.RawMessage, ptr string) []string {
	out := make([]string, 0, len(values))
	seen := make(map[string]bool, len(values))
	for i, v := range values {
		if isNullValue(v) {
			continue
		}
		var s string
		if err := json.Unmarshal(v, &s); err != nil {
			b.errorf(fmt.Sprintf("%s/%d", ptr, i), "unsupported enum value %s: only strings are supported", v)
			continue
		}
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}

// bounds are a schema's minimum and maximum, when it is a number: JSON
// Schema applies them to numbers only.
func bounds(n *node, p Prim) (lo, hi *float64) {
	if p != Integer && p != Number {
		return nil, nil
	}
	return n.Minimum, n.Maximum
}

// literals are enum values as compact JSON text, null left out (as in
// stringEnum).
func literals(values []json.RawMessage) []string {
	out := make([]string, 0, len(values))
	for _, v := range values {
		if !isNullValue(v) {
			out = append(out, string(compact(v)))
		}
	}
	return out
}

func isNullValue(v json.RawMessage) bool { return string(bytes.TrimSpace(v)) == "null" }

// enumNull reports whether an enum lists null.
func enumNull(values []json.RawMessage) bool { return slices.ContainsFunc(values, isNullValue) }

// nonNull are the types of a type keyword other than "null".
func nonNull(types typeList) []string {
	return slices.DeleteFunc(slices.Clone(types), func(s string) bool { return s == "null" })
}

// defineTypedEnum fills in an enum definition whose type lists several
// names: a string enum that may be null ("type": ["string", "null"],
// "enum": ["a", null]) is an enum whose empty value stands for null; an
// enum of another single type may leave null out. Other combinations are
// errors rather than a scalar union that would drop the enum.
func (b *builder) defineTypedEnum(t *Type, n *node, ptr string) {
	types := nonNull(n.Type)
	if len(types) != 1 {
		b.errorf(ptr+"/type", "unsupported enum with several types: give it one type (and \"null\" if null is a value)")
		return
	}
	switch {
	case types[0] == "string":
		t.Kind = KindEnum
		t.Enum = b.stringEnum(n.Enum, ptr+"/enum")
		t.Nullable = enumNull(n.Enum)
		if i := slices.Index(t.Enum, ""); i >= 0 && t.Nullable {
			b.errorf(ptr+"/enum", "unsupported enum listing both \"\" and null: the empty value of a nullable enum stands for null")
		}
	case enumNull(n.Enum):
		b.errorf(ptr+"/enum", "unsupported nullable %s enum definition: declare the enum without null, and null where it is used (anyOf [{\"$ref\": …}, {\"type\": \"null\"}])", types[0])
	default:
		// null is in the type but not among the values: it is not allowed.
		t.Kind = KindScalar
		t.Elem = &Ref{Prim: b.prim(types[0], ptr+"/type")}
		t.Literals = literals(n.Enum)
		t.Minimum, t.Maximum = bounds(n, t.Elem.Prim)
	}
}

func (b *builder) defineScalarUnion(t *Type, n *node, ptr string) {
	t.Kind = KindScalarUnion
	for _, name := range n.Type {
		if name == "null" {
			t.Prims = append(t.Prims, Null)
			continue
		}
		t.Prims = append(t.Prims, b.prim(name, ptr+"/type"))
	}
	if (hasType(n, "integer") || hasType(n, "number")) && (n.Minimum != nil || n.Maximum != nil) {
		// {"type": ["integer", "string"], "minimum": 1}: its numbers are
		// bounded, as those of one anyOf member would be.
		t.Alternatives = []*Alternative{{At: "type", Types: slices.Clone(t.Prims), Minimum: n.Minimum, Maximum: n.Maximum}}
	}
}

// defineStruct fills in an object type with declared properties.
func (b *builder) defineStruct(t *Type, n *node) {
	t.Kind = KindStruct
	required := map[string]bool{}
	for _, r := range n.Required {
		if n.Properties[r] == nil && !(n.AdditionalProperties != nil && n.AdditionalProperties.Allowed) {
			b.errorf(t.Pointer+"/required", "required property %q is not declared", r)
		}
		required[r] = true
	}
	for _, name := range sortedKeys(n.Properties) {
		p := nullableForm(n.Properties[name])
		ptr := t.Pointer + "/properties/" + escapePointer(name)
		f := &Field{
			Name:       name,
			Pointer:    ptr,
			Doc:        p.Description,
			Deprecated: deprecation(p),
			Required:   required[name],
			Const:      p.Const,
			Default:    p.Default,
			Format:     p.Format,
			Minimum:    p.Minimum,
			Maximum:    p.Maximum,
		}
		switch {
		case len(p.Enum) > 0 && len(nonNull(p.Type)) > 1:
			b.errorf(ptr+"/type", "unsupported enum with several types: give it one type (and \"null\" if null is a value)")
		case hasType(p, "string") && len(p.Enum) > 0:
			if f.Enum = b.stringEnum(p.Enum, ptr+"/enum"); len(f.Enum) == 0 {
				f.Enum, f.Literals = nil, []string{"null"} // only null: no other value
			}
		case len(p.Enum) > 0 && len(nonNull(p.Type)) == 1:
			if f.Literals = literals(p.Enum); len(f.Literals) == 0 {
				f.Literals = []string{"null"}
			}
		case len(p.Enum) > 0:
			b.errorf(ptr+"/enum", "unsupported enum without a single type: give it \"type\"")
		}
		f.Presence = b.ov.Presence[name] && !f.Required
		if b.ov.Presence[name] {
			b.used["Presence "+name] = true
		}
		if rule := b.tagRule(name); rule != nil && hasType(p, "string") && p.Const == nil {
			b.used["Tags "+name] = true
			f.Tag = rule.Otherwise
			if v, ok := rule.Values[t.Name]; ok {
				b.used["Tags "+name+" "+t.Name] = true
				f.Tag = v
			}
		}
		if _, ok := b.relaxed[ptr]; ok {
			b.used["Relaxed "+ptr] = true
		}
		if why, ok := b.relaxed[ptr]; ok && f.Required {
			f.Required, f.Relaxed = false, why
		}
		if b.raw[ptr] {
			b.used["Raw "+ptr] = true
			f.Type = &Ref{Raw: true}
			if len(p.Type) == 1 {
				f.Type.RawKind = p.Type[0]
			}
		} else {
			f.Type = b.ref(p, ptr, t.Name+goCase(name))
			if len(p.Enum) > 0 && hasType(p, "null") {
				// "type": [T, "null"] with an enum: null is a value only
				// if the enum lists it.
				f.Type.Nullable = enumNull(p.Enum)
			}
		}
		t.Fields = append(t.Fields, f)
	}
	if a := n.AdditionalProperties; a != nil && !a.Allowed {
		t.Closed = true
	}
	if a := n.AdditionalProperties; a != nil && a.Allowed {
		t.Open = true
		if a.Schema != nil && !a.Schema.isEmpty() {
			t.Extra = b.elemRef(a.Schema, t.Pointer+"/additionalProperties", t.Name+"Value")
		}
	}
}

// refAnnotations are the keywords that may stand beside a $ref without
// changing what it admits.
var refAnnotations = map[string]bool{
	"$ref": true, "description": true, "title": true, "$comment": true,
	"deprecated": true, "default": true, "examples": true,
}

// checkRefSiblings reports keywords beside a $ref that would narrow it in a
// way the model cannot keep (a $ref beside object keywords is merged as an
// allOf instead).
func (b *builder) checkRefSiblings(n *node, ptr string) {
	for _, k := range n.keywords {
		if !refAnnotations[k] {
			b.errorf(ptr, "unsupported keyword %q beside $ref: only object keywords (properties, required, additionalProperties, allOf) and annotations may stand beside a $ref", k)
		}
	}
}

// hasObjectKeywords reports whether a schema constrains an object.
func hasObjectKeywords(n *node) bool {
	return n.Properties != nil || len(n.Required) > 0 || n.AdditionalProperties != nil || len(n.AllOf) > 0
}

// ref turns a property (or item) schema into a type expression, naming an
// inline object or union after hint.
func (b *builder) ref(n *node, ptr, hint string) *Ref {
	if n == nil || n.isEmpty() {
		return &Ref{Any: true}
	}
	if slices.Contains(n.Type, "null") && !(len(n.Type) > 2 && len(n.Enum) == 0 && n.Const == nil) {
		// A union of primitives ({"type": ["integer", "string", "null"]})
		// keeps null among its types, as a definition does: its Value is
		// nil for null.
		c := *n
		c.Type = slices.DeleteFunc(slices.Clone(n.Type), func(s string) bool { return s == "null" })
		r := b.ref(&c, ptr, hint)
		r.Nullable = true
		return r
	}
	if other, ok := orNull(n); ok {
		// anyOf/oneOf [X, {type: null}]: X, or null.
		r := b.ref(other, ptr, hint)
		r.Nullable = true
		return r
	}
	switch {
	case n.Ref != "" && hasObjectKeywords(n):
		return &Ref{Named: b.inlineType(n, ptr, hint)}
	case n.Ref != "":
		b.checkRefSiblings(n, ptr)
		if t := b.target(n.Ref, ptr+"/$ref"); t != nil {
			return &Ref{Named: t}
		}
		return &Ref{Any: true}
	case len(n.AnyOf) > 0 || len(n.OneOf) > 0 || len(n.AllOf) > 0 || len(n.Type) > 1:
		return &Ref{Named: b.inlineType(n, ptr, hint)}
	case hasType(n, "array"):
		return &Ref{Array: b.elemRef(n.Items, ptr+"/items", hint+"Item")}
	case hasType(n, "object") || n.Properties != nil:
		if n.Properties == nil {
			if a := n.AdditionalProperties; a != nil && a.Allowed {
				return &Ref{Map: b.elemRef(a.Schema, ptr+"/additionalProperties", hint+"Value")}
			}
			return &Ref{Map: &Ref{Any: true}}
		}
		return &Ref{Named: b.inlineType(n, ptr, hint)}
	case len(n.Type) == 1:
		return &Ref{Prim: b.prim(n.Type[0], ptr+"/type"), Base64: n.Type[0] == "string" && n.Format == "byte"}
	case n.Const != nil:
		return constRef(n.Const)
	}
	b.errorf(ptr, "unsupported schema: no type, $ref or union")
	return &Ref{Any: true}
}

// elemRef is ref for an array's items or an object's additionalProperties:
// a primitive element keeps its enum, const and bounds as a Check, which
// the generated code enforces element by element; an element with a Check
// that may be null stays Nullable (a pointer in Go, nil for null, which
// the Check lets through). What cannot be kept is an error, never dropped:
// an enum or const on an element that is not a primitive.
func (b *builder) elemRef(n *node, ptr, hint string) *Ref {
	n = nullableForm(n)
	r := b.ref(n, ptr, hint)
	if n == nil || (len(n.Enum) == 0 && n.Const == nil && n.Minimum == nil && n.Maximum == nil) {
		return r
	}
	prim := r.Named == nil && r.Array == nil && r.Map == nil && !r.Any && !r.Raw && r.Prim != ""
	if !prim {
		if len(n.Enum) > 0 || n.Const != nil {
			b.errorf(ptr, "unsupported enum or const on array items or map values that are not a string, number or boolean: declare a named type")
		}
		return r
	}
	if len(n.Enum) > 0 && r.Nullable && !enumNull(n.Enum) || n.Const != nil && r.Nullable && !isNullValue(n.Const) {
		r.Nullable = false // "type": [T, "null"], but the enum or const leaves null out
	}
	c := &Check{}
	switch {
	case n.Const != nil:
		c.Literals = literals([]json.RawMessage{n.Const})
	case len(n.Enum) > 0 && r.Prim == String:
		c.Enum = b.stringEnum(n.Enum, ptr+"/enum")
	case len(n.Enum) > 0:
		c.Literals = literals(n.Enum)
	}
	if n.Const != nil && isNullValue(n.Const) || len(n.Enum) > 0 && len(c.Enum)+len(c.Literals) == 0 {
		c.Literals = []string{"null"}
	}
	c.Minimum, c.Maximum = bounds(n, r.Prim)
	switch {
	case len(c.Enum)+len(c.Literals) == 0 && c.Minimum == nil && c.Maximum == nil:
		return r // bounds on a string: JSON Schema applies them to numbers only
	case r.Base64:
		// refused by checkKeywords
	default:
		r.Check = c
	}
	return r
}

// nullableForm writes anyOf/oneOf [P, {"type": "null"}], where P is a
// primitive with an enum, a const or bounds, as the schema it stands for:
// "type": [T, "null"] with P's bounds, and P's enum or const plus null as
// its enum, so that a member or an element keeps P's constraints (ref
// alone would keep P's type only). Other schemas are returned as they are.
func nullableForm(n *node) *node {
	if n == nil {
		return nil
	}
	p, ok := orNull(n)
	if !ok || p.Ref != "" || len(p.AnyOf)+len(p.OneOf)+len(p.AllOf) > 0 || p.Properties != nil || p.Items != nil {
		return n
	}
	if len(p.Enum) == 0 && p.Const == nil && p.Minimum == nil && p.Maximum == nil {
		return n
	}
	types := nonNull(p.Type)
	if len(types) == 0 && p.Const != nil {
		types = []string{valueKind(p.Const)}
	}
	if len(types) != 1 || types[0] == "" || types[0] == "object" || types[0] == "array" {
		return n
	}
	m := *p
	m.Type = typeList{types[0], "null"}
	if m.Description == "" {
		m.Description = n.Description
	}
	if m.Const != nil {
		m.Enum, m.Const = []json.RawMessage{m.Const}, nil
	}
	if len(m.Enum) > 0 && !enumNull(m.Enum) {
		m.Enum = append(slices.Clone(m.Enum), json.RawMessage("null"))
	}
	m.keywords = append(slices.Clone(p.keywords), "type")
	return &m
}

// orNull recognises a union of one schema and {"type": "null"}, and
// returns the schema.
func orNull(n *node) (*node, bool) {
	list := n.AnyOf
	if len(list) == 0 {
		list = n.OneOf
	}
	if len(list) != 2 || len(n.AnyOf) > 0 && len(n.OneOf) > 0 || len(n.AllOf) > 0 {
		return nil, false
	}
	isNull := func(m *node) bool { return len(m.Type) == 1 && m.Type[0] == "null" && len(m.keywords) <= 2 }
	switch {
	case isNull(list[1]) && !isNull(list[0]):
		return list[0], true
	case isNull(list[0]) && !isNull(list[1]):
		return list[1], true
	}
	return nil, false
}

// constRef is the type of a member whose schema is only a const: the
// kind of the const's JSON value (an object is a map of any value, an
// array a list of any value, null any value), the const itself being
// checked when decoding. A number with a fraction or an exponent is a
// number, another an integer.
func constRef(v json.RawMessage) *Ref {
	v = bytes.TrimSpace(v)
	switch {
	case len(v) > 0 && v[0] == '"':
		return &Ref{Prim: String}
	case string(v) == "true" || string(v) == "false":
		return &Ref{Prim: Boolean}
	case len(v) > 0 && v[0] == '{':
		return &Ref{Map: &Ref{Any: true}}
	case len(v) > 0 && v[0] == '[':
		return &Ref{Array: &Ref{Any: true}}
	case string(v) == "null":
		return &Ref{Any: true}
	case strings.ContainsAny(string(v), ".eE"):
		return &Ref{Prim: Number}
	}
	return &Ref{Prim: Integer}
}

// inlineType names an inline object or union schema after its place. An
// inline schema identical to a definition (ignoring descriptions) is that
// definition. Two identical inline objects in different places stay two
// types, each named for its place; identical inline unions share one type,
// named by an override of any of its places, else for the place with the
// smallest JSON pointer: the name does not depend on the order in which
// definitions are visited.
func (b *builder) inlineType(n *node, ptr, hint string) *Type {
	key := b.canonical(n)
	override, renamed := b.names[ptr]
	if renamed {
		b.used["Names "+ptr] = true
	}
	if t := b.inline[key]; t != nil && (!t.Inline || !isObjectSchema(n)) {
		if t.Inline {
			b.renameShared(t, ptr, hint, override, renamed)
		}
		return t
	}
	name := hint
	if renamed {
		name = override
	}
	for b.types[name] != nil {
		name += "Inline"
	}
	t := &Type{Name: name, Pointer: ptr, Inline: true}
	b.types[name] = t
	if renamed {
		b.overridden[t] = true
	}
	if !isObjectSchema(n) {
		b.inline[key] = t
	}
	b.define(t, n)
	return t
}

// renameShared names a shared inline union for one more of its places.
func (b *builder) renameShared(t *Type, ptr, hint, override string, renamed bool) {
	name := hint
	switch {
	case renamed && !b.overridden[t]:
		name = override
		b.overridden[t] = true
	case b.overridden[t] || ptr >= t.Pointer:
		return
	}
	if t.Name == name || b.types[name] != nil {
		return
	}
	delete(b.types, t.Name)
	t.Name, t.Pointer = name, ptr
	b.types[name] = t
}

// isObjectSchema reports whether a schema is an object with properties.
func isObjectSchema(n *node) bool {
	return n.Properties != nil && len(n.AnyOf)+len(n.OneOf)+len(n.AllOf) == 0
}

// canonical is a key for a node's schema without descriptions and other
// annotations (title, examples, deprecated), but with every keyword that
// changes what a value may be or becomes (bounds, default, enum, const…),
// used to share identical inline schemas: a hash of its own keywords and
// of its children's keys. Each node is hashed once and a key has a fixed size, so
// keying a whole schema is linear in its size whatever its depth.
func (b *builder) canonical(n *node) string {
	if n == nil {
		return ""
	}
	if key, ok := b.canon[n]; ok {
		return key
	}
	key := b.canonicalText(n)
	b.canon[n] = key
	return key
}

func (b *builder) canonicalText(n *node) string {
	type view struct {
		Ref        string            `json:"r,omitempty"`
		Type       typeList          `json:"t,omitempty"`
		Properties map[string]string `json:"p,omitempty"`
		HasProps   bool              `json:"h,omitempty"`
		Required   []string          `json:"q,omitempty"`
		Items      string            `json:"i,omitempty"`
		Additional string            `json:"a,omitempty"`
		AnyOf      []string          `json:"y,omitempty"`
		OneOf      []string          `json:"o,omitempty"`
		AllOf      []string          `json:"l,omitempty"`
		Const      json.RawMessage   `json:"c,omitempty"`
		Enum       []json.RawMessage `json:"e,omitempty"`
		Format     string            `json:"f,omitempty"`
		// The bounds and the default change what a value may be or
		// becomes: schemas that differ in them are different types.
		Minimum   *float64        `json:"mn,omitempty"`
		Maximum   *float64        `json:"mx,omitempty"`
		Default   json.RawMessage `json:"d,omitempty"`
		MinItems  *int            `json:"ni,omitempty"`
		MaxItems  *int            `json:"xi,omitempty"`
		MinLength *int            `json:"nl,omitempty"`
		MaxLength *int            `json:"xl,omitempty"`
	}
	if n == nil {
		return ""
	}
	list := func(ns []*node) []string {
		var out []string
		for _, c := range ns {
			out = append(out, b.canonical(c))
		}
		return out
	}
	v := view{Ref: n.Ref, Type: n.Type, Required: n.Required, Items: b.canonical(n.Items),
		AnyOf: list(n.AnyOf), OneOf: list(n.OneOf), AllOf: list(n.AllOf),
		Const: n.Const, Enum: n.Enum, Format: n.Format,
		Minimum: n.Minimum, Maximum: n.Maximum, MinItems: n.MinItems, MaxItems: n.MaxItems,
		MinLength: n.MinLength, MaxLength: n.MaxLength}
	if n.Default != nil {
		v.Default = compact(n.Default)
	}
	if n.Properties != nil {
		v.HasProps = true
		v.Properties = map[string]string{}
		for k, p := range n.Properties {
			v.Properties[k] = b.canonical(p)
		}
	}
	if a := n.AdditionalProperties; a != nil {
		v.Additional = fmt.Sprintf("%v:%s", a.Allowed, b.canonical(a.Schema))
	}
	data, _ := json.Marshal(v)
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:16])
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// The JSON pointer token escapes (RFC 6901), built once: a Replacer
// builds its lookup on first use, and escapePointer runs for every
// keyword and property of a schema.
var (
	pointerEscaper   = strings.NewReplacer("~", "~0", "/", "~1")
	pointerUnescaper = strings.NewReplacer("~1", "/", "~0", "~")
)

func escapePointer(s string) string {
	if !strings.ContainsAny(s, "~/") {
		return s
	}
	return pointerEscaper.Replace(s)
}

func unescapePointer(s string) string {
	if !strings.Contains(s, "~") {
		return s
	}
	return pointerUnescaper.Replace(s)
}

// openMetaObjects marks the types used as `_meta` values and gives them one
// shape: an open struct, whose declared keys are fields and whose other
// keys survive decoding (the spec lets _meta carry any key that follows
// its naming rules). A _meta object that declares no keys (MetaObject, a
// map of any JSON value) becomes such a struct without fields.
func openMetaObjects(m *Model) {
	for _, t := range m.Types {
		for _, f := range t.Fields {
			if f.Name != "_meta" || f.Type.Named == nil {
				continue
			}
			mt := f.Type.Named.Resolved()
			if mt == nil {
				continue
			}
			mt.MetaObject = true
			switch {
			case mt.Kind == KindMap && mt.Elem.Any:
				mt.Kind, mt.Elem, mt.Open = KindStruct, nil, true
			case mt.Kind == KindStruct:
				mt.Open = true
			}
		}
	}
}
