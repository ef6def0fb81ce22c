package schema

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// defineUnion fills in a union type from its anyOf/oneOf members.
func (b *builder) defineUnion(t *Type, n *node) {
	list, kw := n.AnyOf, "anyOf"
	if len(list) == 0 {
		list, kw = n.OneOf, "oneOf"
	}
	kinds := map[string]bool{}
	objects := 0
	for i, m := range list {
		for _, k := range b.jsonKinds(m, fmt.Sprintf("%s/%s/%d", t.Pointer, kw, i), 0) {
			kinds[k] = true
		}
		if k := b.jsonKinds(m, "", 0); slices.Contains(k, "object") {
			objects++
		}
	}
	switch {
	case kinds["object"] && kinds["array"] && kinds["string"] && (kinds["integer"] || kinds["number"]) && kinds["boolean"]:
		// A union that admits every kind of JSON value is the JSON value type.
		t.Kind = KindAny
		b.refuseNarrowedMembers(t, kw, list)
		return
	case objects == 0 && !kinds["array"]:
		b.defineAlternatives(t, n, kw, list)
		return
	case objects == 0:
		// Arrays and primitives without objects: no Go type narrower than
		// any JSON value fits them.
		t.Kind = KindAny
		b.refuseNarrowedMembers(t, kw, list)
		return
	}
	t.Kind = KindUnion
	u := &Union{}
	var nodes []*node
	for i, m := range list {
		ptr := fmt.Sprintf("%s/%s/%d", t.Pointer, kw, i)
		mt, mn := b.member(t, m, ptr, i)
		if mt == nil {
			continue
		}
		for _, prev := range u.Members {
			if prev.Type == mt {
				b.errorf(ptr, "union %s lists %s twice", t.Name, mt.Name)
			}
		}
		u.Members = append(u.Members, &Member{Type: mt, Shape: b.shape(mn)})
		nodes = append(nodes, mn)
	}
	t.Union = u
	if len(b.errs) > 0 {
		return
	}
	b.discriminate(t, nodes)
	if u.Discriminator == "" {
		b.checkShapes(t, nodes)
	}
}

// refuseNarrowedMembers reports the members of a union that takes any JSON
// value (or arrays and primitives) whose enum, const or bounds its Go type
// (any value) could not keep.
func (b *builder) refuseNarrowedMembers(t *Type, kw string, list []*node) {
	for i, m := range list {
		ptr := fmt.Sprintf("%s/%s/%d", t.Pointer, kw, i)
		for d := m; d != nil; {
			if len(d.Enum) > 0 || d.Const != nil || d.Minimum != nil || d.Maximum != nil {
				b.errorf(ptr, "unsupported enum, const, minimum or maximum on a member of %s: a union that takes arrays or every kind of JSON value is any JSON value in Go, which cannot keep them", t.Name)
				break
			}
			if d.Ref == "" || len(d.Properties) > 0 {
				break
			}
			name, _ := strings.CutPrefix(d.Ref, b.prefix)
			d = b.defs[unescapePointer(name)]
		}
	}
}

