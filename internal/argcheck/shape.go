package argcheck

import (
	"regexp"
	"strings"

	"github.com/mcpgen/mcpgen/internal/jsonscan"
)

// shape is what the schema says about absent and null properties, for one
// object (or array, or map) schema: the defaults to apply and the optional
// properties whose null means "absent". It follows "properties", "items",
// "additionalProperties" and local "$ref"s ("#", "#/$defs/…"), which is
// everything a schema from `mcpgen tools` uses; a recursive type's shape is
// a cycle of shared nodes.
type shape struct {
	props []propShape
	items *shape // array items
	// extra is the additionalProperties shape: it applies to the members
	// the object's properties do not declare and no patternProperties
	// pattern matches (additional), as in JSON Schema.
	extra *shape
	// declared and patterns are those properties' names and patterns;
	// set only with extra, the only shape they matter to.
	declared map[string]bool
	patterns []*regexp.Regexp
}

// additional reports whether additionalProperties applies to the member
// named name: neither a declared property nor matched by a pattern.
func (n *shape) additional(name string) bool {
	if n.declared[name] {
		return false
	}
	for _, re := range n.patterns {
		if re.MatchString(name) {
			return false
		}
	}
	return true
}

// additionalMember is additional for the name node m of a tape; it
// allocates only for a name with escapes.
func (n *shape) additionalMember(t *jsonscan.Tape, m int) bool {
	if t.Escaped(m) {
		return n.additional(t.Text(m))
	}
	name := t.Contents(m)
	if n.declared[string(name)] {
		return false
	}
	for _, re := range n.patterns {
		if re.Match(name) {
			return false
		}
	}
	return true
}

type propShape struct {
	name       string
	value      any // the default; nil when the property has none
	hasDefault bool
	// dropNull: the property is optional and its schema has a "type" that
	// does not include "null", so a null is the same as leaving it out.
	dropNull bool
	child    *shape
	// inserted is the value inserted for an absent property (see
	// prepareDefaults), for the native checker.
	inserted *tape
}

// shapeOf collects the shape of a schema document parsed by
// jsonschema.UnmarshalJSON; nil when there is nothing to apply.
func shapeOf(doc any) *shape {
	b := shapeBuilder{root: doc, refs: map[string]*shape{}}
	return b.build(doc, 0)
}

type shapeBuilder struct {
	root any
	refs map[string]*shape // resolved "$ref"s, so recursion terminates
}

func (b *shapeBuilder) build(doc any, depth int) *shape {
	obj, ok := doc.(map[string]any)
	if !ok || depth > 64 {
		return nil
	}
	if ref, ok := obj["$ref"].(string); ok {
		if s, seen := b.refs[ref]; seen {
			return s
		}
		target, ok := b.resolve(ref)
		if !ok {
			return nil
		}
		s := &shape{}
		b.refs[ref] = s
		if built := b.build(target, depth+1); built != nil {
			*s = *built
		}
		return s
	}
	n := &shape{items: b.build(obj["items"], depth+1), extra: b.build(obj["additionalProperties"], depth+1)}
	required := map[string]bool{}
	if list, ok := obj["required"].([]any); ok {
		for _, r := range list {
			if name, ok := r.(string); ok {
				required[name] = true
			}
		}
	}
	if n.extra != nil {
		n.declared = map[string]bool{}
		if props, ok := obj["properties"].(map[string]any); ok {
			for name := range props {
				n.declared[name] = true
			}
		}
		if pats, ok := obj["patternProperties"].(map[string]any); ok {
			for src := range pats {
				// A pattern that does not compile fails the schema's
				// compilation anyway.
				if re, err := regexp.Compile(src); err == nil {
					n.patterns = append(n.patterns, re)
				}
			}
		}
	}
	if props, ok := obj["properties"].(map[string]any); ok {
		for name, sub := range props {
			subObj, _ := sub.(map[string]any)
			def, has := subObj["default"]
			p := propShape{name: name, value: def, hasDefault: has, child: b.build(sub, depth+1)}
			p.dropNull = !required[name] && excludesNull(subObj)
			if p.hasDefault || p.dropNull || p.child != nil {
				n.props = append(n.props, p)
			}
		}
	}
	if len(n.props) == 0 && n.items == nil && n.extra == nil {
		return nil
	}
	return n
}

