package schema

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// altKey names what a schema stands for as the members of a union of
// primitives: under anyOf a nested anyOf is its members, under oneOf it is
// refused, so the two differ.
type altKey struct {
	n     *node
	oneOf bool
}

// altResult is what a definition stands for as members of a union of
// primitives, computed once per definition.
type altResult struct {
	alts   []*Alternative // At relative to the definition: "" or "/anyOf/1"
	height int            // levels of $ref and nested anyOf below it
}

// altSet collects the alternatives of one union. Under anyOf (a value must
// fit one member or more) a member equal to an earlier one allows nothing
// more and is left out, and so is a definition already included, which
// keeps the work linear when unions name one definition many times. Under
// oneOf nothing is left out: a value fitting two members is refused.
type altSet struct {
	anyOf bool
	alts  []*Alternative
	seen  map[string]bool
	defs  map[*node]bool
}

func newAltSet(kw string) *altSet {
	return &altSet{anyOf: kw == "anyOf", seen: map[string]bool{}, defs: map[*node]bool{}}
}

// add appends a copy of a, found at at within the union.
func (s *altSet) add(a *Alternative, at string) {
	c := *a
	c.At = at + a.At
	if s.anyOf {
		key := a.key()
		if s.seen[key] {
			return
		}
		s.seen[key] = true
	}
	s.alts = append(s.alts, &c)
}

// key is the text of what an alternative allows (its place left out).
func (a *Alternative) key() string {
	var sb strings.Builder
	for _, p := range a.Types {
		sb.WriteString(string(p))
		sb.WriteByte(',')
	}
	sb.WriteByte('|')
	if a.Literals != nil {
		sb.WriteByte('=')
	}
	for _, l := range a.Literals {
		sb.WriteString(strconv.Quote(l))
		sb.WriteByte(',')
	}
	for _, bound := range []*float64{a.Minimum, a.Maximum} {
		sb.WriteByte('|')
		if bound != nil {
			sb.WriteString(strconv.FormatFloat(*bound, 'g', -1, 64))
		}
	}
	return sb.String()
}

// defineAlternatives fills in a union of primitives (anyOf/oneOf of
// strings, numbers, booleans, null): a scalar union whose members, with
// their enum, const and bounds, are its Alternatives. A member that is a
// $ref is the schema it names; a member that is an anyOf within an anyOf
// is its own members. A union that reaches itself through its members is
// an error: it would have to contain itself.
func (b *builder) defineAlternatives(t *Type, n *node, kw string, list []*node) {
	t.Kind = KindScalarUnion
	t.OneOf = kw == "oneOf"
	if key := (altKey{n, t.OneOf}); n != nil {
		if _, ok := b.alts[key]; !ok {
			b.alts[key] = nil // in progress: reaching it again is a cycle
			defer delete(b.alts, key)
		}
	}
	set := newAltSet(kw)
	for i, m := range list {
		b.alternatives(set, m, fmt.Sprintf("%s/%d", kw, i), fmt.Sprintf("%s/%s/%d", t.Pointer, kw, i), kw)
	}
	alts := set.alts
	kinds := map[Prim]bool{}
	narrowed := false
	for _, a := range alts {
		for _, p := range a.Types {
			kinds[p] = true
		}
		narrowed = narrowed || a.Literals != nil || a.Minimum != nil || a.Maximum != nil
	}
	for _, p := range []Prim{String, Integer, Number, Boolean, Null} {
		if kinds[p] {
			t.Prims = append(t.Prims, p)
		}
	}
	if narrowed || t.OneOf && overlap(alts) {
		t.Alternatives = alts
	}
}