// member resolves one union alternative to a named type and its schema.
func (b *builder) member(u *Type, m *node, ptr string, index int) (*Type, *node) {
	switch {
	case m.Ref != "" && hasObjectKeywords(m):
		mt := b.inlineType(m, ptr, fmt.Sprintf("%sMember%d", u.Name, index+1))
		return mt, b.mergeAllOf(m, ptr)
	case m.Ref != "":
		b.checkRefSiblings(m, ptr)
		t := b.target(m.Ref, ptr+"/$ref")
		if t == nil {
			return nil, nil
		}
		n := b.defs[t.Name]
		for n.Ref != "" && len(n.Properties) == 0 { // follow aliases (checkAliasCycles ruled out cycles)
			if t = b.target(n.Ref, t.Pointer+"/$ref"); t == nil {
				return nil, nil
			}
			n = b.defs[t.Name]
		}
		b.define(t, n)
		if len(n.AllOf) > 0 {
			n = b.mergeAllOf(n, t.Pointer)
		}
		if t.Kind != KindStruct && t.Kind != KindArray && t.Kind != KindMap {
			b.errorf(ptr, "union %s: member %s is a %s; only objects and arrays can be members", u.Name, t.Name, t.Kind)
			return nil, nil
		}
		return t, n
	case hasType(m, "array"):
		if t := b.inline[b.canonical(m)]; t != nil && !t.Inline {
			return t, m
		}
		name := fmt.Sprintf("%sList%d", u.Name, index+1)
		if m.Items != nil && m.Items.Ref != "" {
			if it := b.target(m.Items.Ref, ptr+"/items/$ref"); it != nil {
				name = it.Name + "s"
			}
		}
		if t := b.types[name]; t != nil && t.Kind == KindArray && b.inline[b.canonical(m)] == t {
			return t, m // the same list in another union
		}
		for b.types[name] != nil {
			name += "Inline"
		}
		t := &Type{Name: name, Pointer: ptr, Inline: true, Kind: KindArray, Doc: m.Description}
		b.types[name] = t
		b.done[t] = true
		b.inline[b.canonical(m)] = t
		t.Elem = b.ref(m.Items, ptr+"/items", name+"Item")
		return t, m
	case hasType(m, "object") || m.Properties != nil:
		return b.inlineType(m, ptr, fmt.Sprintf("%sMember%d", u.Name, index+1)), m
	}
	b.errorf(ptr, "union %s: unsupported member: only $ref, object and array members are supported", u.Name)
	return nil, nil
}

// jsonKinds lists the JSON kinds a schema admits. Each node is looked at
// once (a cycle of unions admits nothing more than its other members).
func (b *builder) jsonKinds(n *node, ptr string, depth int) []string {
	if n == nil {
		return nil
	}
	if k, ok := b.kinds[n]; ok {
		return k
	}
	b.kinds[n] = nil // in progress
	k := b.jsonKindsOf(n, ptr, depth)
	b.kinds[n] = k
	return k
}

func (b *builder) jsonKindsOf(n *node, ptr string, depth int) []string {
	if n.Ref != "" && len(n.Properties) == 0 {
		name, _ := strings.CutPrefix(n.Ref, b.prefix)
		if d := b.defs[unescapePointer(name)]; d != nil {
			return b.jsonKinds(d, ptr, depth+1)
		}
		return nil
	}
	if len(n.AnyOf)+len(n.OneOf) > 0 {
		var out []string // each kind once, however often members repeat it
		seen := map[string]bool{}
		for _, m := range append(slices.Clone(n.AnyOf), n.OneOf...) {
			for _, k := range b.jsonKinds(m, ptr, depth+1) {
				if !seen[k] {
					seen[k] = true
					out = append(out, k)
				}
			}
		}
		return out
	}
	if len(n.Type) > 0 {
		return n.Type
	}
	if n.Properties != nil || n.AdditionalProperties != nil || len(n.AllOf) > 0 {
		return []string{"object"}
	}
	return nil
}

// shape describes what a member's JSON looks like.
func (b *builder) shape(n *node) *Shape {
	if n == nil {
		return nil
	}
	s := &Shape{JSON: "object", Required: slices.Clone(n.Required), Consts: map[string][]json.RawMessage{}}
	if hasType(n, "array") {
		s.JSON = "array"
		s.Elem = b.canonical(n.Items)
		return s
	}
	slices.Sort(s.Required)
	for _, k := range sortedKeys(n.Properties) {
		p := n.Properties[k]
		s.Props = append(s.Props, k)
		switch {
		case p.Const != nil:
			s.Consts[k] = []json.RawMessage{compact(p.Const)}
		case len(p.Enum) > 0:
			for _, e := range p.Enum {
				s.Consts[k] = append(s.Consts[k], compact(e))
			}
		}
		if p.Ref == "" && (p.Properties != nil) && (len(p.Required) > 0 || hasConst(p)) {
			if s.Nested == nil {
				s.Nested = map[string]*Shape{}
			}
			s.Nested[k] = b.shape(p)
		}
	}
	return s
}

