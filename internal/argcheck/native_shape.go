package argcheck

// objEdit is what the shape changes in one object of a document: members
// whose null means absent (dropped) and absent members filled with their
// defaults (added). The tape itself is never changed.
type objEdit struct {
	drop []int // name nodes of dropped members
	add  []addedMember
}

type addedMember struct {
	name  string
	value *tape // the default, its own shape already applied; node 0
}

func (e *objEdit) drops(m int) bool {
	if e == nil {
		return false
	}
	for _, d := range e.drop {
		if d == m {
			return true
		}
	}
	return false
}

// prepareDefaults stores, for every property default of the shape, the
// value shape.apply inserts: a copy of the default with the property's own
// shape applied.
func prepareDefaults(n *shape) {
	seen := map[*shape]bool{}
	var walk func(n *shape)
	walk = func(n *shape) {
		if n == nil || seen[n] {
			return
		}
		seen[n] = true
		for i := range n.props {
			p := &n.props[i]
			if p.hasDefault {
				v := deepCopy(p.value)
				if p.child != nil && v != nil {
					p.child.applyDepth(v, 1)
				}
				p.inserted = tapeOf(v)
			}
			walk(p.child)
		}
		walk(n.items)
		walk(n.extra)
	}
	walk(n)
}

// edits computes what n.apply would change in the document t, without
// changing it: nil when nothing.
func (n *shape) edits(t *tape) map[int]*objEdit {
	if n == nil {
		return nil
	}
	var w editWalk
	n.editNode(t, 0, 0, &w)
	return w.out
}

// editWalk collects a document's edits; with lazy set it also records the
// items shape of each lazy array it meets (whose elements are not on the
// tape: see lazyargs.go).
type editWalk struct {
	out  map[int]*objEdit
	lazy map[int]*shape
}

func (n *shape) editNode(t *tape, i, depth int, w *editWalk) {
	if n == nil || depth > maxDepth {
		return
	}
	switch t.Kind(i) {
	case kindObject:
		e := w.out[i] // nil map: nil
		edit := func() *objEdit {
			if e == nil {
				e = &objEdit{}
				if w.out == nil {
					w.out = map[int]*objEdit{}
				}
				w.out[i] = e
			}
			return e
		}
		for _, p := range n.props {
			if !p.dropNull && !p.hasDefault && p.child == nil {
				continue // present or not, nothing to edit
			}
			v, present := t.Member(i, p.name)
			if present && p.dropNull && t.Kind(v) == kindNull {
				edit().drop = append(edit().drop, v-1)
				present = false
			}
			if !present && p.hasDefault {
				edit().add = append(edit().add, addedMember{name: p.name, value: p.inserted})
				continue
			}
			if present && p.child != nil {
				p.child.editNode(t, v, depth+1, w)
			}
		}
		if n.extra != nil {
			for m := t.FirstMember(i); m >= 0; m = t.NextMember(i, m) {
				if n.additionalMember(t, m) {
					n.extra.editNode(t, m+1, depth+1, w)
				}
			}
		}
	case kindArray:
		if w.lazy != nil && t.Lazy(i) {
			w.lazy[i] = n.items
			return
		}
		if n.items != nil {
			for el := t.FirstElement(i); el >= 0; el = t.NextElement(i, el) {
				n.items.editNode(t, el, depth+1, w)
			}
		}
	}
}
