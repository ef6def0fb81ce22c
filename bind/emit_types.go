package bind

import (
	"go/types"

	"github.com/dave/jennifer/jen"
)

// typeCode writes t as Go source in the bound package, importing the
// packages of named types from elsewhere. Bound signatures only hold named
// types, pointers, slices, arrays, maps and basic types (bind rejects the
// rest); anything else is written with types.TypeString.
func (e *emitter) typeCode(t types.Type) jen.Code {
	switch t := t.(type) {
	case *types.Alias:
		return e.objCode(t.Obj(), t.TypeArgs())
	case *types.Named:
		return e.objCode(t.Obj(), t.TypeArgs())
	case *types.Basic:
		return jen.Id(t.Name())
	case *types.Pointer:
		return jen.Op("*").Add(e.typeCode(t.Elem()))
	case *types.Slice:
		return jen.Index().Add(e.typeCode(t.Elem()))
	case *types.Array:
		return jen.Index(jen.Lit(int(t.Len()))).Add(e.typeCode(t.Elem()))
	case *types.Map:
		return jen.Map(e.typeCode(t.Key())).Add(e.typeCode(t.Elem()))
	case *types.Struct:
		if t.NumFields() == 0 {
			return jen.Struct()
		}
	}
	return jen.Id(types.TypeString(t, qualifier(e.pkg.Types)))
}

// objCode writes a named type (or alias) with its type arguments.
func (e *emitter) objCode(obj *types.TypeName, args *types.TypeList) jen.Code {
	var name *jen.Statement
	switch pkg := obj.Pkg(); {
	case pkg == nil: // error, any, comparable
		name = jen.Id(obj.Name())
	case pkg.Path() == e.pkg.Path:
		name = jen.Id(obj.Name())
	default:
		e.importPkg(pkg.Path(), pkg.Name())
		name = jen.Qual(pkg.Path(), obj.Name())
	}
	if args.Len() == 0 {
		return name
	}
	codes := make([]jen.Code, args.Len())
	for i := range args.Len() {
		codes[i] = e.typeCode(args.At(i))
	}
	return name.Types(codes...)
}
