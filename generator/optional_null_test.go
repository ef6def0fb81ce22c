package generator_test

import "testing"

// TestOptionalMemberThatMayNotBeNullRefusesNull — an optional member whose
// schema does not let it be null refuses a present null, whatever its kind,
// and an optional string enum refuses "" unless the enum lists it: absent
// is the only way to leave such a member out. Before, an optional string,
// integer, number, boolean, string enum or integer enum took null as if
// the member were absent, an optional string
// enum took "" (its Go zero value, which stands for absent), and a
// [T, "null"] type whose enum leaves null out took null too (doc: "null is
// a value only if the enum lists it"): the package accepted messages its
// schema refuses. Members the schema lets be null still take it, and an
// enum that lists "" takes "".
func TestOptionalMemberThatMayNotBeNullRefusesNull(t *testing.T) {
	defs := `{"B":{"type":"object","properties":{
		"s":{"type":"string"},"i":{"type":"integer"},"n":{"type":"number"},"b":{"type":"boolean"},
		"e":{"type":"string","enum":["a"]},"ie":{"type":"integer","enum":[1]},
		"se":{"type":["string","null"],"enum":["a"]},"ne":{"type":["integer","null"],"enum":[1,2]},
		"el":{"type":"string","enum":["","a"]},"sn":{"type":["string","null"]},
		"en":{"type":["string","null"],"enum":["a",null]},"an":{},"u":{"anyOf":[{"type":"integer"},{"type":"null"}]}}}}`
	q := func(msg, want string) string { return "{\"B\", `" + msg + "`, \"" + want + "\"},\n" }
	src := boundsSrc + "\nvar cases = [][3]string{\n" +
		q(`{}`, "ok") + q(`{"s":null}`, "refused") +
		q(`{"i":null}`, "refused") + q(`{"n":null}`, "refused") + q(`{"b":null}`, "refused") +
		q(`{"e":""}`, "refused") + q(`{"e":null}`, "refused") + q(`{"ie":null}`, "refused") +
		q(`{"se":""}`, "refused") + q(`{"se":null}`, "refused") + q(`{"ne":null}`, "refused") +
		q(`{"e":"a","i":1,"b":false,"se":"a","ne":2}`, "ok") + q(`{"el":""}`, "ok") +
		q(`{"sn":null}`, "ok") + q(`{"en":null}`, "ok") + q(`{"an":null}`, "ok") + q(`{"u":null}`, "ok") + "}\n"
	if err := generateOrRefuse(t, defs, src); err != nil {
		t.Fatal(err)
	}
}
