package generator_test

import (
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/generator"
)

// TestAttackIntegerBeyondInt64 — an integer whose enum value or minimum
// lies beyond int64 (a future revision widening a size or an id) is
// neither refused nor representable: the package generates, then refuses
// every value the schema allows there ("integer … is out of range
// (int64)"). The generator must refuse such a schema naming the pointer,
// or generate a type that holds the values.
func TestAttackIntegerBeyondInt64(t *testing.T) {
	defs := `{"Big":{"type":"object","properties":{"e":{"type":"integer","enum":[1,99999999999999999999]},"m":{"type":"integer","minimum":1e30}}}}`
	generateOrRefuse(t, defs, roundTripSrc+`
var cases = [][2]string{
	{"Big", `+"`"+`{"e":99999999999999999999}`+"`"+`},
	{"Big", `+"`"+`{"m":1e30}`+"`"+`},
	{"Big", `+"`"+`{"m":2000000000000000000000000000000}`+"`"+`},
}
`)
}

// TestAttackNullableObjectElements — an object that may be null is
// supported as a property (the required T.no below takes null) and refused with
// a pointer error as a definition ("unsupported type \"object\""), but as
// an array item, a map value or a _meta object it is silently generated
// as a non-nullable struct: the package then refuses the null the schema
// allows ("expected an object, got null").
func TestAttackNullableObjectElements(t *testing.T) {
	defs := `{"T":{"type":"object","properties":{
		"no":{"type":["object","null"],"properties":{"q":{"type":"string"}}},
		"ao":{"type":"array","items":{"type":["object","null"],"properties":{"q":{"type":"string"}}}},
		"mo":{"type":"object","additionalProperties":{"type":["object","null"],"properties":{"q":{"type":"string"}}}}},"required":["no"]},
		"V":{"type":"object","properties":{"_meta":{"type":["object","null"],"properties":{"k":{"type":"string"}}}},"required":["_meta"]}}`
	generateOrRefuse(t, defs, roundTripSrc+`
var cases = [][2]string{
	{"T", `+"`"+`{"no":null,"ao":[null,{"q":"r"}]}`+"`"+`},
	{"T", `+"`"+`{"no":{"q":"s"},"mo":{"k":null,"j":{"q":"r"}}}`+"`"+`},
	{"V", `+"`"+`{"_meta":null}`+"`"+`},
}
`)
}

// TestAttackByteEnumIsNoGeneratorBug — a base64 member (format: byte, as
// `blob` and `data` are) that lists its allowed values: Generate refuses
// it with "generator bug: the Go it would write does not compile"
// (checkOneOf on a []byte). Generate's own doc calls that error a
// generator bug; a schema is either supported or refused as unsupported.
func TestAttackByteEnumIsNoGeneratorBug(t *testing.T) {
	m, err := loadDefs(t, `{"B":{"type":"object","properties":{"eb":{"type":"string","format":"byte","enum":["YQ==","Yg=="]}}}}`)
	if err != nil {
		return // refused while loading, naming the pointer
	}
	if _, err := generator.Generate(m, generator.Options{Package: "p"}); err != nil && strings.Contains(err.Error(), "generator bug") {
		t.Fatalf("Generate: %v", err)
	}
}
