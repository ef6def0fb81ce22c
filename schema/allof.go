package schema

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// mergeAllOf folds an allOf of object schemas, and the keywords beside it
// (properties, required, additionalProperties: they apply too), into one
// object schema. A definition reached again through its own allOf is an
// error: it would have to contain itself. The result is computed once per
// schema and must not be changed: a definition named by many allOfs (or
// many times by one) is merged once, so merging is linear in the schema's
// size.
func (b *builder) mergeAllOf(n *node, ptr string) *node {
	if out, ok := b.merged[n]; ok {
		if out == nil { // in progress: fold reports the cycle before coming here
			b.errorf(ptr, "allOf cycle: the schema includes itself")
			return &node{Type: typeList{"object"}, Properties: map[string]*node{}}
		}
		return out
	}
	if b.overFlat {
		return &node{Type: typeList{"object"}, Properties: map[string]*node{}} // refused already
	}
	if b.merging >= MaxDepth {
		// Each definition an allOf includes is merged within the merge
		// of the one including it: a chain of hundreds of thousands,
		// which a schema of MaxSchemaBytes holds, would overflow the stack.
		b.errorf(ptr, "allOf chain deeper than %d levels: each definition includes the next through allOf or $ref; include fewer levels", MaxDepth)
		b.overFlat = true // merge nothing more: the chain is refused
		return &node{Type: typeList{"object"}, Properties: map[string]*node{}}
	}
	b.merging++
	defer func() { b.merging-- }()
	b.merged[n] = nil
	m := &allOfMerge{
		b:        b,
		out:      &node{Type: typeList{"object"}, Properties: map[string]*node{}, Description: n.Description},
		included: map[*node]bool{},
		owned:    map[*node]map[string]bool{},
	}
	m.owned[m.out] = map[string]bool{}
	m.fold(n, ptr)
	b.merged[n] = m.out
	b.countFlattened(m.out, ptr)
	return m.out
}

// allOfMerge is the merging of one allOf.
type allOfMerge struct {
	b        *builder
	out      *node
	included map[*node]bool // definitions folded in already: allOf [X, X] is X
	// owned are the nodes this merge made, which it changes in place, with
	// the names each requires.
	owned map[*node]map[string]bool
}

// fold adds to the merged schema what part, found at at, requires.
func (m *allOfMerge) fold(part *node, at string) {
	b := m.b
	if part.Ref != "" {
		t := b.target(part.Ref, at+"/$ref")
		if t == nil {
			return
		}
		sibling := *part
		sibling.Ref = ""
		if hasObjectKeywords(&sibling) {
			defer m.fold(&sibling, at) // $ref with sibling keywords: both apply
		}
		def := b.defs[t.Name]
		if merged, ok := b.merged[def]; ok && merged == nil {
			b.errorf(at, "allOf cycle: the schema includes itself")
			return
		}
		if m.included[def] {
			return
		}
		m.included[def] = true
		if b.objectPart(def, at) {
			m.foldObject(b.mergeAllOf(def, t.Pointer), at)
		}
		return
	}
	for i, sub := range part.AllOf {
		m.fold(sub, fmt.Sprintf("%s/allOf/%d", at, i))
	}
	if b.objectPart(part, at) {
		m.foldObject(part, at)
	}
}

// objectPart reports (and refuses) a member of an allOf that is not an
// object schema.
func (b *builder) objectPart(part *node, at string) bool {
	if len(part.AnyOf) > 0 || len(part.OneOf) > 0 || (len(part.Type) > 0 && !hasType(part, "object")) {
		b.errorf(at, "unsupported allOf member: only object schemas can be combined")
		return false
	}
	return true
}

// foldObject adds the properties, required names and additionalProperties
// of an object schema (without allOf or $ref) found at at.
func (m *allOfMerge) foldObject(part *node, at string) {
	for _, k := range sortedKeys(part.Properties) {
		v := part.Properties[k]
		if prev := m.out.Properties[k]; prev != nil {
			v = m.property(prev, v, at+"/properties/"+escapePointer(k))
		}
		m.out.Properties[k] = v
	}
	m.require(m.out, part.Required)
	if part.AdditionalProperties != nil {
		m.out.AdditionalProperties = part.AdditionalProperties
	}
}

