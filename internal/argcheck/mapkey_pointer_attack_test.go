package argcheck

import (
	"errors"
	"reflect"
	"testing"
)

// TestMapKeyRefusalNamesTheMembersPointer: README ("the call gets the
// validation error as an isError result naming the value's JSON pointer").
// A refused map member name inside an array element or inside another
// map's value is named by a pointer built from the struct field names only:
// the member "01" at /x/1/01 is reported at /x/01 (for an array, an index
// "01" that does not exist), and at /x/k~1~0/01 as /x/01; the member x of an embedded struct
// EmbeddedMap is named /EmbeddedMap/x/01. A caller fixing
// its arguments by the pointer cannot find the member. The decoder's field
// path (fieldPath) holds struct field names (and embedded structs' Go
// names), not array indices or map keys, so the fix is not small.
// EmbeddedMap is embedded: its field x is a member of the outer object.
type EmbeddedMap struct {
	X map[int]string `json:"x"`
}

func TestMapKeyRefusalNamesTheMembersPointer(t *testing.T) {
	v, err := Compile([]byte(`{"type":"object"}`))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		typ     reflect.Type
		args    string
		pointer string
	}{
		{reflect.TypeFor[struct {
			X []map[int]string `json:"x"`
		}](), `{"x":[{"1":"a"},{"1":"a","01":"b"}]}`, "/x/1/01"},
		{reflect.TypeFor[struct {
			X map[string]map[int]string `json:"x"`
		}](), `{"x":{"k/~":{"1":"a","01":"b"}}}`, "/x/k~1~0/01"},
		{reflect.TypeFor[struct{ EmbeddedMap }](), `{"x":{"1":"a","01":"b"}}`, "/x/01"},
	} {
		into := reflect.New(c.typ)
		err := NewTypeDecoder(c.typ, v).DecodeInto([]byte(c.args), into.Interface())
		var ve *ValidationError
		if !errors.As(err, &ve) || ve.Problems[0].Pointer != c.pointer {
			t.Errorf("%s: error %v, want a problem at %s", c.args, err, c.pointer)
		}
	}
}
