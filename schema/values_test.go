package schema

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
)

// TestLoadValuesOfTheirType checks that an enum value or a const the
// declared type refuses is an error at its pointer (the type generated for
// it would refuse every message), wherever the schema stands, and that
// values of the type load.
func TestLoadValuesOfTheirType(t *testing.T) {
	for _, tc := range []struct{ defs, pointer, msg string }{
		{`{"E":{"type":"integer","enum":["1",true]}}`, "#/$defs/E/enum/0", `enum value "1" is not of the declared type "integer"`},
		{`{"E":{"type":"integer","enum":[1,2.5]}}`, "#/$defs/E/enum/1", `enum value 2.5 is not of the declared type "integer"`},
		{`{"E":{"type":"string","enum":["a",null]}}`, "#/$defs/E/enum/1", `enum value null is not of the declared type "string"`},
		{`{"E":{"type":"boolean","enum":[true,"false"]}}`, "#/$defs/E/enum/1", `"false" is not of the declared type "boolean"`},
		{`{"E":{"type":["string","null"],"enum":["a",1]}}`, "#/$defs/E/enum/1", `1 is not of the declared type ["string","null"]`},
		{`{"T":{"type":"object","properties":{"p":{"type":"number","enum":[1,"2"]}}}}`, "#/$defs/T/properties/p/enum/1", `"2" is not of the declared type "number"`},
		{`{"T":{"type":"array","items":{"type":"integer","enum":[true]}}}`, "#/$defs/T/items/enum/0", `true is not of the declared type "integer"`},
		{`{"T":{"type":"object","additionalProperties":{"type":"string","enum":[{}]}}}`, "#/$defs/T/additionalProperties/enum/0", `{} is not of the declared type "string"`},
		{`{"T":{"type":"object","properties":{"k":{"type":"string","const":1}}}}`, "#/$defs/T/properties/k/const", `const 1 is not of the declared type "string"`},
	} {
		_, err := LoadBytes("values.json", []byte(`{"$defs":`+tc.defs+`}`), Options{Version: "test"})
		list, ok := err.(ErrorList)
		if !ok || len(list) == 0 {
			t.Errorf("%s: err = %v, want an error at %s", tc.defs, err, tc.pointer)
			continue
		}
		if list[0].Pointer != tc.pointer || !strings.Contains(list[0].Msg, tc.msg) {
			t.Errorf("%s: error = %v\nwant %s: …%s…", tc.defs, list[0], tc.pointer, tc.msg)
		}
	}
	for _, defs := range []string{
		`{"E":{"type":"integer","enum":[1,2.0,-3]}}`,
		`{"E":{"type":"number","enum":[1,2.5]}}`,
		`{"E":{"type":"boolean","enum":[true]}}`,
		`{"T":{"type":"object","properties":{"k":{"type":"integer","const":-32020}}}}`,
	} {
		if _, err := LoadBytes("values.json", []byte(`{"$defs":`+defs+`}`), Options{Version: "test"}); err != nil {
			t.Errorf("%s: %v", defs, err)
		}
	}
}

