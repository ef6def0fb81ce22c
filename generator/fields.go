package generator

import (
	"github.com/mcpgen/mcpgen/schema"
)

// goField is a struct member as Go sees it.
type goField struct {
	*schema.Field
	Go string
	// Fixed is set for a required const member: it has no Go field and is
	// written by MarshalJSON and checked by UnmarshalJSON.
	Fixed bool
}

// structFields lists the members of a struct with their Go names, making
// names unique. extra is the Go name of the field that keeps the members
// the schema does not declare ("" when it forbids them).
func structFields(t *schema.Type) (fields []goField, extra string) {
	used := map[string]bool{}
	unique := func(name string) string {
		for used[name] {
			name += "_"
		}
		used[name] = true
		return name
	}
	for _, f := range t.Fields {
		gf := goField{Field: f, Fixed: f.Required && f.Const != nil}
		if !gf.Fixed {
			gf.Go = unique(fieldName(f.Name))
		}
		fields = append(fields, gf)
	}
	if !t.Closed {
		extra = unique("Extra")
	}
	return fields, extra
}

// declaredNames lists the JSON names of a struct's members.
func declaredNames(t *schema.Type) []string {
	names := make([]string, len(t.Fields))
	for i, f := range t.Fields {
		names[i] = f.Name
	}
	return names
}
