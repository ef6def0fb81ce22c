package support

import "testing"

type unionMember struct{}

// The union checks refuse what would be written as null: nil where the
// member is required, and a nil pointer, map or slice of a member type
// anywhere.
func TestUnionChecksRefuseNull(t *testing.T) {
	var typedNil *unionMember
	for _, c := range []struct {
		v        any
		required bool
		ok       bool
	}{
		{nil, false, true}, {nil, true, false},
		{typedNil, false, false}, {typedNil, true, false},
		{map[string]int(nil), false, false}, {[]int(nil), true, false},
		{&unionMember{}, true, true}, {map[string]int{}, true, true},
	} {
		if err := checkUnion(c.v, "u", c.required); (err == nil) != c.ok {
			t.Errorf("checkUnion(%#v, required %t): %v", c.v, c.required, err)
		}
	}
	if err := checkUnionElements([]any{&unionMember{}, typedNil}, "content"); err == nil || err.Error() != "content[1]: must not be null" {
		t.Errorf("checkUnionElements: %v", err)
	}
	if err := checkUnionValues(map[string]any{"k": nil}, "m"); err == nil || err.Error() != "m.k: must not be null" {
		t.Errorf("checkUnionValues: %v", err)
	}
	if err := checkUnionValues(map[string]any{"k": nil}, ""); err == nil || err.Error() != "k: must not be null" {
		t.Errorf("checkUnionValues of a named map: %v", err)
	}
	if checkUnionElements([]any{&unionMember{}}, "c") != nil || checkUnionValues(map[string]any{"k": &unionMember{}}, "m") != nil {
		t.Error("a union value that is not null was refused")
	}
}

// base64Bytes takes a base64 string or null, not the array of numbers
// encoding/json would also read into a []byte.
func TestBase64BytesTakesOnlyAString(t *testing.T) {
	if b, err := base64Bytes([]byte(`"aGk="`)); err != nil || string(b) != "hi" {
		t.Errorf(`"aGk=": %q, %v`, b, err)
	}
	if b, err := base64Bytes([]byte(`null`)); err != nil || b != nil {
		t.Errorf("null: %q, %v", b, err)
	}
	for _, in := range []string{`[104,105]`, `[]`, `{}`, `1`, `"not base64!"`} {
		if b, err := base64Bytes([]byte(in)); err == nil {
			t.Errorf("%s: decoded as %q", in, b)
		}
	}
}
