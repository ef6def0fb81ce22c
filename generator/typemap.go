package generator

import (
	"slices"

	"github.com/dave/jennifer/jen"
	"github.com/mcpgen/mcpgen/schema"
)

// resolve follows aliases to the type that gives a name its shape.
func resolve(t *schema.Type) *schema.Type {
	return t.Resolved()
}

// goType is the Go type of a type expression, without optional pointers.
func (g *gen) goType(r *schema.Ref) *jen.Statement {
	switch {
	case r.Raw:
		return jen.Qual("encoding/json", "RawMessage")
	case r.Base64:
		return jen.Index().Byte()
	case r.Named != nil:
		return jen.Id(g.name(r.Named))
	case r.Array != nil:
		return jen.Index().Add(g.elemType(r.Array))
	case r.Map != nil:
		return jen.Map(jen.String()).Add(g.elemType(r.Map))
	case r.Any:
		return jen.Any()
	}
	return primType(r.Prim)
}

// elemType is the Go type of an array element or map value: a pointer
// when it may be null and its schema narrows it (nil is null, which the
// check lets through), else as goType.
func (g *gen) elemType(r *schema.Ref) *jen.Statement {
	if nullableElem(r) {
		return jen.Op("*").Add(g.goType(r))
	}
	return g.goType(r)
}

// nullableElem reports whether an element may be null and is checked.
func nullableElem(r *schema.Ref) bool { return r != nil && r.Nullable && r.Check != nil }

func primType(p schema.Prim) *jen.Statement {
	switch p {
	case schema.Integer:
		return jen.Int64()
	case schema.Number:
		return jen.Float64()
	case schema.Boolean:
		return jen.Bool()
	}
	return jen.String()
}

// pointerField reports whether a field is a pointer in Go: optional (or
// nullable) objects, so that an empty object a message carried is kept, and
// optional booleans and numbers, so that an explicit false or 0 is kept.
// Strings, slices, maps, unions and scalar unions stay values with omitzero,
// except strings whose presence matters (cursors).
func pointerField(f *schema.Field) bool {
	if f.Presence && f.Type.Prim == schema.String && f.Type.Named == nil && !f.Type.Base64 {
		return true // an explicit "" must survive (Overrides.Presence)
	}
	if isMeta(f.Type) {
		// Every _meta is a struct value, required or not: one shape, read
		// without nil checks; an empty _meta is the same as none.
		return false
	}
	if !f.Required || f.Type.Nullable {
		return pointerable(f.Type)
	}
	return false
}

func pointerable(r *schema.Ref) bool {
	if r.Named != nil {
		t := resolve(r.Named)
		switch t.Kind {
		case schema.KindStruct:
			return true
		case schema.KindScalar:
			return t.Elem.Prim != schema.String
		}
		return false
	}
	if r.Array != nil || r.Map != nil || r.Any || r.Raw || r.Base64 {
		return false
	}
	return r.Prim != schema.String || r.Nullable
}

// isMeta reports whether a type expression is a _meta object.
func isMeta(r *schema.Ref) bool {
	return r.Named != nil && resolve(r.Named).MetaObject && resolve(r.Named).Kind == schema.KindStruct
}

// fieldType is the Go type of a struct field.
func (g *gen) fieldType(f *schema.Field) *jen.Statement {
	t := g.goType(f.Type)
	if pointerField(f) {
		t = jen.Op("*").Add(t)
	}
	if keepsNull(f) {
		t = jen.Op("*").Add(t)
	}
	return t
}

// keepsNull reports whether a field is optional and may be null, so that
// absent and null are two values: its Go type is then a pointer to the
// type it has when required (**T, *[]T, *Union…), nil when the member is
// absent and a pointer to nil (or to an empty Value) when it is null. A
// discriminating member, a _meta object and raw JSON (which holds null
// itself) are left as they are.
func keepsNull(f *schema.Field) bool {
	return !f.Required && (f.Type.Nullable || namedNullable(f.Type)) && f.Tag == "" && !isMeta(f.Type) && !f.Type.Raw && !f.Type.Any
}

// namedNullable reports whether a type expression names a type whose own
// values include null: a scalar union taking null (a nil Value) or a
// nullable enum (its empty value). A type of any JSON value is not one
// here: an optional member of any value stays an any, nil when absent.
func namedNullable(r *schema.Ref) bool {
	if r.Named == nil {
		return false
	}
	t := resolve(r.Named)
	return t.Kind == schema.KindScalarUnion && slices.Contains(t.Prims, schema.Null) || t.Kind == schema.KindEnum && t.Nullable
}

// fieldValue is the expression of field gf's value in x, for its checks:
// what it holds when required, null (nil) when an optional member that
// keeps null is absent.
func fieldValue(gf goField) *jen.Statement {
	if keepsNull(gf.Field) {
		return jen.Id("nullKeptValue").Call(jen.Id("x").Dot(gf.Go))
	}
	return jen.Id("x").Dot(gf.Go)
}

