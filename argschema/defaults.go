package argschema

// defaultNode holds the defaults reachable from one object (or array) schema.
type defaultNode struct {
	props []defaultProp
	items *defaultNode // defaults inside array items
}

type defaultProp struct {
	name       string
	value      any // nil when the property has no default of its own
	hasDefault bool
	child      *defaultNode // defaults inside the property's value
}

// defaultsOf collects the defaults of a schema document parsed by
// jsonschema.UnmarshalJSON. It follows "properties" and "items" only, which
// is all an inlined schema from [For] needs. It returns nil when there is
// nothing to apply.
func defaultsOf(doc any) *defaultNode {
	return defaultsDepth(doc, 0)
}

func defaultsDepth(doc any, depth int) *defaultNode {
	obj, ok := doc.(map[string]any)
	if !ok || depth > 64 {
		return nil
	}
	n := &defaultNode{items: defaultsDepth(obj["items"], depth+1)}
	if props, ok := obj["properties"].(map[string]any); ok {
		for name, sub := range props {
			subObj, _ := sub.(map[string]any)
			def, has := subObj["default"]
			child := defaultsDepth(sub, depth+1)
			if has || child != nil {
				n.props = append(n.props, defaultProp{name: name, value: def, hasDefault: has, child: child})
			}
		}
	}
	if len(n.props) == 0 && n.items == nil {
		return nil
	}
	return n
}

// apply fills absent properties of v with their defaults, recursively, and
// reports whether it changed anything.
func (n *defaultNode) apply(v any) bool {
	if n == nil {
		return false
	}
	changed := false
	switch v := v.(type) {
	case map[string]any:
		for _, p := range n.props {
			cur, present := v[p.name]
			if !present && p.hasDefault {
				cur = deepCopy(p.value)
				v[p.name] = cur
				changed = true
			}
			if p.child != nil && cur != nil && p.child.apply(cur) {
				changed = true
			}
		}
	case []any:
		for _, item := range v {
			if n.items.apply(item) {
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
