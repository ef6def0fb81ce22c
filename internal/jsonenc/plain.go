package jsonenc

import (
	"math"
	"reflect"
	"strconv"
	"unsafe"
)

// plainKind is how a struct field of a plain type is read from the
// struct's memory: a string, bool, integer or float kind whose type has
// no marshaler and no IsZero method, so that its encoding depends on its
// bytes alone (not on addressability, not on a method). notPlain fields
// are read through reflect.Value.
type plainKind uint8

const (
	notPlain plainKind = iota
	plainString
	plainBool
	plainInt8
	plainInt16
	plainInt32
	plainInt64
	plainUint8
	plainUint16
	plainUint32
	plainUint64
	plainFloat32
	plainFloat64
)

// plainKindOf is t's plainKind as a field without the ",string" option.
func plainKindOf(t reflect.Type) plainKind {
	if t == numberType || t.Implements(marshalerType) || t.Implements(textMarshalerType) ||
		reflect.PointerTo(t).Implements(marshalerType) || reflect.PointerTo(t).Implements(textMarshalerType) {
		return notPlain
	}
	switch t.Kind() {
	case reflect.String:
		return plainString
	case reflect.Bool:
		return plainBool
	case reflect.Float32:
		return plainFloat32
	case reflect.Float64:
		return plainFloat64
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return [...]plainKind{1: plainInt8, 2: plainInt16, 4: plainInt32, 8: plainInt64}[t.Size()]
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return [...]plainKind{1: plainUint8, 2: plainUint16, 4: plainUint32, 8: plainUint64}[t.Size()]
	}
	return notPlain
}

// plainOffset is the offset of the field at index (through embedded
// structs) from the start of a t, false when an embedded struct on the
// way is behind a pointer.
func plainOffset(t reflect.Type, index []int) (uintptr, bool) {
	var off uintptr
	for _, j := range index {
		if t.Kind() != reflect.Struct {
			return 0, false
		}
		sf := t.Field(j)
		off += sf.Offset
		t = sf.Type
	}
	return off, true
}

// isZeroPlain reports whether the plain field at p holds its type's zero
// value, as reflect.Value.IsZero tells it (a float == 0, so -0 too):
// omitempty's and omitzero's test for such a field.
func isZeroPlain(k plainKind, p unsafe.Pointer) bool {
	switch k {
	case plainString:
		return len(*(*string)(p)) == 0
	case plainBool, plainInt8, plainUint8:
		return *(*uint8)(p) == 0
	case plainInt16, plainUint16:
		return *(*uint16)(p) == 0
	case plainInt32, plainUint32:
		return *(*uint32)(p) == 0
	case plainFloat32:
		return *(*float32)(p) == 0
	case plainFloat64:
		return *(*float64)(p) == 0
	}
	return *(*uint64)(p) == 0 // plainInt64, plainUint64
}

// appendPlain appends the encoding of f, a plain field at p, as f.enc
// would append it; a float that is not a short decimal (and NaN or ±Inf,
// with their error) is f.enc's, on a reflect.Value made for it.
func appendPlain(e *encState, b []byte, f *field, p unsafe.Pointer) ([]byte, error) {
	switch f.plain {
	case plainString:
		return appendString(b, *(*string)(p), true), nil
	case plainBool:
		if *(*bool)(p) {
			return append(b, "true"...), nil
		}
		return append(b, "false"...), nil
	case plainInt8:
		return strconv.AppendInt(b, int64(*(*int8)(p)), 10), nil
	case plainInt16:
		return strconv.AppendInt(b, int64(*(*int16)(p)), 10), nil
	case plainInt32:
		return strconv.AppendInt(b, int64(*(*int32)(p)), 10), nil
	case plainInt64:
		return strconv.AppendInt(b, *(*int64)(p), 10), nil
	case plainUint8:
		return strconv.AppendUint(b, uint64(*(*uint8)(p)), 10), nil
	case plainUint16:
		return strconv.AppendUint(b, uint64(*(*uint16)(p)), 10), nil
	case plainUint32:
		return strconv.AppendUint(b, uint64(*(*uint32)(p)), 10), nil
	case plainUint64:
		return strconv.AppendUint(b, *(*uint64)(p), 10), nil
	case plainFloat64:
		x := *(*float64)(p)
		if math.Float64bits(x) == 0 {
			return append(b, '0'), nil
		}
		if out, ok := appendShortDecimal(b, x); ok {
			return out, nil
		}
	}
	return f.enc(e, b, reflect.NewAt(f.typ, p).Elem(), false)
}
