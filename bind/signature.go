package bind

import (
	"go/token"
	"go/types"
	"strings"
)

// Expected signatures, quoted in error messages.
const (
	toolSignature     = "func(ctx context.Context, in Args) (R, error) where Args is a named struct (ctx and in are optional) and R is a struct, string, []mcp.ContentBlock or *mcp.CallToolResult"
	promptSignature   = "func(ctx context.Context, in Args) (R, error) where Args is a named struct of string fields (ctx and in are optional) and R is *mcp.GetPromptResult, []mcp.PromptMessage or string"
	resourceSignature = "func(ctx context.Context) (R, error) where ctx is optional and R is string, []byte, a struct or *mcp.ReadResourceResult"
	templateSignature = "func(ctx context.Context, vars Vars) (R, error) where Vars is a named struct with a string field per template variable (ctx is optional) and R is string, []byte, a struct or *mcp.ReadResourceResult"
)

// signature is the checked shape of a bound func.
type signature struct {
	takesContext bool
	arg          types.Type // nil when the func takes no argument
	argPos       token.Pos
	result       types.Type
}

// splitSignature checks the common shape: optional ctx, at most one more
// parameter, results (R, error), no type parameters, not variadic.
// It returns a reason when the shape is wrong.
func splitSignature(sig *types.Signature) (signature, string) {
	var s signature
	if sig.TypeParams().Len() > 0 || sig.RecvTypeParams().Len() > 0 {
		return s, "generic funcs and methods of generic types cannot be bound"
	}
	if sig.Variadic() {
		return s, "variadic funcs cannot be bound"
	}
	params := sig.Params()
	i := 0
	if params.Len() > 0 && isContext(params.At(0).Type()) {
		s.takesContext = true
		i = 1
	}
	for j := i; j < params.Len(); j++ {
		if isContext(params.At(j).Type()) {
			return s, "context.Context must be the first parameter"
		}
	}
	switch params.Len() - i {
	case 0:
	case 1:
		s.arg = params.At(i).Type()
		s.argPos = params.At(i).Pos()
	default:
		return s, "too many parameters"
	}
	res := sig.Results()
	if res.Len() != 2 || !isError(res.At(1).Type()) {
		return s, "results must be (R, error)"
	}
	s.result = res.At(0).Type()
	return s, ""
}

func isContext(t types.Type) bool { return isNamed(t, "context", "Context") }

func isError(t types.Type) bool { return types.Identical(t, types.Universe.Lookup("error").Type()) }

// isNamed reports whether t is the named type pkgPath.name.
func isNamed(t types.Type, pkgPath, name string) bool {
	n, ok := types.Unalias(t).(*types.Named)
	if !ok {
		return false
	}
	obj := n.Obj()
	return obj.Name() == name && obj.Pkg() != nil && obj.Pkg().Path() == pkgPath
}

// isMCPPointer reports whether t is *mcp.<name>.
func isMCPPointer(t types.Type, name string) bool {
	p, ok := types.Unalias(t).(*types.Pointer)
	return ok && isNamed(p.Elem(), MCPPackagePath, name)
}

// isMCPSlice reports whether t is []mcp.<name>.
func isMCPSlice(t types.Type, name string) bool {
	s, ok := types.Unalias(t).(*types.Slice)
	return ok && isNamed(s.Elem(), MCPPackagePath, name)
}

func isStringKind(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsString != 0
}

func isBytes(t types.Type) bool {
	s, ok := types.Unalias(t).(*types.Slice)
	if !ok {
		return false
	}
	b, ok := types.Unalias(s.Elem()).(*types.Basic)
	return ok && b.Kind() == types.Byte
}

// namedStruct reports whether t (after at most one pointer) is a named struct.
func namedStruct(t types.Type) (named *types.Named, pointer, ok bool) {
	t = types.Unalias(t)
	if p, isPtr := t.(*types.Pointer); isPtr {
		t, pointer = types.Unalias(p.Elem()), true
	}
	n, isNamed := t.(*types.Named)
	if !isNamed {
		return nil, pointer, false
	}
	_, isStruct := n.Underlying().(*types.Struct)
	return n, pointer, isStruct
}

func isUnnamedStruct(t types.Type) bool {
	_, ok := types.Unalias(t).(*types.Struct)
	return ok
}

// typeRef describes t relative to the package pkg.
func typeRef(t types.Type, pkg *types.Package) TypeRef {
	r := TypeRef{Type: t, Expr: types.TypeString(t, qualifier(pkg))}
	u := types.Unalias(t)
	if p, ok := u.(*types.Pointer); ok {
		u, r.Pointer = types.Unalias(p.Elem()), true
	}
	if n, ok := u.(*types.Named); ok {
		r.Name = n.Obj().Name()
		if n.Obj().Pkg() != nil {
			r.PkgPath = n.Obj().Pkg().Path()
		}
	} else if r.Pointer {
		r.Pointer = false
	}
	return r
}

// hasInvalid reports whether t mentions a type the checker could not resolve.
func hasInvalid(t types.Type) bool {
	switch t := types.Unalias(t).(type) {
	case *types.Basic:
		return t.Kind() == types.Invalid
	case *types.Pointer:
		return hasInvalid(t.Elem())
	case *types.Slice:
		return hasInvalid(t.Elem())
	case *types.Array:
		return hasInvalid(t.Elem())
	case *types.Map:
		return hasInvalid(t.Key()) || hasInvalid(t.Elem())
	case *types.Tuple:
		for i := 0; i < t.Len(); i++ {
			if hasInvalid(t.At(i).Type()) {
				return true
			}
		}
	}
	return false
}

// structFields lists the JSON members of a struct as encoding/json picks
// them (jsonFields: exported fields and the fields of embedded structs
// without a json name, the shallowest field of a name winning); members
// hidden by `jsonschema:"-"` are left out.
func structFields(fset *token.FileSet, st *types.Struct) []ArgField {
	var out []ArgField
	for _, f := range jsonFields(st) {
		if f.hidden {
			continue
		}
		out = append(out, ArgField{
			Name:     f.name,
			GoPath:   f.goPath,
			Type:     f.v.Type(),
			Required: hasOption(f.tag.Get("jsonschema"), "required"),
			Pos:      fset.Position(f.v.Pos()),
			Tag:      string(f.tag),
		})
	}
	return out
}

func hasOption(tag, opt string) bool {
	for _, o := range strings.Split(tag, ",") {
		if o == opt {
			return true
		}
	}
	return false
}

// qualifier prints types of pkg unqualified and other packages by name,
// as they would be written in a file of pkg: "WeatherArgs", "mcp.ContentBlock".
func qualifier(pkg *types.Package) types.Qualifier {
	return func(other *types.Package) string {
		if other == pkg {
			return ""
		}
		return other.Name()
	}
}