// own returns n if this merge made it, else a copy that it owns.
func (m *allOfMerge) own(n *node) *node {
	if m.owned[n] != nil {
		return n
	}
	c := *n
	if n.Properties != nil {
		c.Properties = make(map[string]*node, len(n.Properties))
		for k, v := range n.Properties {
			c.Properties[k] = v
		}
	}
	c.Required = slices.Clone(n.Required)
	c.Enum = slices.Clone(n.Enum)
	c.AllOf = slices.Clone(n.AllOf)
	c.keywords = slices.Clone(n.keywords)
	required := map[string]bool{}
	for _, r := range c.Required {
		required[r] = true
	}
	m.owned[&c] = required
	return &c
}

// require adds names to what the owned node x requires, each once.
func (m *allOfMerge) require(x *node, names []string) {
	seen := m.owned[x]
	for _, r := range names {
		if !seen[r] {
			seen[r] = true
			x.Required = append(x.Required, r)
		}
	}
}

// annotationKeywords are the keywords that describe a value without
// constraining it.
var annotationKeywords = map[string]bool{
	"description": true, "title": true, "$comment": true, "deprecated": true,
	"default": true, "examples": true,
}

// annotationsOnly reports whether a schema constrains nothing, but may
// describe (a description, a default…).
func annotationsOnly(n *node) bool {
	for _, k := range n.keywords {
		if !annotationKeywords[k] {
			return false
		}
	}
	return true
}

// property combines two declarations of one property in an allOf, a
// earlier and c later (at ptr). A value must fit both (JSON Schema 2020-12
// §10.2.1.1), so the result keeps the constraints of each: the types both
// allow, the enum values both list, the const, the narrower bounds, the
// properties and required names of both; the later declaration's
// description and default win. A re-declaration that only documents the
// property keeps everything of the earlier one. Declarations the model
// cannot combine (two different $refs, a union beside other constraints,
// values no value fits) are errors, never dropped.
func (m *allOfMerge) property(a, c *node, ptr string) *node {
	b := m.b
	aOnly, cOnly := annotationsOnly(a), annotationsOnly(c)
	if (len(a.AnyOf)+len(a.OneOf) > 0 && !cOnly) || (len(c.AnyOf)+len(c.OneOf) > 0 && !aOnly) {
		b.errorf(ptr, "unsupported re-declaration in an allOf: a union (anyOf, oneOf) cannot be combined with other constraints; declare the property once")
		return a
	}
	x := m.own(a)
	x.keywords = unionKeywords(x.keywords, c.keywords)
	if c.Description != "" {
		x.Description = c.Description
	}
	x.Deprecated = x.Deprecated || c.Deprecated
	if c.Default != nil {
		x.Default = c.Default
	}
	if c.Format != "" {
		x.Format = c.Format
	}
	x.AnyOf, x.OneOf = slices.Concat(x.AnyOf, c.AnyOf), slices.Concat(x.OneOf, c.OneOf)
	switch {
	case c.Ref == "" || c.Ref == x.Ref:
	case x.Ref == "":
		x.Ref = c.Ref
	default:
		b.errorf(ptr, "unsupported re-declaration in an allOf: $ref %q and $ref %q cannot be combined", x.Ref, c.Ref)
	}
	x.Type = b.commonTypes(x.Type, c.Type, ptr)
	if x.Ref != "" && b.refImplies(x.Ref, x.Type) {
		// {"$ref": X} and {"type": T} where X is a T: the type adds nothing.
		x.Type = nil
		x.keywords = slices.DeleteFunc(x.keywords, func(k string) bool { return k == "type" })
	}
	if c.Const != nil {
		if x.Const != nil && !bytes.Equal(compact(x.Const), compact(c.Const)) {
			b.errorf(ptr+"/const", "const %s and const %s in an allOf: no value fits both", compact(x.Const), compact(c.Const))
		}
		x.Const = c.Const
	}
	switch {
	case len(c.Enum) == 0:
	case len(x.Enum) == 0:
		x.Enum = c.Enum
	default:
		if x.Enum = commonValues(x.Enum, c.Enum); len(x.Enum) == 0 {
			b.errorf(ptr+"/enum", "enums in an allOf without a common value: no value fits both")
		}
	}
	x.Minimum, x.minimumText = tighterBound(x.Minimum, x.minimumText, c.Minimum, c.minimumText, true)
	x.Maximum, x.maximumText = tighterBound(x.Maximum, x.maximumText, c.Maximum, c.maximumText, false)
	x.MinItems, x.MaxItems = larger(x.MinItems, c.MinItems), smaller(x.MaxItems, c.MaxItems)
	x.MinLength, x.MaxLength = larger(x.MinLength, c.MinLength), smaller(x.MaxLength, c.MaxLength)
	switch {
	case c.Items == nil:
	case x.Items == nil:
		x.Items = c.Items
	default:
		x.Items = m.property(x.Items, c.Items, ptr+"/items")
	}
	if c.Properties != nil && x.Properties == nil {
		x.Properties = map[string]*node{}
	}
	for _, k := range sortedKeys(c.Properties) {
		v := c.Properties[k]
		if prev := x.Properties[k]; prev != nil {
			v = m.property(prev, v, ptr+"/properties/"+escapePointer(k))
		}
		x.Properties[k] = v
	}
	m.require(x, c.Required)
	x.AdditionalProperties = m.additional(x.AdditionalProperties, c.AdditionalProperties, ptr+"/additionalProperties")
	x.AllOf = append(x.AllOf, c.AllOf...)
	b.checkCombined(a, c, x, ptr)
	return x
}

