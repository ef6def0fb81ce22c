package generator_test

import (
	"testing"
)

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
