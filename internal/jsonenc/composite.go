package jsonenc

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"reflect"
	"unsafe"
)

func interfaceEncoder(e *encState, b []byte, v reflect.Value, quoted bool) ([]byte, error) {
	if v.IsNil() {
		return append(b, "null"...), nil
	}
	ev := v.Elem()
	return typeEncoder(ev.Type())(e, b, ev, quoted)
}

// enter counts one more pointer, map or slice being encoded and, that
// deep, reports a cycle through key as encoding/json does (callers box a
// key only that deep: below it is nil).
func (e *encState) enter(v reflect.Value, key any) error {
	if e.ptrLevel++; e.ptrLevel > startDetectingCyclesAfter {
		if _, ok := e.ptrSeen[key]; ok {
			return &json.UnsupportedValueError{Value: v, Str: fmt.Sprintf("encountered a cycle via %s", v.Type())}
		}
		if e.ptrSeen == nil {
			e.ptrSeen = map[any]struct{}{}
		}
		e.ptrSeen[key] = struct{}{}
	}
	return nil
}

func (e *encState) leave(key any) {
	if e.ptrLevel > startDetectingCyclesAfter {
		delete(e.ptrSeen, key)
	}
	e.ptrLevel--
}

// The keys cycles are detected by: a map's, a slice's, a pointer's.
type (
	sliceKey struct {
		p unsafe.Pointer
		n int
	}
	ptrKey struct {
		t reflect.Type
		p unsafe.Pointer
	}
)

// newSliceEncoder encodes a slice as an array ([]byte as base64), nil as
// null.
func newSliceEncoder(t reflect.Type) encFunc {
	if t.Elem().Kind() == reflect.Uint8 {
		p := reflect.PointerTo(t.Elem())
		if !p.Implements(marshalerType) && !p.Implements(textMarshalerType) {
			return byteSliceEncoder
		}
	}
	array := newArrayEncoder(t)
	return func(e *encState, b []byte, v reflect.Value, quoted bool) ([]byte, error) {
		if v.IsNil() {
			return append(b, "null"...), nil
		}
		var key any
		if e.ptrLevel >= startDetectingCyclesAfter {
			key = sliceKey{v.UnsafePointer(), v.Len()}
		}
		if err := e.enter(v, key); err != nil {
			return b, err
		}
		b, err := array(e, b, v, quoted)
		if err != nil {
			return b, err
		}
		e.leave(key)
		return b, nil
	}
}

func byteSliceEncoder(_ *encState, b []byte, v reflect.Value, _ bool) ([]byte, error) {
	if v.IsNil() {
		return append(b, "null"...), nil
	}
	b = append(b, '"')
	b = base64.StdEncoding.AppendEncode(b, v.Bytes())
	return append(b, '"'), nil
}

func newArrayEncoder(t reflect.Type) encFunc {
	elem := typeEncoder(t.Elem())
	return func(e *encState, b []byte, v reflect.Value, quoted bool) ([]byte, error) {
		b = append(b, '[')
		n := v.Len()
		for i := range n {
			if i > 0 {
				b = append(b, ',')
			}
			var err error
			if b, err = elem(e, b, v.Index(i), quoted); err != nil {
				return b, err
			}
		}
		return append(b, ']'), nil
	}
}

func newPtrEncoder(t reflect.Type) encFunc {
	elem := typeEncoder(t.Elem())
	return func(e *encState, b []byte, v reflect.Value, quoted bool) ([]byte, error) {
		if v.IsNil() {
			return append(b, "null"...), nil
		}
		var key any
		if e.ptrLevel >= startDetectingCyclesAfter {
			key = ptrKey{t, v.UnsafePointer()}
		}
		if err := e.enter(v, key); err != nil {
			return b, err
		}
		b, err := elem(e, b, v.Elem(), quoted)
		if err != nil {
			return b, err
		}
		e.leave(key)
		return b, nil
	}
}