// decoderFor is the decoder expression of a field, such as
// plain[string], integer, DecodeContentBlock or sliceVia[Tool].
func (g *gen) decoderFor(r *schema.Ref, pointer bool) jen.Code {
	switch {
	case r.Named != nil && resolve(r.Named).Kind == schema.KindUnion && r.Nullable:
		// anyOf [union, null]: null is the nil member, which the union's
		// own decoder refuses.
		name := g.name(resolve(r.Named))
		return jen.Func().Params(jen.Id("data").Index().Byte()).Params(jen.Id(name), jen.Error()).Block(
			jen.If(jen.String().Call(jen.Id("data")).Op("==").Lit("null")).Block(jen.Return(jen.Nil(), jen.Nil())),
			jen.Return(jen.Id("Decode"+name).Call(jen.Id("data"))),
		)
	case r.Named != nil && resolve(r.Named).Kind == schema.KindUnion:
		return jen.Id("Decode" + g.name(resolve(r.Named)))
	case r.Array != nil && r.Array.Named != nil && resolve(r.Array.Named).Kind == schema.KindStruct:
		return jen.Id("sliceVia").Index(jen.Id(g.name(r.Array.Named)))
	case r.Array != nil && !plainElements(r.Array):
		return jen.Id("sliceOf").Call(g.elementDecoder(r.Array))
	case r.Map != nil && !plainElements(r.Map):
		return jen.Id("mapOf").Call(g.elementDecoder(r.Map))
	}
	if r.Named != nil && resolve(r.Named).Kind == schema.KindStruct {
		if pointer {
			return jen.Id("viaPointer").Index(jen.Id(g.name(r.Named)))
		}
		return jen.Id("via").Index(jen.Id(g.name(r.Named)))
	}
	if r.Base64 && !pointer {
		return jen.Id("base64Bytes") // a base64 string, not an array of numbers
	}
	if r.Raw {
		if r.RawKind == "object" {
			return jen.Id("rawObject")
		}
		return jen.Id("rawValue")
	}
	if r.Named == nil && r.Array == nil && r.Map == nil && !r.Any && !r.Base64 {
		switch {
		case !pointer && r.Prim == schema.String:
			return jen.Id("str")
		case r.Prim == schema.Integer && pointer:
			return jen.Id("optionalInteger")
		case r.Prim == schema.Integer && r.Nullable:
			return jen.Id("integerOrNull")
		case r.Prim == schema.Integer:
			return jen.Id("integer")
		}
	}
	t := g.goType(r)
	if pointer {
		t = jen.Op("*").Add(t)
	}
	return jen.Id("plain").Index(t)
}

// elementDecoder is the decoder of an array's elements or a map's values:
// decoderFor's, except that a string the schema does not let be null
// refuses null (stringElement) instead of reading it as "".
func (g *gen) elementDecoder(e *schema.Ref) jen.Code {
	if e.Named == nil && e.Array == nil && e.Map == nil && !e.Any && !e.Base64 && !e.Raw &&
		e.Prim == schema.String && !e.Nullable {
		return jen.Id("stringElement")
	}
	return g.decoderFor(e, nullableElem(e))
}

// plainElements reports whether the elements of an array or map are
// decoded with encoding/json along with it: only when no element can be
// refused (any JSON value, raw text of any kind). Any other array or map
// is decoded element by element, so that an error names the element
// ("tools[1].name", "stopSequences[2]", "experimental.x"), and so that
// integers never go through encoding/json, which refuses 1.0, an integer
// in JSON Schema.
func plainElements(elem *schema.Ref) bool {
	switch {
	case elem.Any, elem.Raw && elem.RawKind == "":
		return true
	case elem.Named != nil:
		t := resolve(elem.Named)
		return t != nil && t.Kind == schema.KindAny
	}
	return false
}

// hasScalarDecoder reports whether a named scalar has its own
// UnmarshalJSON: when the schema narrows its values, or it is an integer.
func hasScalarDecoder(t *schema.Type) bool {
	return checksScalar(t) || t.Elem.Prim == schema.Integer
}

// hasCollectionDecoder reports whether a named array or map has its own
// UnmarshalJSON: when its elements are not plain or the schema narrows
// them.
func (g *gen) hasCollectionDecoder(t *schema.Type) bool {
	return !plainElements(t.Elem) || g.ruleFor(collectionRef(t)) != nil
}

// isCollection reports whether a field is a slice or map in Go.
func isCollection(r *schema.Ref) bool {
	if r.Named != nil {
		t := resolve(r.Named)
		return t.Kind == schema.KindArray || t.Kind == schema.KindMap
	}
	return r.Array != nil || r.Map != nil || r.Base64
}

// emptyValue is the empty (not nil) value of a slice or map field.
func (g *gen) emptyValue(r *schema.Ref) jen.Code {
	return g.goType(r).Clone().Values()
}
