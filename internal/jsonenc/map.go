package jsonenc

import (
	"encoding"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
)

// mapEntry is one map member being encoded: its key's string and value.
type mapEntry struct {
	key string
	v   reflect.Value
}

// newMapEncoder encodes a map with string, integer or TextMarshaler keys,
// sorted by their encoded form. Keys are read through one scratch value
// and plain scalar values into one scratch slice, both kept in the state
// per map type, and the sort runs on a stack of entries the state keeps:
// a map of plain scalars costs no allocation, other maps one per value,
// where encoding/json's costs one per key, one per value and one for the
// sort.
func newMapEncoder(t reflect.Type) encFunc {
	switch t.Key().Kind() {
	case reflect.String,
		reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
	default:
		if !t.Key().Implements(textMarshalerType) {
			return unsupportedTypeEncoder
		}
	}
	keyType := t.Key()
	elem := typeEncoder(t.Elem())
	var scalars reflect.Type // []Elem, when values can be copied out
	if plainScalar(t.Elem()) {
		scalars = reflect.SliceOf(t.Elem())
	}
	return func(e *encState, b []byte, v reflect.Value, quoted bool) ([]byte, error) {
		if v.IsNil() {
			return append(b, "null"...), nil
		}
		var key any
		if e.ptrLevel >= startDetectingCyclesAfter {
			key = v.UnsafePointer()
		}
		if err := e.enter(v, key); err != nil {
			return b, err
		}
		b = append(b, '{')
		n := v.Len()
		start := len(e.entries)
		defer func(start int) {
			clear(e.entries[start:])
			e.entries = e.entries[:start]
		}(start)
		k, values := e.mapScratch(t, keyType, scalars, n)
		if scalars != nil {
			defer zero(values, n)
		}
		mi := v.MapRange()
		for i := 0; mi.Next(); i++ {
			k.SetIterKey(mi)
			ks, err := resolveKeyName(k)
			if err != nil {
				return b, fmt.Errorf("json: encoding error for type %q: %q", v.Type().String(), err.Error())
			}
			var ev reflect.Value
			if scalars != nil {
				ev = values.Index(i)
				ev.SetIterValue(mi)
			} else {
				ev = mi.Value()
			}
			e.entries = append(e.entries, mapEntry{ks, ev})
		}
		kv := e.entries[start:]
		slices.SortFunc(kv, func(a, b mapEntry) int { return strings.Compare(a.key, b.key) })
		for i := range kv {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendString(b, kv[i].key, true)
			b = append(b, ':')
			var err error
			if b, err = elem(e, b, kv[i].v, quoted); err != nil {
				return b, err
			}
		}
		e.leave(key)
		return append(b, '}'), nil
	}
}

// mapScratch holds one map type's scratch values.
type mapScratch struct {
	key    reflect.Value // a settable key
	values reflect.Value // a []Elem of plain scalars, or invalid
}

// mapScratch returns map type t's scratch key and, for plain scalars, a
// slice of at least n values. A map resolves all its keys before it
// encodes any value, and a map of plain scalars encodes no other map
// while it uses its values, so one scratch per type serves nested maps
// too. Values of a large map are not kept.
func (e *encState) mapScratch(t, keyType, scalars reflect.Type, n int) (key, values reflect.Value) {
	sc := e.maps[t]
	if sc == nil {
		if e.maps == nil {
			e.maps = map[reflect.Type]*mapScratch{}
		}
		sc = &mapScratch{key: reflect.New(keyType).Elem()}
		e.maps[t] = sc
	}
	if scalars == nil {
		return sc.key, reflect.Value{}
	}
	if sc.values.IsValid() && sc.values.Len() >= n {
		return sc.key, sc.values
	}
	values = reflect.MakeSlice(scalars, n, n)
	if n <= maxPooledValues {
		sc.values = values
	}
	return sc.key, values
}

// maxPooledValues is the most map values a scratch slice keeps.
const maxPooledValues = 1024

// zero clears the first n values (strings the map no longer holds are
// not kept alive by the pool).
func zero(values reflect.Value, n int) {
	for i := range n {
		values.Index(i).SetZero()
	}
}

// plainScalar reports whether t's values encode the same from any copy:
// a boolean, number or string kind with no marshaling methods (and not
// json.Number). Being addressable changes nothing for them.
func plainScalar(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Bool, reflect.String,
		reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64:
	default:
		return false
	}
	p := reflect.PointerTo(t)
	return t != numberType && !p.Implements(marshalerType) && !p.Implements(textMarshalerType)
}

// resolveKeyName is a map key's string, as encoding/json's.
func resolveKeyName(k reflect.Value) (string, error) {
	if k.Kind() == reflect.String {
		return k.String(), nil
	}
	if tm, ok := reflect.TypeAssert[encoding.TextMarshaler](k); ok {
		if k.Kind() == reflect.Pointer && k.IsNil() {
			return "", nil
		}
		buf, err := tm.MarshalText()
		return string(buf), err
	}
	switch k.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return strconv.FormatInt(k.Int(), 10), nil
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return strconv.FormatUint(k.Uint(), 10), nil
	}
	panic("unexpected map key type")
}
