package argschema_test

import (
	"errors"
	"reflect"
	"strconv"
	"testing"

	"github.com/mcpgen/mcpgen/argschema"
	"github.com/mcpgen/mcpgen/internal/argcheck"
)

// TestUintptrKeySchemaAcceptsTheKeysTheDecoderReads: the arguments
// decoder reads a map[uintptr] key as it reads a uint's (the canonical
// text of a value in range), so the derived schema says so with the
// unsigned pattern of its size: "01" or "+1" is refused by the checker,
// as for every other integer key type, not let through to the decoder.
func TestUintptrKeySchemaAcceptsTheKeysTheDecoderReads(t *testing.T) {
	type args struct {
		X map[uintptr]string `json:"x"`
	}
	typ := reflect.TypeFor[args]()
	schema, err := argschema.For(typ)
	if err != nil {
		t.Fatal(err)
	}
	v, err := argschema.Compile(schema)
	if err != nil {
		t.Fatal(err)
	}
	loose, err := argcheck.Compile([]byte(`{"type":"object"}`))
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"0", "1", "01", "+1", "-0", "-1", "18446744073709551615", "18446744073709551616", "x"} {
		args := []byte(`{"x":{` + strconv.Quote(name) + `:"v"}}`)
		_, schemaErr := v.Validate(args)
		decodeErr := argcheck.NewTypeDecoder(typ, loose).DecodeInto(args, reflect.New(typ).Interface())
		var ve *argschema.ValidationError
		if schemaErr != nil && !errors.As(schemaErr, &ve) {
			t.Fatalf("%s: %v", args, schemaErr)
		}
		if (schemaErr == nil) != (decodeErr == nil) {
			t.Errorf("member name %q: schema says %v, decoder says %v\nschema %s", name, schemaErr, decodeErr, schema)
		}
	}
}
