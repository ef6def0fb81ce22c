package generator

import (
	"strings"

	"github.com/dave/jennifer/jen"
	"github.com/mcpgen/mcpgen/schema"
)

// valueCheck is the call that refuses a field's value when its schema
// would: an inline string enum or a bounded number. It is the same check on
// decoding and encoding, so a handler cannot send what a peer must refuse.
// It returns nil when the field has nothing to check.
func (g *gen) valueCheck(gf goField) jen.Code {
	v := jen.Id("x").Dot(gf.Go)
	ptr := pointerField(gf.Field)
	switch {
	case len(gf.Enum) > 0 && gf.Type.Prim == schema.String && gf.Type.Named == nil && !ptr:
		args := []jen.Code{v, jen.Lit(gf.Name), jen.Lit(gf.Required)}
		for _, e := range gf.Enum {
			args = append(args, jen.Lit(e))
		}
		return jen.Id("checkOneOf").Call(args...)
	case len(gf.Literals) > 0:
		args := []jen.Code{v, jen.Lit(gf.Name)}
		for _, l := range gf.Literals {
			args = append(args, jen.Lit(l))
		}
		if ptr {
			return jen.Id("checkLiteralOptional").Call(args...)
		}
		return jen.Id("checkLiteral").Call(args...)
	case (gf.Minimum != nil || gf.Maximum != nil) && numeric(gf.Type):
		b := jen.Dict{}
		if gf.Minimum != nil {
			b[jen.Id("hasMin")], b[jen.Id("min")] = jen.True(), jen.Lit(*gf.Minimum)
		}
		if gf.Maximum != nil {
			b[jen.Id("hasMax")], b[jen.Id("max")] = jen.True(), jen.Lit(*gf.Maximum)
		}
		fn := "checkBounds"
		if ptr {
			fn = "checkBoundsOptional"
		}
		return jen.Id(fn).Call(v, jen.Lit(gf.Name), jen.Id("bounds").Values(b))
	}
	return nil
}

// numeric reports whether a type expression is an integer or a number.
func numeric(r *schema.Ref) bool {
	if r.Named != nil {
		t := resolve(r.Named)
		return t.Kind == schema.KindScalar && (t.Elem.Prim == schema.Integer || t.Elem.Prim == schema.Number)
	}
	return r.Array == nil && r.Map == nil && !r.Any && !r.Raw && (r.Prim == schema.Integer || r.Prim == schema.Number)
}

// article puts "a" or "an" before a name, as it is read aloud: "an
// ImageContent", "a URL", "an HTTPError".
func article(name string) string {
	if name == "" {
		return name
	}
	upperRun := 0
	for _, r := range name {
		if r < 'A' || r > 'Z' {
			break
		}
		upperRun++
	}
	first := strings.ToLower(name[:1])
	switch {
	case upperRun > 1 && len(name) > upperRun-1:
		// An initialism is spelled out: "an HTTP", "a URL", "an SSE".
		if strings.ContainsAny(first, "aefhilmnorsx") {
			return "an " + name
		}
		return "a " + name
	case strings.HasPrefix(name, "Uni") || strings.HasPrefix(name, "Use") || strings.HasPrefix(name, "Uri"):
		return "a " + name // "a UnionX", "a UserThing": a "you" sound
	case strings.ContainsAny(first, "aeiou"):
		return "an " + name
	}
	return "a " + name
}
