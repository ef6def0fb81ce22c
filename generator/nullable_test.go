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

// TestOptionalNullableMemberKeepsNull — an optional member that may be
// null ({"type": ["object", "null"]}, not required) was a plain pointer
// (or slice, map, union) with omitzero: nil stood for absent and for null
// alike, so {"o":null} re-encoded as {} and a handler could not tell the
// two apart. Such a member is now a pointer to what it is when required
// (**T, *[]T, *MaybeText…): nil is absent, a pointer to nil (or to an
// empty Value) is null, and each comes back as it came, with the value
// checks (enum, bounds) kept.
func TestOptionalNullableMemberKeepsNull(t *testing.T) {
	defs := `{"T":{"type":"object","properties":{
		"o":{"type":["object","null"],"properties":{"q":{"type":"string"}}},
		"u":{"anyOf":[{"type":"object","properties":{"q":{"type":"string"}}},{"type":"null"}]},
		"r":{"anyOf":[{"$ref":"#/$defs/I"},{"type":"null"}]},
		"s":{"type":["string","null"]},
		"i":{"type":["integer","null"],"minimum":1},
		"e":{"type":["string","null"],"enum":["a",null]},
		"a":{"type":["array","null"],"items":{"type":"string"}},
		"m":{"type":["object","null"],"additionalProperties":{"type":"string"}},
		"t":{"$ref":"#/$defs/MaybeText"},
		"k":{"$ref":"#/$defs/Kind"}}},
		"I":{"type":"object","properties":{"n":{"type":"integer"}}},
		"MaybeText":{"type":["string","null"]},
		"Kind":{"type":["string","null"],"enum":["x",null]}}`
	err := generateOrRefuse(t, defs, roundTripSrc+`
var cases = [][2]string{
	{"T", `+"`{}`"+`},
	{"T", `+"`"+`{"o":null}`+"`"+`},
	{"T", `+"`"+`{"o":{}}`+"`"+`},
	{"T", `+"`"+`{"o":{"q":"s"}}`+"`"+`},
	{"T", `+"`"+`{"o":null,"u":null,"r":null,"s":null,"i":null,"e":null,"a":null,"m":null,"t":null,"k":null}`+"`"+`},
	{"T", `+"`"+`{"u":{"q":"r"},"r":{"n":1},"s":"","i":1,"e":"a","a":[],"m":{},"t":"","k":"x"}`+"`"+`},
}

func TestAbsentIsNotNull(t *testing.T) {
	var absent, null T
	if err := json.Unmarshal([]byte(`+"`{}`"+`), &absent); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(`+"`"+`{"o":null}`+"`"+`), &null); err != nil {
		t.Fatal(err)
	}
	if reflect.DeepEqual(absent, null) {
		t.Errorf("{} and {\"o\":null} decode to the same value %+v", absent)
	}
	for _, bad := range []string{`+"`"+`{"i":0}`+"`"+`, `+"`"+`{"e":"b"}`+"`"+`, `+"`"+`{"a":[1]}`+"`"+`} {
		if err := json.Unmarshal([]byte(bad), &null); err == nil {
			t.Errorf("%s accepted", bad)
		}
	}
}
`)
	if err != nil {
		t.Fatalf("refused: %v", err)
	}
}

// TestOptionalNullableByteStringRoundTrips — an optional byte string that
// may be null is a *[]byte, and the append encoder wrote the bytes it
// points to as an array of numbers: "aGk=" came back as [104,105], which
// the decoder itself refuses.
func TestOptionalNullableByteStringRoundTrips(t *testing.T) {
	defs := `{"T":{"type":"object","properties":{"b":{"type":["string","null"],"format":"byte"}}}}`
	err := generateOrRefuse(t, defs, roundTripSrc+`
var cases = [][2]string{
	{"T", `+"`{}`"+`},
	{"T", `+"`"+`{"b":null}`+"`"+`},
	{"T", `+"`"+`{"b":""}`+"`"+`},
	{"T", `+"`"+`{"b":"aGk="}`+"`"+`},
}
`)
	if err != nil {
		t.Fatalf("refused: %v", err)
	}
}

