package generator_test

import (
	"strings"
	"testing"
)

// TestIntegerBeyondInt64IsRefused — an integer whose enum value or
// minimum lies beyond int64 (a future revision widening a size or an id)
// generated as an int64, and the package then refused every value the
// schema allows there ("integer … is out of range (int64)"). The schema
// is refused now, at the enum value and at the minimum.
func TestIntegerBeyondInt64IsRefused(t *testing.T) {
	defs := `{"Big":{"type":"object","properties":{"e":{"type":"integer","enum":[1,99999999999999999999]},"m":{"type":"integer","minimum":1e30}}}}`
	err := generateOrRefuse(t, defs, roundTripSrc+`
var cases = [][2]string{
	{"Big", `+"`"+`{"e":99999999999999999999}`+"`"+`},
	{"Big", `+"`"+`{"m":1e30}`+"`"+`},
	{"Big", `+"`"+`{"m":2000000000000000000000000000000}`+"`"+`},
}
`)
	for _, want := range []string{"#/$defs/Big/properties/e/enum/1: unsupported enum value 99999999999999999999", "#/$defs/Big/properties/m/minimum: unsupported minimum 1e30"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("got %v, want an error %q", err, want)
		}
	}
}

// TestIntegerWithinInt64IsKept checks the edges of the int64 range: an
// enum of its least and greatest values, written 1e2-style too, and a
// number (not only an integer) beyond it, load.
func TestIntegerWithinInt64IsKept(t *testing.T) {
	defs := `{"Edge":{"type":"object","properties":{"e":{"type":"integer","enum":[-9223372036854775808,9223372036854775807,1e2]},"n":{"type":"number","enum":[1e30]}}}}`
	if _, err := loadDefs(t, defs); err != nil {
		t.Fatalf("Load: %v", err)
	}
}

// boundsSrc decodes each [definition, message, "ok" or "refused"] case
// with DecodeNamed: a message is taken or refused as the schema says.
const boundsSrc = `package p

import "testing"

func TestBounds(t *testing.T) {
	for _, c := range cases {
		_, err := DecodeNamed(c[0], []byte(c[1]))
		if (err == nil) != (c[2] == "ok") {
			t.Errorf("%s %s: got %v, want %s", c[0], c[1], err, c[2])
		}
	}
}
`

// TestIntegerBoundNoInt64MeetsIsRefused — a minimum of exactly 2^63 on an
// integer (or a maximum below -2^63 that rounds to it) was compared as a
// float64: not above 2^63, so it loaded, and the generated check, which
// rounded the value to a float64 too, let math.MaxInt64 meet it. No int64
// meets such a bound: the schema is refused at the bound's pointer, as is
// a bound whose float64 would admit other int64s than it does.
// (exclusiveMinimum and exclusiveMaximum are refused as keywords mcpgen
// does not model.)
func TestIntegerBoundNoInt64MeetsIsRefused(t *testing.T) {
	for _, c := range []struct{ defs, src, want string }{
		{`{"B":{"type":"object","properties":{"m":{"type":"integer","minimum":9223372036854775808}}}}`,
			`{"B", ` + "`" + `{"m":9223372036854775807}` + "`" + `, "refused"}`,
			"#/$defs/B/properties/m/minimum: unsupported minimum 9223372036854775808: an integer is an int64, so no value could reach it"},
		{`{"B":{"type":"object","properties":{"m":{"type":["integer","null"],"maximum":-9223372036854775809}}}}`,
			`{"B", ` + "`" + `{"m":-9223372036854775808}` + "`" + `, "refused"}`,
			"#/$defs/B/properties/m/maximum: unsupported maximum -9223372036854775809: an integer is an int64, so no value could be below it"},
		{`{"B":{"allOf":[{"type":"object","properties":{"m":{"type":"integer"}}},{"type":"object","properties":{"m":{"minimum":9.223372036854775808e18}}}]}}`,
			`{"B", ` + "`" + `{"m":9223372036854775807}` + "`" + `, "refused"}`,
			"#/$defs/B/allOf/1/properties/m/minimum: unsupported minimum 9.223372036854775808e18"},
		{`{"B":{"type":"object","properties":{"m":{"type":"integer","minimum":9007199254740993}}}}`,
			`{"B", ` + "`" + `{"m":9007199254740992}` + "`" + `, "refused"}`,
			"#/$defs/B/properties/m/minimum: unsupported minimum 9007199254740993 on an integer: the generated check holds it as the float64 9007199254740992"},
		{`{"B":{"type":"object","properties":{"m":{"type":"integer","minimum":1e-999999999}}}}`,
			`{"B", ` + "`" + `{"m":0}` + "`" + `, "refused"}`,
			"#/$defs/B/properties/m/minimum: unsupported minimum 1e-999999999 on an integer"},
		{`{"B":{"type":"object","properties":{"m":{"type":"integer","exclusiveMinimum":9223372036854775807}}}}`,
			`{"B", ` + "`" + `{"m":9223372036854775807}` + "`" + `, "refused"}`,
			`#/$defs/B/properties/m: unsupported JSON Schema keyword "exclusiveMinimum"`},
	} {
		err := generateOrRefuse(t, c.defs, boundsSrc+"\nvar cases = [][3]string{"+c.src+"}\n")
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s:\n got %v\nwant an error %q", c.defs, err, c.want)
		}
	}
}

