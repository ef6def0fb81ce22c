package argcheck

import (
	"reflect"
	"unsafe"

	"github.com/mcpgen/mcpgen/internal/jsonscan"
)

// directKind is how a struct field may be stored without reflect: a field
// of the struct itself (not through an embedded one), without the
// ",string" option, of a plainType whose kind is string or bool and which
// is not json.Number. Its offset is the field's in the struct.
type directKind uint8

const (
	directNone directKind = iota
	directString
	directBool
)

// directOf is the directKind of field f of struct type t.
func directOf(t reflect.Type, index []int, quoted, plain bool) (directKind, uintptr) {
	if len(index) != 1 || quoted || !plain {
		return directNone, 0
	}
	sf := t.Field(index[0])
	switch {
	case sf.Type.Kind() == reflect.String && sf.Type != numberType:
		return directString, sf.Offset
	case sf.Type.Kind() == reflect.Bool:
		return directBool, sf.Offset
	}
	return directNone, 0
}

// storeDirect stores node i of t in field f of the struct at base when it
// is a literal the field's kind takes as literal would (a string into a
// string, true or false into a bool), and reports whether it did; any other
// value is left to literal, with its errors and their field path.
func (d *tapeDecoder) storeDirect(t *jsonscan.Tape, i int, f *decodeField, base unsafe.Pointer) bool {
	k := t.Kind(i)
	switch f.direct {
	case directString:
		if k != jsonscan.KindString {
			return false
		}
		var s string
		switch {
		case t.Escaped(i):
			s = t.Text(i)
		case t.Aliasable(i):
			s = jsonscan.AliasString(t.Contents(i))
		default:
			s = string(t.Contents(i))
		}
		*(*string)(unsafe.Add(base, f.offset)) = s
		return true
	case directBool:
		if k != jsonscan.KindTrue && k != jsonscan.KindFalse {
			return false
		}
		*(*bool)(unsafe.Add(base, f.offset)) = k == jsonscan.KindTrue
		return true
	}
	return false
}
