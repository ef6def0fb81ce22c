package argcheck

// smallNames is the most names a nameList holds: for a handful of short
// names a scan comparing lengths first costs less than a Go map's hash
// and probe (about 130 instructions a lookup).
const smallNames = 8

// nameList is a map of at most smallNames names, as a slice.
type nameList[V any] []nameEntry[V]

type nameEntry[V any] struct {
	name string
	v    V
}

// newNameList is m as a nameList in the order of names (m's keys), or
// nil when m has more than smallNames names (or none).
func newNameList[V any](m map[string]V, names []string) nameList[V] {
	if len(m) == 0 || len(m) > smallNames {
		return nil
	}
	l := make(nameList[V], 0, len(m))
	for _, name := range names {
		l = append(l, nameEntry[V]{name, m[name]})
	}
	return l
}

// find is l's value for name, m[name] of the map it was made from.
func (l nameList[V]) find(name string) (V, bool) {
	for i := range l {
		if l[i].name == name {
			return l[i].v, true
		}
	}
	var zero V
	return zero, false
}

// findBytes is find(string(name)) without the conversion.
func (l nameList[V]) findBytes(name []byte) (V, bool) {
	for i := range l {
		if l[i].name == string(name) {
			return l[i].v, true
		}
	}
	var zero V
	return zero, false
}