// TestIntegerBoundIsCheckedExactly — the generated check of an integer's
// bounds rounded the value to a float64, so near 2^63 a value met a bound
// it does not: 2^62-1 met a minimum of 2^62. Bounds that a float64 holds
// exactly, and the edges of the int64 range, are checked exactly now.
func TestIntegerBoundIsCheckedExactly(t *testing.T) {
	defs := `{"B":{"type":"object","properties":{` +
		`"lo":{"type":"integer","minimum":4611686018427387904},` +
		`"hi":{"type":"integer","maximum":4611686018427387904},` +
		`"top":{"type":"integer","maximum":9223372036854775807,"minimum":-9223372036854775808},` +
		`"u":{"anyOf":[{"type":"integer","minimum":4611686018427387904},{"type":"string"}]}}}}`
	q := func(msg, want string) string { return `{"B", ` + "`" + msg + "`" + `, "` + want + `"},` }
	src := boundsSrc + "\nvar cases = [][3]string{\n" +
		q(`{"lo":4611686018427387903}`, "refused") + q(`{"lo":4611686018427387904}`, "ok") +
		q(`{"hi":4611686018427387905}`, "refused") + q(`{"hi":4611686018427387904}`, "ok") +
		q(`{"top":9223372036854775807}`, "ok") + q(`{"top":-9223372036854775808}`, "ok") +
		q(`{"u":4611686018427387903}`, "refused") + q(`{"u":4611686018427387904}`, "ok") + "}\n"
	if err := generateOrRefuse(t, defs, src); err != nil {
		t.Fatalf("refused: %v", err)
	}
}

// TestIntegerEnumOfAStringThroughAllOfIsRefused — an enum value the
// declared type refuses ({"type": "integer", "enum": ["x"]}) was refused
// only when one declaration held both: with the type in one allOf member
// and the enum in another, the merged property loaded, and the generated
// type refused every message (no integer is "x"). The combination is
// refused at the enum value's pointer, as the one declaration is.
func TestIntegerEnumOfAStringThroughAllOfIsRefused(t *testing.T) {
	for _, c := range []struct{ defs, want string }{
		{`{"T":{"allOf":[{"type":"object","properties":{"a":{"type":"integer"}}},{"type":"object","properties":{"a":{"enum":["x"]}}}]}}`,
			`#/$defs/T/allOf/1/properties/a/enum/0: enum value "x" is not of the declared type "integer"`},
		{`{"T":{"allOf":[{"type":"object","properties":{"a":{"enum":[1,"x"]}}},{"type":"object","properties":{"a":{"type":"integer"}}}]}}`,
			`#/$defs/T/allOf/1/properties/a/enum/1: enum value "x" is not of the declared type "integer"`},
		{`{"T":{"allOf":[{"type":"object","properties":{"a":{"const":"x"}}},{"type":"object","properties":{"a":{"type":["integer","null"]}}}]}}`,
			`#/$defs/T/allOf/1/properties/a/const: const "x" is not of the declared type ["integer","null"]`},
		{`{"T":{"allOf":[{"type":"object","properties":{"a":{"type":"array","items":{"type":"integer"}}}},{"type":"object","properties":{"a":{"items":{"enum":["x"]}}}}]}}`,
			`#/$defs/T/allOf/1/properties/a/items/enum/0: enum value "x" is not of the declared type "integer"`},
	} {
		_, err := loadDefs(t, c.defs)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s:\n got %v\nwant an error %q", c.defs, err, c.want)
		}
		if err != nil && strings.Count(err.Error(), "declared type") != 1 {
			t.Errorf("%s: want one error, got %v", c.defs, err)
		}
	}
	if _, err := loadDefs(t, `{"T":{"type":"object","properties":{"a":{"type":"integer","enum":["x"]}}}}`); err == nil || !strings.Contains(err.Error(), `#/$defs/T/properties/a/enum/0: enum value "x" is not of the declared type "integer"`) {
		t.Errorf("one declaration: got %v", err)
	}
}

