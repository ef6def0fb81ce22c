package argschema

import (
	"encoding"
	"encoding/json"
	"fmt"
	"reflect"

	"github.com/invopop/jsonschema"
)

// SchemaVersion is the "$schema" URI of every schema this package emits.
const SchemaVersion = "https://json-schema.org/draft/2020-12/schema"

// For returns the JSON Schema of a tool's argument or result type t.
// See the package documentation for the shape of the schema.
func For(t reflect.Type) (json.RawMessage, error) {
	s, err := reflectSchema(t)
	if err != nil {
		return nil, err
	}
	b, err := json.Marshal(s)
	if err != nil {
		return nil, fmt.Errorf("argschema: encoding schema of %s: %w", t, err)
	}
	return b, nil
}

// ForType is For(reflect.TypeFor[T]()).
func ForType[T any]() (json.RawMessage, error) {
	return For(reflect.TypeFor[T]())
}

// newReflector returns the one Reflector configuration used for every
// schema of the root type root.
func newReflector(root reflect.Type) *jsonschema.Reflector {
	return &jsonschema.Reflector{
		Mapper:                     func(t reflect.Type) *jsonschema.Schema { return selfEncodedSchema(root, t) },
		Anonymous:                  true, // no $id
		ExpandedStruct:             true, // root inline, not a $ref
		DoNotReference:             true, // nested structs inline, no $defs
		RequiredFromJSONSchemaTags: true, // required only from jsonschema:"required"
		AllowAdditionalProperties:  true, // extra properties are accepted
	}
}

// reflectSchema checks t and reflects it into a schema tree.
func reflectSchema(t reflect.Type) (s *jsonschema.Schema, err error) {
	if t == nil {
		return nil, fmt.Errorf("argschema: nil type")
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct && t.Kind() != reflect.Map {
		return nil, fmt.Errorf("argument type %s is not a struct", t)
	}
	if err := checkType(t); err != nil {
		return nil, err
	}
	defer func() {
		// invopop panics on types it cannot express; checkType should have
		// caught them, this is the safety net.
		if r := recover(); r != nil {
			s, err = nil, fmt.Errorf("argschema: cannot derive schema of %s: %v", t, r)
		}
	}()
	s = newReflector(t).ReflectFromType(t)
	if s.Type != "object" {
		return nil, fmt.Errorf("argument type %s is not a struct", t)
	}
	s.Version = SchemaVersion
	s.ID = ""
	dropNull(s)
	fitDecoder(t, t, s)
	if s.Properties != nil && s.Properties.Len() == 0 && s.AdditionalProperties == nil && len(s.PatternProperties) == 0 && t.Kind() == reflect.Struct {
		s.AdditionalProperties = jsonschema.FalseSchema
	}
	return s, nil
}

var (
	jsonMarshaler   = reflect.TypeFor[json.Marshaler]()
	jsonUnmarshaler = reflect.TypeFor[json.Unmarshaler]()
	textMarshaler   = reflect.TypeFor[encoding.TextMarshaler]()
	textUnmarshaler = reflect.TypeFor[encoding.TextUnmarshaler]()
	numberType      = reflect.TypeFor[json.Number]()
)

// selfEncodedSchema is the schema of a type whose Go kind says nothing
// about its JSON form. json.Number is {"type":"number"}: encoding/json
// writes its text as a JSON number (an empty one as 0) and reads one from
// a JSON number (the ",string" tag option, which quotes it, makes the
// field a string, as it does a float's; fitDecoder gives it its pattern). A type that encoding/json
// encodes and decodes through its own methods is {} (any JSON) for
// json.Marshaler or json.Unmarshaler, else
// {"type":"string"} for encoding.TextMarshaler or encoding.TextUnmarshaler
// (netip.Addr, net.IP, big.Int, slog.Level, …). It is nil for other types,
// for time.Time and types with a JSONSchema method (invopop handles them),
// and for the root, which is described by its fields. `mcpgen tools`
// derives the same schemas at build time (package bind).
func selfEncodedSchema(root, t reflect.Type) *jsonschema.Schema {
	if t == numberType {
		return &jsonschema.Schema{Type: "number"}
	}
	if t == root || t == timeType || t.Implements(customIface) || reflect.PointerTo(t).Implements(customIface) {
		return nil
	}
	p := reflect.PointerTo(t)
	switch {
	case p.Implements(jsonMarshaler) || p.Implements(jsonUnmarshaler):
		return &jsonschema.Schema{}
	case p.Implements(textMarshaler) || p.Implements(textUnmarshaler):
		return &jsonschema.Schema{Type: "string"}
	}
	return nil
}

// dropNull rewrites every {"oneOf":[X,{"type":"null"}]} produced by the
// "nullable" tag option into X, in the whole tree.
func dropNull(s *jsonschema.Schema) {
	if s == nil {
		return
	}
	if len(s.OneOf) == 2 && s.Type == "" {
		for i, alt := range s.OneOf {
			if alt != nil && alt.Type == "null" && alt.Properties == nil {
				keep := s.OneOf[1-i]
				desc := s.Description
				*s = *keep
				if s.Description == "" {
					s.Description = desc
				}
				break
			}
		}
	}
	if s.Properties != nil {
		for p := s.Properties.Oldest(); p != nil; p = p.Next() {
			dropNull(p.Value)
		}
	}
	for _, sub := range s.PatternProperties {
		dropNull(sub)
	}
	dropNull(s.AdditionalProperties)
	dropNull(s.Items)
	for _, list := range [][]*jsonschema.Schema{s.OneOf, s.AnyOf, s.AllOf, s.PrefixItems} {
		for _, sub := range list {
			dropNull(sub)
		}
	}
}
