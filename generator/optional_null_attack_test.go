package generator_test

import "testing"

// TestOptionalMemberThatMayNotBeNullRefusesNull — an optional member whose
// schema does not let it be null must refuse null (and an enum member a
// value the enum does not list). An optional string refuses null, but an
// optional integer, number, boolean, string enum or integer enum took null
// as if the member were absent, and an optional string enum took "" (its
// Go zero value, which stands for absent): the package accepts messages
// its schema refuses. A [T, "null"] type whose enum leaves null out (doc:
// "null is a value only if the enum lists it") took null too.
func TestOptionalMemberThatMayNotBeNullRefusesNull(t *testing.T) {
	defs := `{"B":{"type":"object","properties":{
		"s":{"type":"string"},"i":{"type":"integer"},"n":{"type":"number"},"b":{"type":"boolean"},
		"e":{"type":"string","enum":["a"]},"ie":{"type":"integer","enum":[1]},
		"se":{"type":["string","null"],"enum":["a"]},"ne":{"type":["integer","null"],"enum":[1,2]}}}}`
	q := func(msg, want string) string { return "{\"B\", `" + msg + "`, \"" + want + "\"},\n" }
	src := boundsSrc + "\nvar cases = [][3]string{\n" +
		q(`{}`, "ok") + q(`{"s":null}`, "refused") +
		q(`{"i":null}`, "refused") + q(`{"n":null}`, "refused") + q(`{"b":null}`, "refused") +
		q(`{"e":""}`, "refused") + q(`{"e":null}`, "refused") + q(`{"ie":null}`, "refused") +
		q(`{"se":""}`, "refused") + q(`{"se":null}`, "refused") + q(`{"ne":null}`, "refused") + "}\n"
	if err := generateOrRefuse(t, defs, src); err != nil {
		t.Fatal(err)
	}
}
