package schema

import (
	"slices"
	"strings"
)

// resolveOverrides turns the Place keys of the overrides table into JSON
// pointers of this schema, read from a model built without them: names,
// raw and relaxed of b are filled in, and an entry that reaches no member
// is recorded as unmatched.
func (b *builder) resolveOverrides(from *builder, m *Model) {
	add := func(table string, k Place, set func(ptr string)) {
		if ptr, ok := from.resolve(m, k); ok {
			set(ptr)
			b.labels[table+" "+ptr] = k.String()
			return
		}
		b.unmatched = append(b.unmatched, table+" "+k.String())
		b.labels[table+" "+k.String()] = k.String()
	}
	for _, k := range sortedMembers(b.ov.Names) {
		add("Names", k, func(ptr string) { b.names[ptr] = b.ov.Names[k] })
	}
	for _, k := range sortedMembers(b.ov.Raw) {
		add("Raw", k, func(ptr string) { b.raw[ptr] = b.ov.Raw[k] })
	}
	for _, k := range sortedMembers(b.ov.Relaxed) {
		add("Relaxed", k, func(ptr string) { b.relaxed[ptr] = b.ov.Relaxed[k] })
	}
}

func sortedMembers[V any](m map[Place]V) []Place {
	keys := make([]Place, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b Place) int { return strings.Compare(a.String(), b.String()) })
	return keys
}

// resolve finds the JSON pointer of the member k names.
func (b *builder) resolve(m *Model, k Place) (string, bool) {
	var md *Method
	for _, x := range slices.Concat(m.Requests, m.Notifications) {
		if x.Name == k.Method {
			md = x
		}
	}
	if md == nil || k.Path == "" {
		return "", false
	}
	steps := strings.Split(k.Path, ".")
	cur, ptr := &Ref{Named: md.Type}, ""
	if steps[0] == "result" {
		if md.Result == nil {
			return "", false
		}
		cur, ptr, steps = &Ref{Named: md.Result}, b.resultPtr[md], steps[1:]
	}
	for _, step := range steps {
		name, items := strings.CutSuffix(step, "[]")
		f := memberOf(cur, name)
		if f == nil {
			return "", false
		}
		ptr, cur = f.Pointer, f.Type
		if items {
			if cur = itemsOf(cur); cur == nil {
				return "", false
			}
		}
	}
	return ptr, ptr != ""
}

// memberOf is the field name of a struct, or of the one member of a union
// that declares it.
func memberOf(r *Ref, name string) *Field {
	t := named(r)
	if t == nil {
		return nil
	}
	if t.Kind == KindStruct {
		return field(t, name)
	}
	if t.Kind != KindUnion {
		return nil
	}
	var found *Field
	for _, mem := range t.Union.Members {
		if f := memberOf(&Ref{Named: mem.Type}, name); f != nil {
			if found != nil {
				return nil // more than one member declares it
			}
			found = f
		}
	}
	return found
}

// itemsOf is the element of an array.
func itemsOf(r *Ref) *Ref {
	if r.Array != nil {
		return r.Array
	}
	if t := named(r); t != nil && t.Kind == KindArray {
		return t.Elem
	}
	return nil
}

// named follows aliases to the named type r refers to.
func named(r *Ref) *Type {
	if r == nil {
		return nil
	}
	return r.Named.Resolved()
}
