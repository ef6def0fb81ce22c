package generator

import (
	"github.com/dave/jennifer/jen"
	"github.com/mcpgen/mcpgen/schema"
)

// isUnion reports whether a type expression names a union of objects (a
// sealed interface in Go).
func isUnion(r *schema.Ref) bool {
	if r == nil || r.Named == nil {
		return false
	}
	t := resolve(r.Named)
	return t != nil && t.Kind == schema.KindUnion
}

// unionChecks are the encoder's checks of a member that is a union, or an
// array or map of unions: nil, or a nil pointer of a member type, is
// written as null, which the decoder refuses where the schema does not let
// the value be null (a nil optional member is left out, not written). The
// elements of an array or map that may itself be null are checked too.
func unionChecks(gf goField) []jen.Code {
	v, name := fieldValue(gf), jen.Lit(gf.Name)
	r := gf.Type
	switch {
	case isUnion(r) && r.Nullable:
		return nil
	case isUnion(r):
		return []jen.Code{jen.Id("checkUnion").Call(v, name, jen.Lit(gf.Required))}
	case r.Array != nil && isUnion(r.Array) && !r.Array.Nullable:
		return []jen.Code{jen.Id("checkUnionElements").Call(v, name)}
	case r.Map != nil && isUnion(r.Map) && !r.Map.Nullable:
		return []jen.Code{jen.Id("checkUnionValues").Call(v, name)}
	}
	return nil
}

// collectionUnionCheck is unionChecks for the elements of a named array or
// map, or nil when they are not unions that must not be null.
func collectionUnionCheck(t *schema.Type, v jen.Code) jen.Code {
	if !isUnion(t.Elem) || t.Elem.Nullable {
		return nil
	}
	if t.Kind == schema.KindMap {
		return jen.Id("checkUnionValues").Call(v, jen.Lit(""))
	}
	return jen.Id("checkUnionElements").Call(v, jen.Lit(""))
}