func hasConst(n *node) bool {
	for _, p := range n.Properties {
		if p.Const != nil {
			return true
		}
	}
	return false
}

func compact(raw json.RawMessage) json.RawMessage {
	var buf bytes.Buffer
	if err := json.Compact(&buf, raw); err != nil {
		return raw
	}
	return buf.Bytes()
}

// discriminate finds the property whose value tells the union's object
// members apart: a const every member declares, or a tag rule of the
// overrides table.
func (b *builder) discriminate(t *Type, nodes []*node) {
	u := t.Union
	var candidates []string
	for i, m := range u.Members {
		if m.Type.Kind != KindStruct {
			continue
		}
		for _, k := range sortedKeys(nodes[i].Properties) {
			if nodes[i].Properties[k].Const != nil || b.tagRule(k) != nil {
				candidates = append(candidates, k)
			}
		}
		break
	}
next:
	for _, prop := range candidates {
		tags := map[string]*Member{}
		var def *Member
		for i, m := range u.Members {
			if m.Type.Kind != KindStruct {
				continue
			}
			n := nodes[i]
			p := n.Properties[prop]
			if p == nil {
				continue next
			}
			var tag string
			switch rule := b.tagRule(prop); {
			case p.Const != nil:
				if err := json.Unmarshal(p.Const, &tag); err != nil {
					continue next
				}
			case rule != nil:
				tag = rule.Otherwise
				if v, ok := rule.Values[m.Type.Name]; ok {
					tag = v
				}
				if tag == rule.Otherwise {
					def = m
				}
			default:
				continue next
			}
			if tags[tag] != nil {
				continue next
			}
			tags[tag] = m
			m.Tag = tag
			if !slices.Contains(n.Required, prop) && b.tagRule(prop) == nil {
				if def != nil {
					continue next
				}
				def = m
			}
		}
		u.Discriminator = prop
		u.Default = def
		return
	}
	for _, m := range u.Members {
		m.Tag = ""
	}
}

func (b *builder) tagRule(prop string) *TagRule {
	for i := range b.ov.Tags {
		if b.ov.Tags[i].Property == prop {
			return &b.ov.Tags[i]
		}
	}
	return nil
}

// checkShapes reports members that look alike on the wire. Members with
// identical schemas are not an error: decoding picks the first, and the
// value it yields is the same either way.
func (b *builder) checkShapes(t *Type, nodes []*node) {
	ms := t.Union.Members
	for i := range ms {
		for j := i + 1; j < len(ms); j++ {
			if sameShape(ms[i].Shape, ms[j].Shape) && b.canonical(nodes[i]) != b.canonical(nodes[j]) {
				b.errorf(t.Pointer, "union %s: members %s and %s cannot be told apart (no discriminator, same shape)", t.Name, ms[i].Type.Name, ms[j].Type.Name)
			}
		}
	}
}

func sameShape(a, b *Shape) bool {
	if a.JSON != b.JSON || a.Elem != b.Elem || !slices.Equal(a.Required, b.Required) || !slices.Equal(a.Props, b.Props) || len(a.Consts) != len(b.Consts) || len(a.Nested) != len(b.Nested) {
		return false
	}
	for k, v := range a.Consts {
		w := b.Consts[k]
		if len(v) != len(w) {
			return false
		}
		for i := range v {
			if !bytes.Equal(v[i], w[i]) {
				return false
			}
		}
	}
	for k, v := range a.Nested {
		if w := b.Nested[k]; w == nil || !sameShape(v, w) {
			return false
		}
	}
	return true
}
