// Package jsonenc encodes Go values as JSON by appending to a byte slice,
// with an encoder compiled once per type (reflection read once, cached).
// Its output and its errors are exactly those of encoding/json's Marshal
// for every value: the same field rules (tags, omitempty, omitzero,
// ",string", embedded structs and their conflicts), the same escaping
// (HTML characters, U+2028 and U+2029, invalid UTF-8 as U+FFFD), the same
// number formatting, sorted map keys, and json.Marshaler and
// encoding.TextMarshaler called where encoding/json calls them — except
// that a MarshalJSON method's output (a json.RawMessage's bytes) that is
// not UTF-8 is an error (ErrInvalidUTF8), where encoding/json copies it
// into output no JSON-RPC message may carry. The package mirrors encoding/json's encode.go (Go 1.26), which the
// differential fuzz target FuzzMarshal holds it to; it is the encoding
// counterpart of internal/argcheck's tape decoder.
package jsonenc

import (
	"bytes"
	"encoding/json"
	"reflect"
	"sync"
	"sync/atomic"
)

// Marshal returns the JSON encoding of v: json.Marshal(v), byte for byte.
// It encodes into one allocation sized from the last encoding of v's type
// (no copy at the end, no buffer kept between calls).
func Marshal(v any) ([]byte, error) {
	rv := reflect.ValueOf(v)
	if !rv.IsValid() {
		return []byte("null"), nil
	}
	return rootFor(rv.Type()).marshal(v, rv, 0, 0)
}

// marshal is Marshal of v, whose reflect.Value rv is valid and of r's
// type, behind front bytes of room and with back bytes of spare capacity
// planned (MarshalRoom).
func (r *root) marshal(v any, rv reflect.Value, front, back int) ([]byte, error) {
	h := int(r.size.Load())
	buf := make([]byte, front, front+h+h/16+back)
	var (
		b   []byte
		err error
	)
	if r.plain != nil {
		b, err = r.plain.encodePlain(buf, rootValue(v))
		if ue, ok := err.(*json.UnsupportedValueError); ok {
			// The field was read in v's interface, which is immutable:
			// the error holds a copy that cannot be set, as
			// json.Marshal's does.
			ue.Value = reflect.ValueOf(ue.Value.Interface())
		}
	} else {
		e := statePool.Get().(*encState)
		b, err = r.enc(e, buf, rv, false)
		e.reset()
		statePool.Put(e)
	}
	if err != nil {
		return nil, err
	}
	n := len(b) - front
	r.size.Store(int64(n))
	if cap(b)-len(b) > n+back && cap(b) > maxSpare {
		// Sized for a larger value of the type: a small one must not
		// keep that buffer alive (json.Marshal returns an exact copy).
		b = append(make([]byte, 0, len(b)+back), b...)
	}
	return b, nil
}

// maxSpare is the capacity up to which Marshal returns its buffer as it
// is, however much of it is unused; a larger buffer at most half used is
// copied to the value's size.
const maxSpare = 64 << 10

// root is a type's encoder as Marshal uses it, with the length of the
// type's last encoding.
type root struct {
	enc encFunc
	// plain is the type's plainStruct encoder, if it has one: the value
	// is read in the interface Marshal was given.
	plain *structEncoder
	size  atomic.Int64
}

var rootCache sync.Map // reflect.Type → *root

func rootFor(t reflect.Type) *root {
	if r, ok := rootCache.Load(t); ok {
		return r.(*root)
	}
	r, _ := rootCache.LoadOrStore(t, &root{enc: typeEncoder(t), plain: plainStruct(t)})
	return r.(*root)
}

// Append appends the JSON encoding of v to dst (json.Marshal(v), byte for
// byte). On an error it returns dst as it was and the error json.Marshal
// returns.
func Append(dst []byte, v any) ([]byte, error) {
	rv := reflect.ValueOf(v)
	if !rv.IsValid() {
		return append(dst, "null"...), nil
	}
	e := statePool.Get().(*encState)
	n := len(dst)
	out, err := typeEncoder(rv.Type())(e, dst, rv, false)
	e.reset()
	statePool.Put(e)
	if err != nil {
		return dst[:n], err
	}
	return out, nil
}

