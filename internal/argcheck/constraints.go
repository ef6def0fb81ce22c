package argcheck

import (
	"encoding"
	"encoding/json"
	"reflect"
	"time"
)

// valueKeywords are the JSON Schema keywords a Go value can violate even
// when the schema was derived from its type: everything but the shape
// (type, properties, items, required, additionalProperties, $ref, anyOf
// with null, annotations).
var valueKeywords = map[string]bool{
	"enum": true, "const": true, "minimum": true, "maximum": true, "exclusiveMinimum": true,
	"exclusiveMaximum": true, "multipleOf": true, "minLength": true, "maxLength": true, "pattern": true,
	"minItems": true, "maxItems": true, "uniqueItems": true, "minProperties": true, "maxProperties": true,
	"not": true, "oneOf": true, "allOf": true, "if": true, "dependentRequired": true, "dependentSchemas": true,
	"propertyNames": true, "contains": true, "patternProperties": true, "contentMediaType": true,
}

// HasValueConstraints reports whether a schema constrains values beyond
// their shape anywhere (see valueKeywords; "format" other than the
// date-time of time.Time counts). Unparsable schemas count as constrained.
func HasValueConstraints(schema json.RawMessage) bool {
	var doc any
	if err := json.Unmarshal(schema, &doc); err != nil {
		return true
	}
	return constrained(doc, 0)
}

func constrained(v any, depth int) bool {
	if depth > 64 {
		return true
	}
	switch v := v.(type) {
	case map[string]any:
		for k, e := range v {
			switch {
			case valueKeywords[k]:
				return true
			case k == "format" && e != "date-time":
				return true
			case k == "properties" || k == "$defs":
				if m, ok := e.(map[string]any); ok {
					for _, sub := range m {
						if constrained(sub, depth+1) {
							return true
						}
					}
				}
			case k == "items" || k == "additionalProperties" || k == "anyOf":
				if constrained(e, depth+1) {
					return true
				}
			}
		}
	case []any:
		for _, e := range v {
			if constrained(e, depth+1) {
				return true
			}
		}
	}
	return false
}

var (
	jsonMarshaler = reflect.TypeFor[json.Marshaler]()
	textMarshaler = reflect.TypeFor[encoding.TextMarshaler]()
	timeType      = reflect.TypeFor[time.Time]()
)

// MarshalsItself reports whether t or a type it contains (fields, elements)
// implements json.Marshaler or encoding.TextMarshaler, time.Time aside.
func MarshalsItself(t reflect.Type) bool {
	return marshalsItself(t, map[reflect.Type]bool{})
}

func marshalsItself(t reflect.Type, seen map[reflect.Type]bool) bool {
	if seen[t] {
		return false
	}
	seen[t] = true
	if t == timeType {
		return false
	}
	if t.Implements(jsonMarshaler) || t.Implements(textMarshaler) ||
		reflect.PointerTo(t).Implements(jsonMarshaler) || reflect.PointerTo(t).Implements(textMarshaler) {
		return true
	}
	switch t.Kind() {
	case reflect.Pointer, reflect.Slice, reflect.Array, reflect.Map:
		return marshalsItself(t.Elem(), seen)
	case reflect.Interface:
		return false // its schema is {}: any value conforms
	case reflect.Struct:
		for i := range t.NumField() {
			if f := t.Field(i); (f.IsExported() || f.Anonymous) && marshalsItself(f.Type, seen) {
				return true
			}
		}
	}
	return false
}
