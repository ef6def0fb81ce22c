package argcheck

import (
	"encoding/json"
	"sync"

	"github.com/mcpgen/mcpgen/internal/jsonscan"
)

// The shape's rules on a Tape: shape.apply rewrites a tree; on a tape the
// decoder sees each object's members through eachMember instead, with
// nulls of optional properties left out and defaults added, so nothing is
// re-encoded.

// memberFunc gets one member: its name node and value node on mt (the
// arguments' tape, or a default's own), the shape of the value and the
// index of the member's property in the object's shape (-1 for none).
type memberFunc func(mt *jsonscan.Tape, name, value int, child *shape, prop int) error

// maxShapeProps is the property count up to which a member's property is
// found by comparing names; larger shapes use an index.
const maxShapeProps = 8

// shapeIndexes maps a *shape with many properties to its name index.
var shapeIndexes sync.Map // *shape → map[string]int

func (n *shape) prop(t *jsonscan.Tape, name int) int {
	if len(n.props) <= maxShapeProps {
		for k := range n.props {
			if t.TextEqual(name, n.props[k].name) {
				return k
			}
		}
		return -1
	}
	idx, ok := shapeIndexes.Load(n)
	if !ok {
		m := make(map[string]int, len(n.props))
		for k, p := range n.props {
			m[p.name] = k
		}
		idx, _ = shapeIndexes.LoadOrStore(n, m)
	}
	var k int
	if t.Escaped(name) {
		k, ok = idx.(map[string]int)[t.Text(name)]
	} else {
		k, ok = idx.(map[string]int)[string(t.Contents(name))]
	}
	if !ok {
		return -1
	}
	return k
}

// eachMember calls fn for the members of object obj as the shape sees
// them: a null optional property is left out, an absent property with a
// default gets it (after the present members); a declared property's value
// gets the property's shape, an additional member's the
// additionalProperties shape.
func (d *tapeDecoder) eachMember(t *jsonscan.Tape, obj int, sh *shape, fn memberFunc) error {
	if sh == nil {
		for m := t.FirstMember(obj); m >= 0; m = t.NextMember(obj, m) {
			if err := fn(t, m, m+1, nil, -1); err != nil {
				return err
			}
		}
		return nil
	}
	var seenSmall [64]bool
	var seen []bool
	if len(sh.props) > len(seenSmall) {
		seen = make([]bool, len(sh.props))
	} else {
		seen = seenSmall[:len(sh.props)]
	}
	for m := t.FirstMember(obj); m >= 0; m = t.NextMember(obj, m) {
		var child *shape
		k := sh.prop(t, m)
		if k >= 0 {
			p := &sh.props[k]
			if p.dropNull && t.Kind(m+1) == jsonscan.KindNull {
				continue
			}
			seen[k] = true
			child = p.child
		} else if sh.extra != nil && sh.additionalMember(t, m) {
			child = sh.extra
		}
		if err := fn(t, m, m+1, child, k); err != nil {
			return err
		}
	}
	for k := range sh.props {
		p := &sh.props[k]
		if seen[k] || !p.hasDefault {
			continue
		}
		dt := defaultTape(p)
		if dt == nil {
			continue
		}
		m := dt.FirstMember(0)
		if err := fn(dt, m, m+1, nil, k); err != nil {
			return err
		}
	}
	return nil
}

// memberTape is the tape of {name: v}; v may nest deeper than arguments
// may (a recursive default applied maxDepth levels down, as apply does).
func memberTape(name string, v any) (*jsonscan.Tape, error) {
	b, err := json.Marshal(map[string]any{name: v})
	if err != nil {
		return nil, err
	}
	t, perr := jsonscan.ParseTape(b, 1<<20)
	if perr != nil {
		return nil, perr
	}
	return t, nil
}

// defaultTapes holds each default as the tape of {"name": value}, its one
// member the name and the value shape.apply inserts: the default with the
// property's shape applied (as prepareDefaults); built once per property.
var defaultTapes sync.Map // *propShape → *jsonscan.Tape

func defaultTape(p *propShape) *jsonscan.Tape {
	if t, ok := defaultTapes.Load(p); ok {
		return t.(*jsonscan.Tape)
	}
	v := deepCopy(p.value)
	if p.child != nil && v != nil {
		p.child.applyDepth(v, 1)
	}
	t, err := memberTape(p.name, v)
	if err != nil {
		return nil
	}
	got, _ := defaultTapes.LoadOrStore(p, t)
	return got.(*jsonscan.Tape)
}

// changes reports whether applying n to node i's subtree would change it:
// a null optional property present, an absent property with a default.
func (n *shape) changes(t *jsonscan.Tape, i, depth int) bool {
	if n == nil || depth > maxDepth {
		return false
	}
	switch t.Kind(i) {
	case jsonscan.KindObject:
		for k := range n.props {
			p := &n.props[k]
			v, ok := t.Member(i, p.name)
			switch {
			case ok && p.dropNull && t.Kind(v) == jsonscan.KindNull:
				return true
			case !ok && p.hasDefault:
				return true
			case ok && p.child.changes(t, v, depth+1):
				return true
			}
		}
		if n.extra != nil {
			for m := t.FirstMember(i); m >= 0; m = t.NextMember(i, m) {
				if n.additionalMember(t, m) && n.extra.changes(t, m+1, depth+1) {
					return true
				}
			}
		}
	case jsonscan.KindArray:
		for e := t.FirstElement(i); e >= 0; e = t.NextElement(i, e) {
			if n.items.changes(t, e, depth+1) {
				return true
			}
		}
	}
	return false
}
