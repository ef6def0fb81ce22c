package schema

// checkNullElements refuses null where the generated Go has no null: an
// array item or map value that is an object (a struct value in Go) and
// may be null, and a _meta object that may be null (every _meta is a
// struct value). A definition of an object that may be null is refused
// the same way; an object member that may be null is a pointer, nil for
// null, and stays supported.
func (b *builder) checkNullElements(m *Model) {
	for _, t := range m.Types {
		switch t.Kind {
		case KindArray:
			b.checkElement(t.Elem, t.Pointer+"/items")
		case KindMap:
			b.checkElement(t.Elem, t.Pointer+"/additionalProperties")
		case KindStruct:
			if t.Extra != nil {
				b.checkElement(t.Extra, t.Pointer+"/additionalProperties")
			}
			for _, f := range t.Fields {
				if f.Name == "_meta" && f.Type.Nullable {
					b.errorf(f.Pointer, "unsupported _meta that may be null: a _meta object is a struct in Go, which has no null; leave null out")
				}
				b.checkElements(f.Type, f.Pointer)
			}
		}
	}
}

// checkElements checks the elements of an array or map type expression
// found at ptr.
func (b *builder) checkElements(r *Ref, ptr string) {
	if r == nil {
		return
	}
	if r.Array != nil {
		b.checkElement(r.Array, ptr+"/items")
	}
	if r.Map != nil {
		b.checkElement(r.Map, ptr+"/additionalProperties")
	}
}

// checkElement refuses an element found at ptr that is an object and may
// be null, and checks its own elements.
func (b *builder) checkElement(r *Ref, ptr string) {
	if r == nil {
		return
	}
	if t := r.Named.Resolved(); r.Nullable && t != nil && t.Kind == KindStruct {
		b.errorf(ptr, "unsupported array item or map value that is an object and may be null: it is a struct in Go, which has no null; leave null out, or wrap the object in a member")
	}
	b.checkElements(r, ptr)
}
