package jsonenc

import (
	"reflect"
	"unsafe"
)

// structEncoder encodes a struct's fields (typeFields) in order, skipping
// those behind a nil embedded pointer and the omitted ones. A struct in
// memory it can read (addressable, or the root value Marshal was given)
// has its plain fields read at their offsets, not through
// reflect.Value.Field.
type structEncoder struct {
	fields []field
	// allPlain: every field is plain, so the struct's encoding needs
	// its memory only (no reflect.Value).
	allPlain bool
}

func newStructEncoder(t reflect.Type) encFunc { return compileStruct(t).encode }

func compileStruct(t reflect.Type) *structEncoder {
	s := &structEncoder{fields: typeFields(t), allPlain: true}
	for i := range s.fields {
		f := &s.fields[i]
		f.enc = typeEncoder(f.typ)
		if off, ok := plainOffset(t, f.index); ok && !f.quoted && f.isZero == nil {
			f.offset, f.plain = off, plainKindOf(f.typ)
		}
		if f.plain == notPlain {
			s.allPlain = false
		}
	}
	return s
}

// plainStruct is the structEncoder of t when t is a struct type without
// marshalers that has fields and only plain ones, else nil. A value of
// such a type is never stored in an interface's data word (a plain
// field is not a pointer), so an interface holding one points to it
// (rootValue).
func plainStruct(t reflect.Type) *structEncoder {
	if t.Kind() != reflect.Struct ||
		t.Implements(marshalerType) || t.Implements(textMarshalerType) ||
		reflect.PointerTo(t).Implements(marshalerType) || reflect.PointerTo(t).Implements(textMarshalerType) {
		return nil
	}
	if s := compileStruct(t); s.allPlain && len(s.fields) > 0 {
		return s
	}
	return nil
}

// rootValue is where v, an interface holding a value of a plainStruct
// type, keeps that value: its data word.
func rootValue(v any) unsafe.Pointer {
	return (*[2]unsafe.Pointer)(unsafe.Pointer(&v))[1]
}

func (s *structEncoder) encode(e *encState, b []byte, v reflect.Value, _ bool) ([]byte, error) {
	if s.allPlain && v.CanAddr() {
		return s.encodePlain(b, unsafe.Pointer(v.UnsafeAddr()))
	}
	if v.CanAddr() {
		return s.encodeAt(e, b, v, unsafe.Pointer(v.UnsafeAddr()))
	}
	return s.encodeAt(e, b, v, nil)
}

// encodePlain encodes the struct at p, whose fields are all plain (so
// s.allPlain); no encoder it calls uses an encState.
func (s *structEncoder) encodePlain(b []byte, p unsafe.Pointer) ([]byte, error) {
	b = append(b, '{')
	comma := 1 // the first key written goes without its comma
	fields := s.fields
	for i := range fields {
		f := &fields[i]
		fp := unsafe.Add(p, f.offset)
		if f.omitEmpty || f.omitZero {
			if isZeroPlain(f.plain, fp) {
				continue
			}
		}
		b = append(b, f.key[comma:]...)
		comma = 0
		if f.plain == plainString {
			b = appendString(b, *(*string)(fp), true)
			continue
		}
		var err error
		if b, err = appendPlain(nil, b, f, fp); err != nil {
			return b, err
		}
	}
	return append(b, '}'), nil
}

// appendKey appends f's `,"name":`, without its comma for the first
// member written.
func appendKey(b []byte, f *field, first bool) []byte {
	if first {
		return append(b, f.key[1:]...)
	}
	return append(b, f.key...)
}

// encodeAt encodes the struct v, which is at p when p is not nil (then v
// may be the zero Value if s.allPlain).
func (s *structEncoder) encodeAt(e *encState, b []byte, v reflect.Value, p unsafe.Pointer) ([]byte, error) {
	b = append(b, '{')
	first := true
fieldLoop:
	for i := range s.fields {
		f := &s.fields[i]
		if p != nil && f.plain != notPlain {
			fp := unsafe.Add(p, f.offset)
			if (f.omitEmpty || f.omitZero) && isZeroPlain(f.plain, fp) {
				continue
			}
			b, first = appendKey(b, f, first), false
			var err error
			if b, err = appendPlain(e, b, f, fp); err != nil {
				return b, err
			}
			continue
		}
		var fv reflect.Value
		if len(f.index) == 1 {
			fv = v.Field(f.index[0])
		} else {
			fv = v
			for _, j := range f.index {
				if fv.Kind() == reflect.Pointer {
					if fv.IsNil() {
						continue fieldLoop
					}
					fv = fv.Elem()
				}
				fv = fv.Field(j)
			}
		}
		if (f.omitEmpty && isEmptyValue(fv)) ||
			(f.omitZero && (f.isZero == nil && fv.IsZero() || f.isZero != nil && f.isZero(fv))) {
			continue
		}
		b, first = appendKey(b, f, first), false
		var err error
		if b, err = f.enc(e, b, fv, f.quoted); err != nil {
			return b, err
		}
	}
	return append(b, '}'), nil
}
