// Package smallmap holds a string-keyed map of a few entries as a slice:
// for a handful of short keys a scan comparing lengths first costs less
// than a Go map's hash and probe (about 130 instructions a lookup of a
// 5–8 byte key, ~290 for a tool name).
package smallmap

// List is a map of at most a few keys, as a slice in a given order.
type List[V any] []entry[V]

type entry[V any] struct {
	key string
	v   V
}

// New is m as a List in the order of keys (m's keys), or nil when m has
// more than max keys (or none): the caller then reads m.
func New[V any](m map[string]V, keys []string, max int) List[V] {
	if len(m) == 0 || len(m) > max {
		return nil
	}
	l := make(List[V], 0, len(m))
	for _, key := range keys {
		l = append(l, entry[V]{key, m[key]})
	}
	return l
}

// Find is l's value for key, m[key] of the map it was made from.
func (l List[V]) Find(key string) (V, bool) {
	for i := range l {
		if l[i].key == key {
			return l[i].v, true
		}
	}
	var zero V
	return zero, false
}

// FindBytes is Find(string(key)) without the conversion.
func (l List[V]) FindBytes(key []byte) (V, bool) {
	for i := range l {
		if l[i].key == string(key) {
			return l[i].v, true
		}
	}
	var zero V
	return zero, false
}