// TestInlineSharedOnlyWhenEqual checks that an inline object is the
// definition it looks like only when every keyword that decides what a
// value may be is the same: bounds and defaults included, descriptions not.
func TestInlineSharedOnlyWhenEqual(t *testing.T) {
	const rangeDef = `"Range":{"type":"object","properties":{"p":{"type":"integer","minimum":5,"maximum":9,"default":6}}}`
	for _, tc := range []struct {
		inline string
		shared bool
		min    float64 // of r.p
	}{
		{`{"type":"object","properties":{"p":{"type":"integer","minimum":5,"maximum":9,"default":6,"description":"other words"}}}`, true, 5},
		{`{"type":"object","properties":{"p":{"type":"integer","minimum":0,"maximum":9,"default":6}}}`, false, 0},
		{`{"type":"object","properties":{"p":{"type":"integer","minimum":5,"default":6}}}`, false, 5},
		{`{"type":"object","properties":{"p":{"type":"integer","minimum":5,"maximum":9,"default":7}}}`, false, 5},
		{`{"type":"object","properties":{"p":{"type":"integer","minimum":5,"maximum":9}}}`, false, 5},
		{`{"type":"object","properties":{"p":{"type":"integer","minimum":5,"maximum":9,"default":6,"minLength":1}}}`, false, 5},
	} {
		defs := `{` + rangeDef + `,"T":{"type":"object","properties":{"r":` + tc.inline + `}}}`
		m, err := LoadBytes("shared.json", []byte(`{"$defs":`+defs+`}`), Options{Version: "test"})
		if err != nil {
			t.Fatalf("%s: %v", defs, err)
		}
		got := mustField(t, mustType(t, m, "T"), "r").Type.Named
		if (got == m.Type("Range")) != tc.shared {
			t.Errorf("r is %s for %s, want shared with Range: %v", got.Name, tc.inline, tc.shared)
		}
		if p := mustField(t, got, "p"); p.Minimum == nil || *p.Minimum != tc.min {
			t.Errorf("%s: r.p has the minimum %s, want %v", tc.inline, fmtBound(p.Minimum), tc.min)
		}
	}
}

func fmtBound(v *float64) string {
	if v == nil {
		return "none"
	}
	return strconv.FormatFloat(*v, 'g', -1, 64)
}

// TestLoadNullableEnums checks enums whose type lists null: a string
// definition is an enum whose empty value stands for null, a property is a
// nullable member with the enum's values; null is a value only when the
// enum lists it, and what cannot be kept is an error at its pointer.
func TestLoadNullableEnums(t *testing.T) {
	m, err := LoadBytes("null.json", []byte(`{"$defs":{
		"E":{"type":["string","null"],"enum":["a",null,"b"]},
		"F":{"type":["string","null"],"enum":["a"]},
		"G":{"type":["integer","null"],"enum":[1,2]},
		"T":{"type":"object","properties":{"p":{"type":["string","null"],"enum":["a",null]},"q":{"type":["string","null"],"enum":["a"]},"i":{"type":["integer","null"],"enum":[1,null]}}}}}`), Options{Version: "test"})
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{"E": "enum [a b] nullable", "F": "enum [a]", "G": "scalar [1 2]"} {
		ty := mustType(t, m, name)
		got := fmt.Sprintf("%s %v", ty.Kind, ty.Enum)
		if ty.Kind == KindScalar {
			got = fmt.Sprintf("%s %v", ty.Kind, ty.Literals)
		}
		if ty.Nullable {
			got += " nullable"
		}
		if got != want {
			t.Errorf("%s: %s, want %s", name, got, want)
		}
	}
	tt := mustType(t, m, "T")
	for name, want := range map[string]string{"p": "string? [a] []", "q": "string [a] []", "i": "integer? [] [1]"} {
		f := mustField(t, tt, name)
		if got := fmt.Sprintf("%s %v %v", refText(f.Type), f.Enum, f.Literals); got != want {
			t.Errorf("T.%s: %s, want %s", name, got, want)
		}
	}
	for _, tc := range []struct{ defs, pointer, msg string }{
		{`{"E":{"type":["string","integer"],"enum":["a",1]}}`, "#/$defs/E/type", "unsupported enum with several types"},
		{`{"E":{"type":["string","null"],"enum":["",null]}}`, "#/$defs/E/enum", `both "" and null`},
		{`{"E":{"type":["integer","null"],"enum":[1,null]}}`, "#/$defs/E/enum", "unsupported nullable integer enum definition"},
		{`{"T":{"type":"object","properties":{"p":{"type":["string","integer"],"enum":["a",1]}}}}`, "#/$defs/T/properties/p/type", "unsupported enum with several types"},
	} {
		_, err := LoadBytes("null.json", []byte(`{"$defs":`+tc.defs+`}`), Options{Version: "test"})
		list, ok := err.(ErrorList)
		if !ok || len(list) == 0 || list[0].Pointer != tc.pointer || !strings.Contains(list[0].Msg, tc.msg) {
			t.Errorf("%s: err = %v, want %s: …%s…", tc.defs, err, tc.pointer, tc.msg)
		}
	}
}

