package generator_test

import (
	"strings"
	"testing"
)

// TestNullableObjectElementsAreRefused — an object that may be null is
// supported as a member (a pointer, nil for null) and refused with a
// pointer error as a definition, but as an array item, a map value or a
// _meta object it was silently generated as a struct value, and the
// package refused the null the schema allows ("expected an object, got
// null"). Those are refused now, each at its pointer.
func TestNullableObjectElementsAreRefused(t *testing.T) {
	defs := `{"T":{"type":"object","properties":{
		"no":{"type":["object","null"],"properties":{"q":{"type":"string"}}},
		"ao":{"type":"array","items":{"type":["object","null"],"properties":{"q":{"type":"string"}}}},
		"mo":{"type":"object","additionalProperties":{"type":["object","null"],"properties":{"q":{"type":"string"}}}}},"required":["no"]},
		"V":{"type":"object","properties":{"_meta":{"type":["object","null"],"properties":{"k":{"type":"string"}}}},"required":["_meta"]}}`
	err := generateOrRefuse(t, defs, roundTripSrc+`
var cases = [][2]string{
	{"T", `+"`"+`{"no":null,"ao":[null,{"q":"r"}]}`+"`"+`},
	{"T", `+"`"+`{"no":{"q":"s"},"mo":{"k":null,"j":{"q":"r"}}}`+"`"+`},
	{"V", `+"`"+`{"_meta":null}`+"`"+`},
}
`)
	for _, want := range []string{
		"#/$defs/T/properties/ao/items: unsupported array item or map value that is an object and may be null",
		"#/$defs/T/properties/mo/additionalProperties: unsupported array item or map value that is an object and may be null",
		"#/$defs/V/properties/_meta: unsupported _meta that may be null",
	} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("got %v, want an error %q", err, want)
		}
	}
}

// TestNullableObjectMemberTakesNull checks what stays supported: a
// required member that is an object or null takes null and gives it back.
func TestNullableObjectMemberTakesNull(t *testing.T) {
	defs := `{"T":{"type":"object","properties":{
		"no":{"type":["object","null"],"properties":{"q":{"type":"string"}}},
		"oo":{"anyOf":[{"type":"object","properties":{"q":{"type":"string"}}},{"type":"null"}]}},"required":["no","oo"]}}`
	err := generateOrRefuse(t, defs, roundTripSrc+`
var cases = [][2]string{
	{"T", `+"`"+`{"no":null,"oo":null}`+"`"+`},
	{"T", `+"`"+`{"no":{"q":"s"},"oo":{"q":"r"}}`+"`"+`},
}
`)
	if err != nil {
		t.Fatalf("refused: %v", err)
	}
}