// TestIntegerBoundThroughAllOfIsComparedAsWritten — two allOf members
// bounding one integer with numbers of the same float64 (9007199254740992
// and 9007199254740993) kept the first member's text, so the merged bound
// was the looser one: the schema loaded and its package accepted
// 9007199254740992, which the second member refuses. The tighter bound,
// compared as written, is the one kept (and refused here, as a float64
// cannot hold it).
func TestIntegerBoundThroughAllOfIsComparedAsWritten(t *testing.T) {
	for _, c := range []struct{ defs, src, want string }{
		{`{"B":{"allOf":[{"type":"object","properties":{"m":{"type":"integer","minimum":9007199254740992}}},{"type":"object","properties":{"m":{"minimum":9007199254740993}}}]}}`,
			`{"B", ` + "`" + `{"m":9007199254740992}` + "`" + `, "refused"}`,
			"#/$defs/B/allOf/1/properties/m/minimum: unsupported minimum 9007199254740993 on an integer"},
		{`{"B":{"allOf":[{"type":"object","properties":{"m":{"type":"integer","maximum":-9007199254740992}}},{"type":"object","properties":{"m":{"maximum":-9007199254740993}}}]}}`,
			`{"B", ` + "`" + `{"m":-9007199254740992}` + "`" + `, "refused"}`,
			"#/$defs/B/allOf/1/properties/m/maximum: unsupported maximum -9007199254740993 on an integer"},
		{`{"B":{"allOf":[{"type":"object","properties":{"m":{"type":"integer","maximum":-9223372036854775808}}},{"type":"object","properties":{"m":{"maximum":-9223372036854775809}}}]}}`,
			`{"B", ` + "`" + `{"m":-9223372036854775808}` + "`" + `, "refused"}`,
			"#/$defs/B/allOf/1/properties/m/maximum: unsupported maximum -9223372036854775809: an integer is an int64, so no value could be below it"},
	} {
		err := generateOrRefuse(t, c.defs, boundsSrc+"\nvar cases = [][3]string{"+c.src+"}\n")
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s:\n got %v\nwant an error %q", c.defs, err, c.want)
		}
	}
}

// TestIntegerBoundNoFloat64HoldsSaysSo — a minimum of 9223372036854775807
// is held as the float64 2^63, which no int64 meets: the refusal said the
// float64 "admits 0", a value it refuses.
func TestIntegerBoundNoFloat64HoldsSaysSo(t *testing.T) {
	defs := `{"B":{"type":"object","properties":{"m":{"type":"integer","minimum":9223372036854775807}}}}`
	err := generateOrRefuse(t, defs, boundsSrc+"\nvar cases = [][3]string{{\"B\", `{\"m\":9223372036854775807}`, \"ok\"}}\n")
	want := "#/$defs/B/properties/m/minimum: unsupported minimum 9223372036854775807 on an integer: the generated check holds it as the float64 9223372036854775808, which no int64 meets, where the bound admits 9223372036854775807"
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("got %v\nwant an error %q", err, want)
	}
}

// TestScalarUnionOfTypesKeepsBounds — a union of primitives written as a
// type list ({"type": ["integer", "string"], "minimum": 10}) dropped its
// bounds: 5 was accepted, where the same bound on an anyOf member is kept.
// Its numbers are bounded now (exactly, near 2^62 too); its strings and
// null are not numbers, and pass.
func TestScalarUnionOfTypesKeepsBounds(t *testing.T) {
	defs := `{"B":{"type":"object","properties":{
		"iu":{"type":["integer","string"],"minimum":10},
		"ru":{"$ref":"#/$defs/U"}}},
		"U":{"type":["integer","string","null"],"minimum":4611686018427387904,"maximum":4611686018427388928}}`
	q := func(msg, want string) string { return "{\"B\", `" + msg + "`, \"" + want + "\"},\n" }
	src := boundsSrc + "\nvar cases = [][3]string{\n" +
		q(`{"iu":5}`, "refused") + q(`{"iu":10}`, "ok") + q(`{"iu":"5"}`, "ok") +
		q(`{"ru":4611686018427387903}`, "refused") + q(`{"ru":4611686018427387904}`, "ok") + q(`{"ru":4611686018427388928}`, "ok") + q(`{"ru":4611686018427388929}`, "refused") +
		q(`{"ru":null}`, "ok") + q(`{"ru":"x"}`, "ok") + "}\n"
	if err := generateOrRefuse(t, defs, src); err != nil {
		t.Fatal(err)
	}
}