// TestLoadElementChecks checks that the enum, const and bounds of array
// items and map values are kept on the element's Ref (they used to be
// dropped), and that what cannot be kept is an error at its pointer.
func TestLoadElementChecks(t *testing.T) {
	m, err := LoadBytes("elems.json", []byte(`{"$defs":{
		"T":{"type":"object","properties":{
			"tags":{"type":"array","items":{"type":"string","enum":["a","b"]}},
			"m":{"type":"object","additionalProperties":{"type":"string","enum":["x"]}},
			"c":{"type":"array","items":{"const":"only"}},
			"xs":{"type":"array","items":{"type":"integer","minimum":0}},
			"s":{"type":"array","items":{"type":"string","minimum":0}}},
			"additionalProperties":{"type":"number","maximum":1}},
		"L":{"type":"array","items":{"type":"boolean","enum":[true]}}}}`), Options{Version: "test"})
	if err != nil {
		t.Fatal(err)
	}
	check := func(r *Ref) string {
		if r.Check == nil {
			return "none"
		}
		c := r.Check
		return fmt.Sprintf("%v %v %s %s", c.Enum, c.Literals, fmtBound(c.Minimum), fmtBound(c.Maximum))
	}
	tt := mustType(t, m, "T")
	for name, want := range map[string]string{
		"tags": "[a b] [] none none",
		"m":    "[x] [] none none",
		"c":    `[] ["only"] none none`,
		"xs":   "[] [] 0 none",
		"s":    "none", // minimum applies to numbers only
	} {
		r := mustField(t, tt, name).Type
		if r.Array != nil {
			r = r.Array
		} else {
			r = r.Map
		}
		if got := check(r); got != want {
			t.Errorf("T.%s element: %s, want %s", name, got, want)
		}
	}
	if got := check(tt.Extra); got != "[] [] none 1" {
		t.Errorf("T extra: %s", got)
	}
	if got := check(mustType(t, m, "L").Elem); got != "[] [true] none none" {
		t.Errorf("L element: %s", got)
	}
	for _, tc := range []struct{ defs, pointer, msg string }{
		{`{"T":{"type":"array","items":{"type":"object","properties":{"a":{"type":"string"}},"const":{"a":"b"}}}}`, "#/$defs/T/items", "not a string, number or boolean"},
		{`{"T":{"type":"object","additionalProperties":{"type":"array","items":{"type":"string"},"enum":[["a"]]}}}`, "#/$defs/T/additionalProperties", "not a string, number or boolean"},
		{`{"T":{"type":"array","items":{"type":"string","format":"byte","enum":["YQ=="]}}}`, "#/$defs/T/items", "format byte"},
	} {
		_, err := LoadBytes("elems.json", []byte(`{"$defs":`+tc.defs+`}`), Options{Version: "test"})
		list, ok := err.(ErrorList)
		if !ok || len(list) == 0 || list[0].Pointer != tc.pointer || !strings.Contains(list[0].Msg, tc.msg) {
			t.Errorf("%s: err = %v, want %s: …%s…", tc.defs, err, tc.pointer, tc.msg)
		}
	}
}