// encFunc appends the encoding of v (of the type it was compiled for).
// quoted is the ",string" option of the field v is the value of.
type encFunc func(e *encState, b []byte, v reflect.Value, quoted bool) ([]byte, error)

// encState is one call's state: encoding/json's cycle detection (how many
// pointers, maps and slices are being encoded, and past
// startDetectingCyclesAfter which ones) and scratch space, pooled.
type encState struct {
	ptrLevel uint
	ptrSeen  map[any]struct{}
	entries  []mapEntry // the members of the maps being encoded, innermost last
	maps     map[reflect.Type]*mapScratch
	scratch  bytes.Buffer // Marshaler output, compacted
}

// maxPooled is the largest scratch buffer kept for the next call.
const maxPooled = 64 << 10

// startDetectingCyclesAfter is encoding/json's: cycles are looked for
// only this deep, so ordinary values pay nothing.
const startDetectingCyclesAfter = 1000

var statePool = sync.Pool{New: func() any { return new(encState) }}

func (e *encState) reset() {
	e.ptrLevel = 0
	if len(e.ptrSeen) > 0 {
		clear(e.ptrSeen)
	}
	if len(e.maps) > 64 {
		e.maps = nil
	}
	if cap(e.entries) > maxPooledValues {
		e.entries = nil
	}
	if e.scratch.Cap() > maxPooled {
		e.scratch = bytes.Buffer{}
	}
}

var encoderCache sync.Map // reflect.Type → encFunc

// typeEncoder returns t's encoder, compiled once. A recursive type meets
// a forwarding encoder while its own is being compiled.
func typeEncoder(t reflect.Type) encFunc {
	if f, ok := encoderCache.Load(t); ok {
		return f.(encFunc)
	}
	var (
		wg sync.WaitGroup
		f  encFunc
	)
	wg.Add(1)
	fi, loaded := encoderCache.LoadOrStore(t, encFunc(func(e *encState, b []byte, v reflect.Value, quoted bool) ([]byte, error) {
		wg.Wait()
		return f(e, b, v, quoted)
	}))
	if loaded {
		return fi.(encFunc)
	}
	f = newTypeEncoder(t, true)
	wg.Done()
	encoderCache.Store(t, f)
	return f
}

// newTypeEncoder compiles t's encoder as encoding/json's newTypeEncoder
// chooses it. allowAddr: a pointer-receiver MarshalJSON or MarshalText is
// called when the value is addressable.
func newTypeEncoder(t reflect.Type, allowAddr bool) encFunc {
	if t.Kind() != reflect.Pointer && allowAddr && reflect.PointerTo(t).Implements(marshalerType) {
		return condAddrEncoder(addrMarshalerEncoder, newTypeEncoder(t, false))
	}
	if t.Implements(marshalerType) {
		return marshalerEncoder
	}
	if t.Kind() != reflect.Pointer && allowAddr && reflect.PointerTo(t).Implements(textMarshalerType) {
		return condAddrEncoder(addrTextMarshalerEncoder, newTypeEncoder(t, false))
	}
	if t.Implements(textMarshalerType) {
		return textMarshalerEncoder
	}
	switch t.Kind() {
	case reflect.Bool:
		return boolEncoder
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return intEncoder
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return uintEncoder
	case reflect.Float32:
		return float32Encoder
	case reflect.Float64:
		return float64Encoder
	case reflect.String:
		if t == numberType {
			return numberEncoder
		}
		return stringEncoder
	case reflect.Interface:
		return interfaceEncoder
	case reflect.Struct:
		return newStructEncoder(t)
	case reflect.Map:
		return newMapEncoder(t)
	case reflect.Slice:
		return newSliceEncoder(t)
	case reflect.Array:
		return newArrayEncoder(t)
	case reflect.Pointer:
		return newPtrEncoder(t)
	}
	return unsupportedTypeEncoder
}

func condAddrEncoder(canAddr, other encFunc) encFunc {
	return func(e *encState, b []byte, v reflect.Value, quoted bool) ([]byte, error) {
		if v.CanAddr() {
			return canAddr(e, b, v, quoted)
		}
		return other(e, b, v, quoted)
	}
}