// excludesNull reports whether a schema states a "type" without "null".
func excludesNull(s map[string]any) bool {
	switch t := s["type"].(type) {
	case string:
		return t != "null"
	case []any:
		for _, e := range t {
			if e == "null" {
				return false
			}
		}
		return len(t) > 0
	}
	_, isRef := s["$ref"]
	return isRef // a recursive type's property: an object, never null
}

var pointerUnescaper = strings.NewReplacer("~1", "/", "~0", "~")

// resolve follows a local reference: "#" or a JSON pointer "#/…".
func (b *shapeBuilder) resolve(ref string) (any, bool) {
	if ref == "#" {
		return b.root, true
	}
	ptr, ok := strings.CutPrefix(ref, "#/")
	if !ok {
		return nil, false
	}
	cur := b.root
	for _, tok := range strings.Split(ptr, "/") {
		m, ok := cur.(map[string]any)
		if !ok {
			return nil, false
		}
		if cur, ok = m[pointerUnescaper.Replace(tok)]; !ok {
			return nil, false
		}
	}
	return cur, true
}

// apply drops nulls of optional properties and fills absent properties with
// their defaults, recursively (additionalProperties' shape on the members
// that are additional), and reports whether it changed anything.
func (n *shape) apply(v any) bool { return n.applyAt(v, 0, false) }

// applyDepth is apply of a value depth levels down, as a default is
// expanded before it is inserted: a default inside it is expanded in turn,
// one level further down, until maxDepth (a default that contains itself,
// $ref "#", stops there).
func (n *shape) applyDepth(v any, depth int) bool { return n.applyAt(v, depth, true) }

// applyAt is apply at depth. A default inserted into the instance
// (!expanding) is expanded as applyDepth(default, 1) wherever it lands, as
// the native path inserts it (prepareDefaults, defaultTape), so both paths
// insert the same value.
func (n *shape) applyAt(v any, depth int, expanding bool) bool {
	if n == nil || depth > maxDepth {
		return false
	}
	changed := false
	switch v := v.(type) {
	case map[string]any:
		for _, p := range n.props {
			cur, present := v[p.name]
			if present && cur == nil && p.dropNull {
				delete(v, p.name)
				present, changed = false, true
			}
			if !present && p.hasDefault {
				cur = deepCopy(p.value)
				v[p.name] = cur
				changed = true
				if p.child != nil && cur != nil {
					if expanding {
						p.child.applyAt(cur, depth+1, true)
					} else {
						p.child.applyAt(cur, 1, true)
					}
				}
				continue
			}
			if present && p.child != nil && cur != nil && p.child.applyAt(cur, depth+1, expanding) {
				changed = true
			}
		}
		if n.extra != nil {
			for k, e := range v {
				if n.additional(k) && n.extra.applyAt(e, depth+1, expanding) {
					changed = true
				}
			}
		}
	case []any:
		for _, item := range v {
			if n.items.applyAt(item, depth+1, expanding) {
				changed = true
			}
		}
	}
	return changed
}

// deepCopy copies maps and slices so that a call never aliases (and later
// mutates) the default stored in the schema.
func deepCopy(v any) any {
	switch v := v.(type) {
	case map[string]any:
		m := make(map[string]any, len(v))
		for k, e := range v {
			m[k] = deepCopy(e)
		}
		return m
	case []any:
		s := make([]any, len(v))
		for i, e := range v {
			s[i] = deepCopy(e)
		}
		return s
	default:
		return v
	}
}
