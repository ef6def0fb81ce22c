package argschema

import (
	"reflect"
	"slices"
	"strings"

	"github.com/invopop/jsonschema"

	"github.com/mcpgen/mcpgen/internal/schemapattern"
)

// invopopIntKey is the patternProperties pattern invopop's reflection
// gives a map with signed integer keys (and additionalProperties false);
// it accepts names the arguments decoder refuses ("01", "256" for an
// int8) and refuses some it reads ("-1"), and it says nothing for
// unsigned keys.
const invopopIntKey = "^[0-9]+$"

// fitDecoder rewrites the parts of schema s of type t (reflected by
// invopop) that say something else than what the arguments decoder reads,
// to what `mcpgen tools` derives at build time (package bind): the member
// names of a map with integer keys ("propertyNames" with
// schemapattern.IntegerKey, for every size, signed or not; none for a key
// type with its own UnmarshalText, which reads any name) and the text of
// a json.Number with the ",string" tag option (schemapattern.Number).
func fitDecoder(root, t reflect.Type, s *jsonschema.Schema) {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if s == nil || t == timeType || t.Implements(customIface) || reflect.PointerTo(t).Implements(customIface) || selfEncodedSchema(root, t) != nil {
		return
	}
	switch t.Kind() {
	case reflect.Slice, reflect.Array:
		fitDecoder(root, t.Elem(), s.Items)
	case reflect.Map:
		fitDecoder(root, t.Elem(), fitMapKeys(t, s))
	case reflect.Struct:
		fitFields(root, t, s)
	}
}

// fitMapKeys gives the schema s of map type t the member names its key
// type reads: {"propertyNames":{"pattern":P}} for an integer key type
// (invopop's patternProperties moved to additionalProperties), none for
// a key type with its own UnmarshalText. It returns the schema of the
// map's values (nil for an interface element: any value).
func fitMapKeys(t reflect.Type, s *jsonschema.Schema) *jsonschema.Schema {
	if p, ok := s.PatternProperties[invopopIntKey]; ok && len(s.PatternProperties) == 1 {
		s.PatternProperties, s.AdditionalProperties = nil, p
		if t.Elem().Kind() == reflect.Interface {
			s.AdditionalProperties = nil
		}
	}
	kt := t.Key()
	switch {
	case reflect.PointerTo(kt).Implements(textUnmarshaler):
	case kt.Kind() >= reflect.Int && kt.Kind() <= reflect.Int64:
		s.PropertyNames = &jsonschema.Schema{Pattern: schemapattern.IntegerKey(keyBits(kt), true)}
	case kt.Kind() >= reflect.Uint && kt.Kind() <= reflect.Uintptr: // the decoder reads a uintptr as a uint
		s.PropertyNames = &jsonschema.Schema{Pattern: schemapattern.IntegerKey(keyBits(kt), false)}
	}
	return s.AdditionalProperties
}

// keyBits is the size an integer map key's pattern is for: int, uint and
// uintptr count as 64 bits on every target, as at build time (package
// bind), so a tool's schema does not depend on the server's machine; a
// 32-bit server's decoder still refuses a key beyond its int's range.
func keyBits(kt reflect.Type) int {
	switch kt.Kind() {
	case reflect.Int, reflect.Uint, reflect.Uintptr:
		return 64
	}
	return kt.Bits()
}

// fitFields fits the property of each field of struct type t in s that
// encoding/json decodes, as invopop names them (an embedded struct's
// fields are s's own): for each JSON name, the shallowest field of that
// name, or the one tagged with it among several at that depth (none when
// that leaves more than one). A field an outer one hides says nothing
// about the outer one's property.
func fitFields(root, t reflect.Type, s *jsonschema.Schema) {
	if s.Properties == nil {
		return
	}
	type candidate struct {
		f      reflect.StructField
		depth  int
		tagged bool
	}
	byName := map[string][]candidate{}
	var names []string
	var walk func(t reflect.Type, depth int, visiting map[reflect.Type]bool)
	walk = func(t reflect.Type, depth int, visiting map[reflect.Type]bool) {
		for i := range t.NumField() {
			f := t.Field(i)
			jsonTags := strings.Split(f.Tag.Get("json"), ",")
			if (jsonTags[0] == "-" && len(jsonTags) == 1) || strings.Split(f.Tag.Get("jsonschema"), ",")[0] == "-" {
				continue
			}
			ft := f.Type
			if ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			if (f.Anonymous && jsonTags[0] == "" && ft.Kind() == reflect.Struct) || slices.Contains(jsonTags[1:], "inline") {
				if ft.Kind() == reflect.Struct && !visiting[ft] && ft != timeType && !ft.Implements(customIface) &&
					!reflect.PointerTo(ft).Implements(customIface) && selfEncodedSchema(root, ft) == nil {
					visiting[ft] = true
					walk(ft, depth+1, visiting)
					delete(visiting, ft)
				}
				continue
			}
			if !f.Anonymous && !f.IsExported() {
				continue
			}
			name := f.Name
			if jsonTags[0] != "" {
				name = jsonTags[0]
			}
			if _, seen := byName[name]; !seen {
				names = append(names, name)
			}
			byName[name] = append(byName[name], candidate{f: f, depth: depth, tagged: jsonTags[0] != ""})
		}
	}
	walk(t, 0, map[reflect.Type]bool{t: true})
	for _, name := range names {
		cs := byName[name]
		top := slices.MinFunc(cs, func(a, b candidate) int { return a.depth - b.depth }).depth
		var at, tagged []candidate
		for _, c := range cs {
			if c.depth == top {
				at = append(at, c)
				if c.tagged {
					tagged = append(tagged, c)
				}
			}
		}
		switch {
		case len(at) == 1:
		case len(tagged) == 1:
			at = tagged
		default:
			continue // encoding/json decodes none of them
		}
		prop, ok := s.Properties.Get(name)
		if !ok || prop == nil {
			continue
		}
		f := at[0].f
		ft := f.Type
		if ft.Kind() == reflect.Pointer {
			ft = ft.Elem()
		}
		if ft == numberType && slices.Contains(strings.Split(f.Tag.Get("json"), ",")[1:], "string") && prop.Type == "string" && prop.Pattern == "" {
			prop.Pattern = schemapattern.Number
		}
		fitDecoder(root, f.Type, prop)
	}
}