// TestLoadAlternatives checks that a union of primitives keeps its members'
// enum, const and bounds (a $ref member is the schema it names, an anyOf
// within an anyOf its own members), that null is among its types when a
// member takes it, and that what cannot be kept is an error at its
// pointer.
func TestLoadAlternatives(t *testing.T) {
	m, err := LoadBytes("alts.json", []byte(`{"$defs":{
		"U":{"anyOf":[{"type":"string","enum":["a","b"]},{"type":"integer","minimum":0}]},
		"C":{"oneOf":[{"const":"x"},{"enum":[1,true]}]},
		"E":{"type":"string","enum":["e"]},
		"R":{"anyOf":[{"$ref":"#/$defs/E"},{"type":"null"},{"anyOf":[{"type":"number","maximum":1}]}]},
		"P":{"anyOf":[{"type":"string"},{"type":"integer"}]},
		"O":{"oneOf":[{"type":"integer"},{"type":"number"}]},
		"T":{"type":"object","properties":{
			"n":{"anyOf":[{"type":"integer","minimum":1},{"type":"null"}]},
			"s":{"oneOf":[{"type":"null"},{"type":"string","enum":["y"]}]},
			"k":{"anyOf":[{"const":3},{"type":"null"}]}}}}}`), Options{Version: "test"})
	if err != nil {
		t.Fatal(err)
	}
	alts := func(name string) string {
		ty := mustType(t, m, name)
		var parts []string
		for _, a := range ty.Alternatives {
			parts = append(parts, fmt.Sprintf("%s %v %v %s %s", a.At, a.Types, a.Literals, fmtBound(a.Minimum), fmtBound(a.Maximum)))
		}
		return fmt.Sprintf("%v %v oneOf=%v: %s", ty.Kind, ty.Prims, ty.OneOf, strings.Join(parts, "; "))
	}
	for name, want := range map[string]string{
		"U": `scalar union [string integer] oneOf=false: anyOf/0 [string] ["a" "b"] none none; anyOf/1 [integer] [] 0 none`,
		"C": `scalar union [string integer boolean] oneOf=true: oneOf/0 [string] ["x"] none none; oneOf/1 [integer boolean] [1 true] none none`,
		"R": `scalar union [string number null] oneOf=false: anyOf/0 [string] ["e"] none none; anyOf/1 [null] [] none none; anyOf/2/anyOf/0 [number] [] none 1`,
		"P": `scalar union [string integer] oneOf=false: `, // nothing to check beyond the JSON type
		"O": `scalar union [integer number] oneOf=true: oneOf/0 [integer] [] none none; oneOf/1 [number] [] none none`,
	} {
		if got := alts(name); got != want {
			t.Errorf("%s: %s\nwant %s", name, got, want)
		}
	}
	tt := mustType(t, m, "T")
	if f := mustField(t, tt, "n"); !f.Type.Nullable || f.Type.Prim != Integer || fmtBound(f.Minimum) != "1" {
		t.Errorf("T.n: %+v %+v", f, f.Type)
	}
	if f := mustField(t, tt, "s"); !f.Type.Nullable || fmt.Sprint(f.Enum) != "[y]" {
		t.Errorf("T.s: %+v %+v", f, f.Type)
	}
	if f := mustField(t, tt, "k"); !f.Type.Nullable || fmt.Sprint(f.Literals) != "[3]" {
		t.Errorf("T.k: %+v %+v", f, f.Type)
	}
	for _, tc := range []struct{ defs, pointer, msg string }{
		{`{"U":{"anyOf":[{"type":"string","enum":["a"]},{"type":"array"}]}}`, "#/$defs/U/anyOf/0", "cannot keep them"},
		{`{"E":{"type":"integer","minimum":0},"U":{"anyOf":[{"type":"object"},{"type":"array"},{"type":"string"},{"type":"boolean"},{"$ref":"#/$defs/E"}]}}`, "#/$defs/U/anyOf/4", "cannot keep them"},
		{`{"U":{"anyOf":[{"type":"string"},{"oneOf":[{"type":"integer"},{"type":"number"}]}]}}`, "#/$defs/U/anyOf/1", "only an anyOf within an anyOf"},
		{`{"U":{"oneOf":[{"type":"string"},{"anyOf":[{"type":"integer"}]}]}}`, "#/$defs/U/oneOf/1", "only an anyOf within an anyOf"},
		{`{"U":{"anyOf":[{"type":"string"},{"description":"anything"}]}}`, "#/$defs/U/anyOf/1", "without a type"},
	} {
		_, err := LoadBytes("alts.json", []byte(`{"$defs":`+tc.defs+`}`), Options{Version: "test"})
		list, ok := err.(ErrorList)
		if !ok || len(list) == 0 || list[0].Pointer != tc.pointer || !strings.Contains(list[0].Msg, tc.msg) {
			t.Errorf("%s: err = %v, want %s: …%s…", tc.defs, err, tc.pointer, tc.msg)
		}
	}
}

