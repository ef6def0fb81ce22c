package jsonenc

import (
	"reflect"
	"sync/atomic"
)

// Encoder marshals the values of one type, for a caller that encodes many
// of them (a tool's result type): Marshal without the lookup of the type's
// encoder by type, which it makes on its first call only.
type Encoder struct {
	t reflect.Type
	r atomic.Pointer[root]
}

// NewEncoder returns the Encoder of values of type t; it compiles nothing
// until the first value is encoded.
func NewEncoder(t reflect.Type) *Encoder { return &Encoder{t: t} }

// Marshal returns the JSON encoding of v, Marshal(v) byte for byte. A v of
// another type than the Encoder's (a dynamic type when that is an
// interface type) is encoded as Marshal encodes it.
func (e *Encoder) Marshal(v any) ([]byte, error) { return e.MarshalRoom(v, 0, 0) }

// MarshalRoom is Marshal(v) behind front bytes of room (zeros): the
// encoding is buf[front:], and buf has back bytes of spare capacity or
// more, unless the encoding outgrew the size guessed from the type's last
// one. A caller that frames the encoding writes around it in place.
func (e *Encoder) MarshalRoom(v any, front, back int) (buf []byte, err error) {
	rv := reflect.ValueOf(v)
	if !rv.IsValid() {
		return append(make([]byte, front, front+len("null")+back), "null"...), nil
	}
	if rv.Type() != e.t {
		return rootFor(rv.Type()).marshal(v, rv, front, back)
	}
	r := e.r.Load()
	if r == nil {
		r = rootFor(e.t)
		e.r.Store(r)
	}
	return r.marshal(v, rv, front, back)
}
