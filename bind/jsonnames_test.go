package bind

import (
	"reflect"
	"slices"
	"testing"
)

// propertyNames lists the properties of a derived schema.
func propertyNames(t *testing.T, s Schema) []string {
	t.Helper()
	var names []string
	props, _ := decodeSchema(t, s)["properties"].(map[string]any)
	for name := range props {
		names = append(names, name)
	}
	slices.Sort(names)
	return names
}

// TestDashMember: `json:"-,"` is the member "-" (encoding/json), in the
// derived schema and in prompt arguments; `json:"-"` and `jsonschema:"-"`
// hide a field.
func TestDashMember(t *testing.T) {
	pkg, err := loadFixture(t, "jsonnames")
	if err != nil {
		t.Fatal(err)
	}
	in := pkg.Tools[0].InputSchema
	if got := propertyNames(t, in); !reflect.DeepEqual(got, []string{"-", "plain"}) {
		t.Errorf("dash properties = %v, want [- plain]", got)
	}
	if got := at(decodeSchema(t, in), "required"); !reflect.DeepEqual(got, []any{"-"}) {
		t.Errorf("dash required = %v, want [-]", got)
	}
	var args []string
	for _, a := range pkg.Prompts[0].Arguments {
		args = append(args, a.Name)
	}
	if !reflect.DeepEqual(args, []string{"-", "plain"}) {
		t.Errorf("dash_prompt arguments = %v, want [- plain]", args)
	}
}
