package argcheck

import (
	"encoding/json"
	"reflect"
	"testing"
)

type directLabel string

type directEmbedded struct {
	Inner string `json:"inner"`
}

type directArgs struct {
	directEmbedded
	S     string      `json:"s"`
	B     bool        `json:"b"`
	L     directLabel `json:"l"`
	N     json.Number `json:"n"`
	Q     string      `json:"q,string"`
	P     *string     `json:"p"`
	I     int         `json:"i"`
	Upper upper       `json:"upper"`
}

// TestDirectOf: only the struct's own plain string and bool fields are
// stored directly; json.Number, ",string", pointers, embedded fields,
// other kinds and Unmarshalers take the reflect path.
func TestDirectOf(t *testing.T) {
	want := map[string]directKind{"s": directString, "b": directBool, "l": directString,
		"n": directNone, "q": directNone, "p": directNone, "i": directNone, "upper": directNone, "inner": directNone}
	typ := reflect.TypeFor[directArgs]()
	fields := fieldsOf(typ)
	for name, kind := range want {
		f := fields.field(name)
		if f == nil {
			t.Fatalf("no field %q", name)
		}
		if f.direct != kind {
			t.Errorf("%s: direct %d, want %d", name, f.direct, kind)
		}
		if kind != directNone && f.offset != typ.Field(f.index[0]).Offset {
			t.Errorf("%s: offset %d, want %d", name, f.offset, typ.Field(f.index[0]).Offset)
		}
	}
}

// TestStoreDirectAsUnmarshal: values stored directly (plain, escaped and
// aliasable strings, booleans) and the others (a number into a string, a
// string into a bool) decode as encoding/json decodes them, errors included.
func TestStoreDirectAsUnmarshal(t *testing.T) {
	open := mustCompile(t, `{"type":"object"}`)
	for _, s := range []string{
		`{"s":"abc","b":true,"l":"x"}`, `{"s":"a\"b\u00e9","b":false}`, `{"s":"","l":""}`,
		`{"s":1}`, `{"b":"true"}`, `{"l":null,"s":null,"b":null}`, `{"inner":"in","q":"\"quoted\""}`,
	} {
		sameDecode[directArgs](t, open, []byte(s))
	}
}
