package argschema

import (
	"fmt"
	"reflect"
	"slices"
)

// PromptArguments returns the MCP prompt arguments of the struct type t, in
// field order, using the same tag dialect as [For]. Prompt arguments are
// strings in MCP, so every field must be string-kinded (string, a named string
// type, or a pointer to one); any other field is an error.
func PromptArguments(t reflect.Type) ([]PromptArg, error) {
	s, err := reflectSchema(t)
	if err != nil {
		return nil, err
	}
	args := make([]PromptArg, 0, s.Properties.Len())
	for p := s.Properties.Oldest(); p != nil; p = p.Next() {
		prop := p.Value
		if prop.Type != "string" || prop.Format != "" || prop.ContentEncoding != "" {
			got := prop.Type
			if got == "" {
				got = "a non-string value"
			} else if prop.Type == "string" {
				got = "a string with format " + prop.Format + prop.ContentEncoding
			}
			return nil, fmt.Errorf("prompt argument %q of %s is %s; prompt arguments must be plain string fields", p.Key, t, got)
		}
		args = append(args, PromptArg{
			Name:        p.Key,
			Title:       prop.Title,
			Description: prop.Description,
			Required:    slices.Contains(s.Required, p.Key),
		})
	}
	return args, nil
}