// TestNullableCollectionOfUnionsRefusesNilElement — the encoder refuses a
// nil union element (written as null, which the decoder refuses) in an
// array or map of unions, but not when the array or map itself may be
// null: {"au":[null]} went out, and the peer refused it ("au[0]: expected
// an object, got null"). The elements are checked whether or not the
// collection may be null, required or optional.
func TestNullableCollectionOfUnionsRefusesNilElement(t *testing.T) {
	defs := `{"T":{"type":"object","properties":{
		"au":{"type":["array","null"],"items":{"$ref":"#/$defs/U"}},
		"mu":{"type":["object","null"],"additionalProperties":{"$ref":"#/$defs/U"}},
		"ou":{"type":["array","null"],"items":{"$ref":"#/$defs/U"}}},"required":["au","mu"]},
		"U":{"anyOf":[{"$ref":"#/$defs/O"},{"$ref":"#/$defs/P"}]},
		"O":{"type":"object","properties":{"k":{"const":"o"}},"required":["k"]},
		"P":{"type":"object","properties":{"k":{"const":"p"}},"required":["k"]}}`
	err := generateOrRefuse(t, defs, roundTripSrc+`
var cases = [][2]string{
	{"T", `+"`"+`{"au":null,"mu":null}`+"`"+`},
	{"T", `+"`"+`{"au":null,"mu":null,"ou":null}`+"`"+`},
	{"T", `+"`"+`{"au":[{"k":"o"}],"mu":{"a":{"k":"p"}},"ou":[{"k":"p"}]}`+"`"+`},
}

func TestNilElementIsRefused(t *testing.T) {
	for _, x := range []T{{Au: []U{nil}}, {Mu: map[string]U{"a": nil}}, {Ou: &[]U{(*O)(nil)}}} {
		if b, err := json.Marshal(x); err == nil {
			t.Errorf("%+v encoded as %s, which its decoder refuses", x, b)
		}
	}
}
`)
	if err != nil {
		t.Fatalf("refused: %v", err)
	}
}

// TestInlineScalarUnionWithNullTakesNull — a member whose type lists
// several primitives and null ({"type": ["integer", "string", "null"]})
// refused null, required or optional ("expected integer or string, got
// null"): its inline union dropped null from its types, which only the
// member's reference kept. It keeps null now, as a definition of the same
// schema does, and an optional one keeps null apart from absent.
func TestInlineScalarUnionWithNullTakesNull(t *testing.T) {
	defs := `{"T":{"type":"object","properties":{
		"ri":{"type":["integer","string","null"]},
		"oi":{"type":["integer","string","null"],"maximum":5},
		"ob":{"type":["string","number","boolean","null"]}},"required":["ri"]}}`
	err := generateOrRefuse(t, defs, roundTripSrc+`
var cases = [][2]string{
	{"T", `+"`"+`{"ri":null}`+"`"+`},
	{"T", `+"`"+`{"ri":1,"oi":null,"ob":null}`+"`"+`},
	{"T", `+"`"+`{"ri":"a","oi":5,"ob":true}`+"`"+`},
	{"T", `+"`"+`{"ri":"a","oi":"x","ob":1.5}`+"`"+`},
}

func TestBoundsKept(t *testing.T) {
	var x T
	if err := json.Unmarshal([]byte(`+"`"+`{"ri":1,"oi":6}`+"`"+`), &x); err == nil {
		t.Errorf("oi 6 accepted")
	}
	var absent, null T
	json.Unmarshal([]byte(`+"`"+`{"ri":1}`+"`"+`), &absent)
	json.Unmarshal([]byte(`+"`"+`{"ri":1,"oi":null}`+"`"+`), &null)
	if reflect.DeepEqual(absent, null) {
		t.Errorf("absent and null decode alike")
	}
}
`)
	if err != nil {
		t.Fatalf("refused: %v", err)
	}
}
