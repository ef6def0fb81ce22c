package jsonenc

import (
	"reflect"

	"github.com/mcpgen/mcpgen/internal/jsonfields"
)

// field is one member of a struct's encoding, as encoding/json's
// typeFields finds it.
type field struct {
	name      string
	key       []byte // `,"name":`, HTML-escaped (the first field written skips the comma)
	index     []int  // through embedded structs
	typ       reflect.Type
	omitEmpty bool
	omitZero  bool
	isZero    func(reflect.Value) bool // omitzero: nil means reflect.Value.IsZero
	quoted    bool
	enc       encFunc
	plain     plainKind // how the field is read from the struct's memory
	offset    uintptr   // of a plain field, from the start of the struct
}

type isZeroer interface{ IsZero() bool }

var isZeroerType = reflect.TypeFor[isZeroer]()

// typeFields are t's members in the order encoding/json writes them
// (jsonfields, which the argument decoder reads too), each with its key
// and omitzero test.
func typeFields(t reflect.Type) []field {
	fields := jsonfields.TypeFields(t)
	out := make([]field, len(fields))
	for i, f := range fields {
		key := append([]byte{',', '"'}, appendHTMLEscape(nil, []byte(f.Name))...)
		out[i] = field{name: f.Name, key: append(key, '"', ':'), index: f.Index, typ: f.Type,
			omitEmpty: f.OmitEmpty, omitZero: f.OmitZero, quoted: f.Quoted}
		if f.OmitZero {
			out[i].isZero = isZeroFunc(f.Type)
		}
	}
	return out
}

// isZeroFunc is omitzero's test for a field of type t: its IsZero method
// when it has one (a nil pointer or interface is zero), else nil
// (reflect.Value.IsZero).
func isZeroFunc(t reflect.Type) func(reflect.Value) bool {
	switch {
	case t.Kind() == reflect.Interface && t.Implements(isZeroerType):
		return func(v reflect.Value) bool {
			return v.IsNil() ||
				(v.Elem().Kind() == reflect.Pointer && v.Elem().IsNil()) ||
				v.Interface().(isZeroer).IsZero()
		}
	case t.Kind() == reflect.Pointer && t.Implements(isZeroerType):
		return func(v reflect.Value) bool {
			return v.IsNil() || v.Interface().(isZeroer).IsZero()
		}
	case t.Implements(isZeroerType):
		return func(v reflect.Value) bool {
			return v.Interface().(isZeroer).IsZero()
		}
	case reflect.PointerTo(t).Implements(isZeroerType):
		return func(v reflect.Value) bool {
			if !v.CanAddr() {
				v2 := reflect.New(v.Type()).Elem()
				v2.Set(v)
				v = v2
			}
			return v.Addr().Interface().(isZeroer).IsZero()
		}
	}
	return nil
}

// isEmptyValue is omitempty's test.
func isEmptyValue(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Array, reflect.Map, reflect.Slice, reflect.String:
		return v.Len() == 0
	case reflect.Bool,
		reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64,
		reflect.Interface, reflect.Pointer:
		return v.IsZero()
	}
	return false
}
