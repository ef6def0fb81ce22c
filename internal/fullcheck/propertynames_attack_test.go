package fullcheck

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"
)

// TestPropertyNamesProblemIsAtTheRefusedMember: the full validator names
// the member whose name "propertyNames" refuses, as the native checker
// does, whatever members or items follow it. santhosh-tekuri v6.0.3 gives
// a propertyNames error its validator's location slice itself, which a
// later sibling at the same depth overwrites, so problemsOf puts the
// problem at the wrong member: /1/a for [{"a":1},{"ab":2}], /y/a for
// {"x":{"a":1},"y":{}}.
func TestPropertyNamesProblemIsAtTheRefusedMember(t *testing.T) {
	for _, c := range []struct{ schema, instance, pointer string }{
		{`{"type":"array","items":{"propertyNames":{"minLength":2}}}`, `[{"a":1},{"ab":2}]`, "/0/a"},
		{`{"properties":{"x":{"propertyNames":{"minLength":2}},"y":{}}}`, `{"x":{"a":1},"y":{"b":2}}`, "/x/a"},
	} {
		s, err := Compile(decodeDoc(t, c.schema))
		if err != nil {
			t.Fatal(err)
		}
		got := s.Validate(decodeDoc(t, c.instance))
		want := []Problem{{Pointer: c.pointer, Keyword: "propertyNames", Message: "property name: length 1 is shorter than the minimum length 2"}}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("schema %s, instance %s: %+v, want %+v", c.schema, c.instance, got, want)
		}
	}
}

func decodeDoc(t *testing.T, doc string) any {
	t.Helper()
	d := json.NewDecoder(bytes.NewReader([]byte(doc)))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		t.Fatal(err)
	}
	return v
}
