package bind

import (
	"encoding/json"
	"reflect"
	"testing"
)

func decodeSchema(t *testing.T, s Schema) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(s.JSON), &m); err != nil {
		t.Fatalf("schema is not JSON: %v\n%s", err, s.JSON)
	}
	return m
}

func at(m map[string]any, path ...string) any {
	var cur any = m
	for _, p := range path {
		obj, _ := cur.(map[string]any)
		cur = obj[p]
	}
	return cur
}

// TestDerivedSchemas: the mappings of issue 14 item 2, derived at build
// time from go/types.
func TestDerivedSchemas(t *testing.T) {
	pkg, err := loadFixture(t, "typemap")
	if err != nil {
		t.Fatal(err)
	}
	in := decodeSchema(t, pkg.Tools[0].InputSchema)
	checks := []struct {
		path []string
		want any
	}{
		{[]string{"$schema"}, SchemaVersion},
		{[]string{"type"}, "object"},
		{[]string{"required"}, []any{"location"}},
		{[]string{"properties", "location", "description"}, "City name, address, or lat,long"},
		{[]string{"properties", "units", "enum"}, []any{"metric", "imperial", "kelvin"}},
		{[]string{"properties", "units", "default"}, "metric"},
		{[]string{"properties", "other", "items", "enum"}, []any{"metric", "imperial", "kelvin"}},
		{[]string{"properties", "tree", "$ref"}, "#/$defs/Node"},
		{[]string{"$defs", "Node", "properties", "children", "items", "$ref"}, "#/$defs/Node"},
		{[]string{"$defs", "Node", "properties", "parent", "$ref"}, "#/$defs/Node"},
		{[]string{"$defs", "Node", "required"}, []any{"name"}},
		{[]string{"properties", "when", "format"}, "date-time"},
		{[]string{"properties", "blob", "contentEncoding"}, "base64"},
		{[]string{"properties", "days", "default"}, 3.0},
		{[]string{"properties", "tags", "uniqueItems"}, true},
		{[]string{"properties", "tags", "items", "minLength"}, 1.0},
		{[]string{"properties", "escaped", "description"}, "a, b"},
	}
	for _, c := range checks {
		if got := at(in, c.path...); !reflect.DeepEqual(got, c.want) {
			t.Errorf("inputSchema %v = %#v, want %#v", c.path, got, c.want)
		}
	}
	out := decodeSchema(t, pkg.Tools[0].OutputSchema)
	if got := at(out, "required"); !reflect.DeepEqual(got, []any{"location", "notes"}) {
		t.Errorf("outputSchema required = %v; fields without omitempty are required", got)
	}
	if got := at(out, "properties", "notes", "anyOf"); got == nil {
		t.Errorf("outputSchema notes = %v; a nil slice without omitempty encodes as null", at(out, "properties", "notes"))
	}
	self := decodeSchema(t, pkg.Tools[1].InputSchema)
	if got := at(self, "properties", "children", "items", "$ref"); got != "#" {
		t.Errorf("recursive root: children items $ref = %v, want #", got)
	}
}
