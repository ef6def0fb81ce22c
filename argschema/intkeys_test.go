package argschema_test

import (
	"errors"
	"reflect"
	"strconv"
	"testing"

	"github.com/mcpgen/mcpgen/argschema"
	"github.com/mcpgen/mcpgen/internal/argcheck"
)

// TestDerivedIntegerKeySchemaAcceptsTheKeysTheDecoderReads: the schema
// argschema derives for a map keyed by any integer type accepts a member
// name exactly when the arguments decoder reads it as a key: "-1" for an
// int (which `^[0-9]+$` refused), never "256" for a uint8 (which a schema
// without a pattern let through to the decoder's refusal). The native
// checker takes the schema: no full validator is needed.
func TestDerivedIntegerKeySchemaAcceptsTheKeysTheDecoderReads(t *testing.T) {
	names := []string{"0", "1", "-1", "01", "-0", "+1", "127", "128", "-128", "-129", "255", "256", "32767", "32768", "-32769",
		"65535", "65536", "2147483647", "2147483648", "-2147483649", "4294967295", "4294967296",
		"9223372036854775807", "9223372036854775808", "-9223372036854775808", "-9223372036854775809",
		"18446744073709551615", "18446744073709551616", "1e2", "x"}
	loose, err := argcheck.Compile([]byte(`{"type":"object"}`))
	if err != nil {
		t.Fatal(err)
	}
	for _, typ := range []reflect.Type{
		reflect.TypeFor[struct {
			X map[int]string `json:"x"`
		}](),
		reflect.TypeFor[struct {
			X map[int8]string `json:"x"`
		}](),
		reflect.TypeFor[struct {
			X map[int16]string `json:"x"`
		}](),
		reflect.TypeFor[struct {
			X map[int32]string `json:"x"`
		}](),
		reflect.TypeFor[struct {
			X map[int64]string `json:"x"`
		}](),
		reflect.TypeFor[struct {
			X map[uint]string `json:"x"`
		}](),
		reflect.TypeFor[struct {
			X map[uint8]string `json:"x"`
		}](),
		reflect.TypeFor[struct {
			X map[uint16]string `json:"x"`
		}](),
		reflect.TypeFor[struct {
			X map[uint32]string `json:"x"`
		}](),
		reflect.TypeFor[struct {
			X map[uint64]string `json:"x"`
		}](),
	} {
		schema, err := argschema.For(typ)
		if err != nil {
			t.Fatal(err)
		}
		v, err := argschema.Compile(schema)
		if err != nil {
			t.Fatalf("%v: %v", typ, err)
		}
		if !v.Native() {
			t.Errorf("%v: schema %s needs the full validator", typ, schema)
		}
		for _, name := range names {
			args := []byte(`{"x":{` + strconv.Quote(name) + `:"v"}}`)
			_, schemaErr := v.Validate(args)
			decodeErr := argcheck.NewTypeDecoder(typ, loose).DecodeInto(args, reflect.New(typ).Interface())
			var ve *argschema.ValidationError
			if schemaErr != nil && !errors.As(schemaErr, &ve) {
				t.Fatalf("%v %s: %v", typ, args, schemaErr)
			}
			if (schemaErr == nil) != (decodeErr == nil) {
				t.Errorf("%v: member name %q: schema says %v, decoder says %v\nschema %s", typ.Field(0).Type, name, schemaErr, decodeErr, schema)
			}
		}
	}
}