// TestLoadNullableElementChecks checks that array items and map values
// that may be null keep their enum, const and bounds as a Check, and stay
// Nullable exactly when the schema lets them be null.
func TestLoadNullableElementChecks(t *testing.T) {
	m, err := LoadBytes("nullelems.json", []byte(`{"$defs":{
		"T":{"type":"object","properties":{
			"e":{"type":"array","items":{"type":["string","null"],"enum":["a","b",null]}},
			"strict":{"type":"array","items":{"type":["string","null"],"enum":["a"]}},
			"n":{"type":"array","items":{"type":["number","null"],"minimum":0}},
			"m":{"type":"object","additionalProperties":{"type":["integer","null"],"maximum":10}},
			"c":{"type":"array","items":{"type":["integer","null"],"const":1}},
			"z":{"type":"array","items":{"type":["string","null"],"const":null}},
			"u":{"type":"array","items":{"anyOf":[{"type":"integer","enum":[1,2]},{"type":"null"}]}}},
			"additionalProperties":{"type":["integer","null"],"minimum":1}},
		"L":{"type":"array","items":{"type":["boolean","null"],"const":true}}}}`), Options{Version: "test"})
	if err != nil {
		t.Fatal(err)
	}
	elem := func(r *Ref) string {
		if r.Array != nil {
			r = r.Array
		} else if r.Map != nil {
			r = r.Map
		}
		if r.Check == nil {
			return fmt.Sprintf("nullable=%v none", r.Nullable)
		}
		c := r.Check
		return fmt.Sprintf("nullable=%v %v %v %s %s", r.Nullable, c.Enum, c.Literals, fmtBound(c.Minimum), fmtBound(c.Maximum))
	}
	tt := mustType(t, m, "T")
	for name, want := range map[string]string{
		"e":      "nullable=true [a b] [] none none",
		"strict": "nullable=false [a] [] none none",
		"n":      "nullable=true [] [] 0 none",
		"m":      "nullable=true [] [] none 10",
		"c":      "nullable=false [] [1] none none",
		"z":      "nullable=true [] [null] none none",
		"u":      "nullable=true [] [1 2] none none",
	} {
		if got := elem(mustField(t, tt, name).Type); got != want {
			t.Errorf("T.%s element: %s, want %s", name, got, want)
		}
	}
	if got := elem(tt.Extra); got != "nullable=true [] [] 1 none" {
		t.Errorf("T extra: %s", got)
	}
	if got := elem(&Ref{Array: mustType(t, m, "L").Elem}); got != "nullable=false [] [true] none none" {
		t.Errorf("L element: %s", got)
	}
}

// TestLoadConstOfObjectOrArray checks that a member whose schema is only a
// const takes the Go type of the const's JSON kind: an object const is a
// map, an array const a list, null any value (an object const typed as an
// integer made the decoder refuse the one value the schema allows).
func TestLoadConstOfObjectOrArray(t *testing.T) {
	m, err := loadText(`{"$defs": {"A": {"type": "object", "properties": {"o": {"const": {"a": 1}}, "arr": {"const": [1, 2]}, "z": {"const": null}, "n": {"const": 1.5}, "i": {"const": 2}}}}}`)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"o": "map[any]", "arr": "[]any", "z": "any", "n": "number", "i": "integer"}
	for name, typ := range want {
		if f := mustField(t, mustType(t, m, "A"), name); refText(f.Type) != typ || f.Const == nil {
			t.Errorf("A.%s (const %s): type %s, want %s", name, f.Const, refText(f.Type), typ)
		}
	}
}