// alternatives adds to set the members a union member m stands for, found
// at at within the union, and returns how many levels of $ref and nested
// anyOf lie below m. A definition is expanded once (definitionAlternatives)
// and its members copied, so a schema costs time linear in its size
// however often its unions name each other.
func (b *builder) alternatives(set *altSet, m *node, at, ptr, kw string) int {
	switch {
	case m.Ref != "":
		b.checkRefSiblings(m, ptr)
		t := b.target(m.Ref, ptr+"/$ref")
		if t == nil {
			return 0
		}
		def := b.defs[t.Name]
		if set.anyOf && set.defs[def] {
			return 0 // anyOf [X, X] is X
		}
		set.defs[def] = true
		r := b.definitionAlternatives(def, t, ptr, kw)
		if r == nil {
			return 0
		}
		if r.height+1 > MaxDepth {
			b.errorf(ptr, "schema nested more than %d levels deep", MaxDepth)
			return 0
		}
		for _, a := range r.alts {
			set.add(a, at)
		}
		return r.height + 1
	case len(m.AnyOf) > 0 && len(m.OneOf) == 0 && kw == "anyOf" && len(m.AllOf) == 0:
		height := 0
		for i, sub := range m.AnyOf {
			height = max(height, b.alternatives(set, sub, fmt.Sprintf("%s/anyOf/%d", at, i), fmt.Sprintf("%s/anyOf/%d", ptr, i), kw))
		}
		if height+1 > MaxDepth {
			b.errorf(ptr, "schema nested more than %d levels deep", MaxDepth)
			return 0
		}
		return height + 1
	case len(m.AnyOf)+len(m.OneOf)+len(m.AllOf) > 0:
		b.errorf(ptr, "unsupported union member of a union of primitives: list its members in the union itself (only an anyOf within an anyOf is merged)")
		return 0
	}
	if a := b.primitiveAlternative(m, ptr); a != nil {
		set.add(a, at)
	}
	return 0
}

// definitionAlternatives is what the definition def (of type t), named by
// a $ref at ptr, stands for as members of a union of primitives; nil when
// the definition is reached again while it is being expanded (a union
// containing itself, reported at ptr).
func (b *builder) definitionAlternatives(def *node, t *Type, ptr, kw string) *altResult {
	key := altKey{def, kw == "oneOf"}
	if r, ok := b.alts[key]; ok {
		if r == nil {
			b.errorf(ptr, "union cycle: %s contains itself through its members", t.Name)
		}
		return r
	}
	b.alts[key] = nil // in progress
	set := newAltSet(kw)
	height := b.alternatives(set, def, "", t.Pointer, kw)
	r := &altResult{alts: set.alts, height: height}
	b.alts[key] = r
	return r
}

// primitiveAlternative is the alternative a schema without $ref or union
// keywords stands for, or nil (reported) when it has no type.
func (b *builder) primitiveAlternative(m *node, ptr string) *Alternative {
	a := &Alternative{}
	types := m.Type
	if len(types) == 0 {
		// {"const": "a"} or {"enum": ["a", 1]}: the types of its values.
		values := m.Enum
		if m.Const != nil {
			values = []json.RawMessage{m.Const}
		}
		for _, v := range values {
			if k := valueKind(v); k != "" && !slices.Contains(types, k) {
				types = append(types, k)
			}
		}
	}
	if len(types) == 0 {
		b.errorf(ptr, "unsupported member without a type in a union of primitives: give it \"type\"")
		return nil
	}
	numeric := false
	for _, name := range types {
		p := Null
		if name != "null" {
			p = b.prim(name, ptr+"/type")
		}
		numeric = numeric || p == Integer || p == Number
		a.Types = append(a.Types, p)
	}
	switch {
	case m.Const != nil:
		a.Literals = []string{string(compact(m.Const))}
	case len(m.Enum) > 0:
		for _, v := range m.Enum {
			a.Literals = append(a.Literals, string(compact(v)))
		}
	}
	if numeric {
		a.Minimum, a.Maximum = m.Minimum, m.Maximum
	}
	return a
}

// valueKind is the JSON Schema type of a primitive JSON value (integer for
// a number without a fraction), or "" for an array or object.
func valueKind(v json.RawMessage) string {
	for _, k := range []string{"null", "boolean", "string", "integer", "number"} {
		if ofType(v, typeList{k}) {
			return k
		}
	}
	return ""
}

// overlap reports whether two alternatives take a value of one JSON type
// (an integer is a number too, so an integer and a number alternative
// overlap). One pass: it counts the alternatives taking each type.
func overlap(alts []*Alternative) bool {
	count := map[Prim]int{}
	for _, a := range alts {
		takes := map[Prim]bool{}
		for _, p := range a.Types {
			takes[p] = true
			if p == Number {
				takes[Integer] = true
			}
		}
		for p := range takes {
			if count[p]++; count[p] > 1 {
				return true
			}
		}
	}
	return false
}
