package schema

import (
	"fmt"
	"slices"
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
			v = mergeProperty(prev, v)
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
