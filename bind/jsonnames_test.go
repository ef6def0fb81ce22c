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

// TestFieldSelection: the members of an argument struct are picked as
// encoding/json (and the runtime decoder, internal/jsonfields) picks them:
// the shallowest field of a name wins, a tagged one among equals, else
// none of them.
func TestFieldSelection(t *testing.T) {
	pkg, err := loadFixture(t, "jsonnames")
	if err != nil {
		t.Fatal(err)
	}
	tools := map[string]Tool{}
	for _, tool := range pkg.Tools {
		tools[tool.Name] = tool
	}
	clash := decodeSchema(t, tools["clash"].InputSchema)
	if got := at(clash, "properties", "name"); !reflect.DeepEqual(got, map[string]any{"type": "integer", "minimum": 1.0}) {
		t.Errorf("clash name = %#v; the direct int field must win over the embedded string", got)
	}
	if got := at(clash, "required"); !reflect.DeepEqual(got, []any{"name"}) {
		t.Errorf("clash required = %v, want [name]", got)
	}
	if got := propertyNames(t, tools["clash"].InputSchema); !reflect.DeepEqual(got, []string{"name", "outer"}) {
		t.Errorf("clash properties = %v", got)
	}

	for _, s := range []Schema{tools["rules"].InputSchema, tools["rules"].OutputSchema} {
		rules := decodeSchema(t, s)
		// ID: tagged wins at one depth; dup: both tagged, both dropped;
		// c: Common twice at one depth, dropped; secret: hidden at depth 0
		// hides Secret.Secret; E through *Extra; meta: a named field.
		if got := propertyNames(t, s); !reflect.DeepEqual(got, []string{"E", "ID", "kept", "meta", "r"}) {
			t.Errorf("rules properties = %v, want [E ID kept meta r]", got)
		}
		if got := at(rules, "properties", "ID", "type"); got != "string" {
			t.Errorf("rules ID type = %v, want the tagged string field", got)
		}
	}
	if got := at(decodeSchema(t, tools["rules"].OutputSchema), "required"); !reflect.DeepEqual(got, []any{"ID", "r", "kept", "E", "meta"}) {
		t.Errorf("rules output required = %v, want [ID r kept E meta] (index order)", got)
	}

	var args []string
	for _, p := range pkg.Prompts {
		if p.Name != "names_prompt" {
			continue
		}
		for _, a := range p.Arguments {
			args = append(args, a.Name+"="+a.GoPath)
			if a.Name == "name" && !a.Required {
				t.Error("names_prompt: the direct name field (required) must win")
			}
		}
	}
	if !reflect.DeepEqual(args, []string{"other=Inner.Other", "name=Name"}) {
		t.Errorf("names_prompt arguments = %v, want [other=Inner.Other name=Name]", args)
	}
}