// additional combines two additionalProperties of one property: false
// wins, and two schemas are both required.
func (m *allOfMerge) additional(a, c *additional, ptr string) *additional {
	switch {
	case c == nil || a != nil && !a.Allowed:
		return a
	case a == nil || !c.Allowed || a.Schema == nil:
		return c
	case c.Schema == nil:
		return a
	}
	return &additional{Allowed: true, Schema: m.property(a.Schema, c.Schema, ptr)}
}

// commonTypes are the types both type keywords allow (an integer is a
// number): all of one when the other is absent.
func (b *builder) commonTypes(a, c typeList, ptr string) typeList {
	if len(a) == 0 {
		return c
	}
	if len(c) == 0 {
		return a
	}
	var out typeList
	for _, t := range c {
		switch {
		case slices.Contains(a, t):
		case t == "integer" && slices.Contains(a, "number"):
		case t == "number" && slices.Contains(a, "integer"):
			t = "integer"
		default:
			continue
		}
		if !slices.Contains(out, t) {
			out = append(out, t)
		}
	}
	if len(out) == 0 {
		b.errorf(ptr+"/type", "types %s and %s in an allOf: no value is of both", typeText(a), typeText(c))
		return a
	}
	return out
}

// refImplies reports whether every value of the definition ref names is of
// one of types.
func (b *builder) refImplies(ref string, types typeList) bool {
	if len(types) == 0 {
		return false
	}
	name, ok := strings.CutPrefix(ref, b.prefix)
	if !ok {
		return false
	}
	def := b.defs[unescapePointer(name)]
	if def == nil || len(def.Type) == 0 {
		return false
	}
	for _, t := range def.Type {
		if !slices.Contains(types, t) && !(t == "integer" && slices.Contains(types, "number")) {
			return false
		}
	}
	return true
}

// commonValues are the values of enum c that enum a lists too, in c's order.
func commonValues(a, c []json.RawMessage) []json.RawMessage {
	in := map[string]bool{}
	for _, v := range a {
		in[string(compact(v))] = true
	}
	var out []json.RawMessage
	for _, v := range c {
		if in[string(compact(v))] {
			out = append(out, v)
		}
	}
	return out
}

// unionKeywords are the keywords of a and of c, each once.
func unionKeywords(a, c []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, k := range append(slices.Clone(a), c...) {
		if !seen[k] {
			seen[k] = true
			out = append(out, k)
		}
	}
	return out
}

// larger is the greater of two optional lower bounds.
func larger[T int | float64](a, c *T) *T {
	if a == nil || c != nil && *c > *a {
		return c
	}
	return a
}

// tighterBound is the tighter of two optional bounds, a's and c's, with
// the text it is written as: the greater of two minimums (lower) or the
// lesser of two maximums, compared as written, not as their float64s, which
// may be one number (9007199254740992 and 9007199254740993).
func tighterBound(a *float64, aText string, c *float64, cText string, lower bool) (*float64, string) {
	if c == nil {
		return a, aText
	}
	if a == nil {
		return c, cText
	}
	cmp := exactNumber(cText, *c).Cmp(exactNumber(aText, *a))
	if lower && cmp > 0 || !lower && cmp < 0 {
		return c, cText
	}
	return a, aText
}

// smaller is the lesser of two optional upper bounds.
func smaller[T int | float64](a, c *T) *T {
	if a == nil || c != nil && *c < *a {
		return c
	}
	return a
}
