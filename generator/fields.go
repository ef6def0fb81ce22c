package generator

import (
	"fmt"

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
	for _, m := range reservedMembers {
		used[m] = true
	}
	for _, f := range t.Fields {
		gf := goField{Field: f, Fixed: f.Required && f.Const != nil}
		if !gf.Fixed {
			name := fieldName(f.Name)
			if used[name] {
				name += "Member"
			}
			for i := 2; used[name]; i++ {
				name = fmt.Sprintf("%sMember%d", fieldName(f.Name), i)
			}
			used[name] = true
			gf.Go = name
		}
		fields = append(fields, gf)
	}
	if !t.Closed {
		extra = "Extra"
	}
	return fields, extra
}

// reservedMembers are the Go names a struct's fields may not take: the
// exported methods the generated code declares on structs (a field and a
// method of one name do not compile: MarshalJSON, UnmarshalJSON and
// AppendJSON in decode.go and encode.go, GetMeta, Get, Set and Validate in
// meta.go, Completed in results.go) and the catch-all Extra. The union
// markers (isContentBlock) are unexported, which no field name is.
var reservedMembers = []string{
	"Extra", "MarshalJSON", "UnmarshalJSON", "AppendJSON", "GetMeta", "Get", "Set", "Validate",
	completedMethod,
}

// declaredNames lists the JSON names of a struct's members.
func declaredNames(t *schema.Type) []string {
	names := make([]string, len(t.Fields))
	for i, f := range t.Fields {
		names[i] = f.Name
	}
	return names
}
