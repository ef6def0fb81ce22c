package jsonenc

import (
	"encoding"
	"encoding/json"
	"errors"
	"reflect"
	"unicode/utf8"
)

var (
	marshalerType     = reflect.TypeFor[json.Marshaler]()
	textMarshalerType = reflect.TypeFor[encoding.TextMarshaler]()
)

// A json.MarshalerError names the method that failed in an unexported
// field; these are copies of the ones encoding/json itself returns, so
// an error from here is the error json.Marshal returns, field for field.
var marshalJSONError, marshalTextError = templateErrors()

type failingMarshaler struct{}

func (failingMarshaler) MarshalJSON() ([]byte, error) { return nil, errors.New("x") }

type failingTextMarshaler struct{}

func (failingTextMarshaler) MarshalText() ([]byte, error) { return nil, errors.New("x") }

func templateErrors() (j, t json.MarshalerError) {
	var me *json.MarshalerError
	if _, err := json.Marshal(failingMarshaler{}); errors.As(err, &me) {
		j = *me
	}
	if _, err := json.Marshal(failingTextMarshaler{}); errors.As(err, &me) {
		t = *me
	}
	return j, t
}

func marshalerError(template json.MarshalerError, t reflect.Type, err error) error {
	e := template
	e.Type, e.Err = t, err
	return &e
}

func marshalerEncoder(e *encState, b []byte, v reflect.Value, _ bool) ([]byte, error) {
	if v.Kind() == reflect.Pointer && v.IsNil() {
		return append(b, "null"...), nil
	}
	m, ok := reflect.TypeAssert[json.Marshaler](v)
	if !ok {
		return append(b, "null"...), nil
	}
	return e.appendMarshaler(b, m, v.Type())
}

func addrMarshalerEncoder(e *encState, b []byte, v reflect.Value, _ bool) ([]byte, error) {
	va := v.Addr()
	if va.IsNil() {
		return append(b, "null"...), nil
	}
	m, _ := reflect.TypeAssert[json.Marshaler](va)
	return e.appendMarshaler(b, m, v.Type())
}

// ErrInvalidUTF8 is the error (inside a json.MarshalerError) for a
// MarshalJSON method, json.RawMessage's included, whose output is not
// UTF-8. encoding/json copies such bytes as they are; a JSON-RPC message
// must be UTF-8 (basic/transports), so Marshal refuses them: its one
// difference from json.Marshal.
var ErrInvalidUTF8 = errors.New("not valid UTF-8")

// appendMarshaler appends m's JSON compacted and HTML-escaped, as
// encoding/json does; output that is not JSON is a MarshalerError with
// the syntax error, output that is not UTF-8 one with ErrInvalidUTF8.
func (e *encState) appendMarshaler(b []byte, m json.Marshaler, t reflect.Type) ([]byte, error) {
	raw, err := m.MarshalJSON()
	if err == nil {
		e.scratch.Reset()
		if err = json.Compact(&e.scratch, raw); err == nil {
			if !utf8.Valid(e.scratch.Bytes()) {
				return b, marshalerError(marshalJSONError, t, ErrInvalidUTF8)
			}
			return appendHTMLEscape(b, e.scratch.Bytes()), nil
		}
	}
	return b, marshalerError(marshalJSONError, t, err)
}

func textMarshalerEncoder(_ *encState, b []byte, v reflect.Value, _ bool) ([]byte, error) {
	if v.Kind() == reflect.Pointer && v.IsNil() {
		return append(b, "null"...), nil
	}
	m, ok := reflect.TypeAssert[encoding.TextMarshaler](v)
	if !ok {
		return append(b, "null"...), nil
	}
	return appendText(b, m, v.Type())
}

func addrTextMarshalerEncoder(_ *encState, b []byte, v reflect.Value, _ bool) ([]byte, error) {
	va := v.Addr()
	if va.IsNil() {
		return append(b, "null"...), nil
	}
	m, _ := reflect.TypeAssert[encoding.TextMarshaler](va)
	return appendText(b, m, v.Type())
}

func appendText(b []byte, m encoding.TextMarshaler, t reflect.Type) ([]byte, error) {
	text, err := m.MarshalText()
	if err != nil {
		return b, marshalerError(marshalTextError, t, err)
	}
	return appendString(b, text, true), nil
}
