package generator

import (
	"strings"

	"github.com/dave/jennifer/jen"
	"github.com/mcpgen/mcpgen/schema"
)

// valueCheck is the call that refuses a field's value when its schema
// would: an inline string enum or a bounded number. It is the same check on
// decoding and encoding, so a handler cannot send what a peer must refuse.
// present is the expression telling whether the member is present, so
// that an empty string enum value stands for absence only when it is not:
// the member's raw JSON is not nil on decoding, it is required on encoding.
// It returns nil when the field has nothing to check.
func (g *gen) valueCheck(gf goField, present jen.Code) jen.Code {
	v := fieldValue(gf)
	ptr := pointerField(gf.Field)
	switch {
	case len(gf.Enum) > 0 && gf.Type.Prim == schema.String && gf.Type.Named == nil && !ptr:
		args := []jen.Code{v, jen.Lit(gf.Name), present}
		for _, e := range gf.Enum {
			args = append(args, jen.Lit(e))
		}
		return jen.Id("checkOneOf").Call(args...)
	case len(gf.Enum) > 0 && gf.Type.Prim == schema.String && gf.Type.Named == nil:
		// A pointer: the enum admits null (or presence matters).
		args := []jen.Code{v, jen.Lit(gf.Name)}
		for _, e := range gf.Enum {
			args = append(args, jen.Lit(e))
		}
		return jen.Id("checkOneOfOptional").Call(args...)
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
		fn := "checkBounds"
		if ptr {
			fn = "checkBoundsOptional"
		}
		return jen.Id(fn).Call(v, jen.Lit(gf.Name), boundsValue(gf.Minimum, gf.Maximum))
	}
	return nil
}

// boundsValue is the bounds{…} literal of a minimum and a maximum.
func boundsValue(lo, hi *float64) jen.Code {
	b := jen.Dict{}
	if lo != nil {
		b[jen.Id("hasMin")], b[jen.Id("min")] = jen.True(), jen.Lit(*lo)
	}
	if hi != nil {
		b[jen.Id("hasMax")], b[jen.Id("max")] = jen.True(), jen.Lit(*hi)
	}
	return jen.Id("bounds").Values(b)
}

// scalarChecks are the checks of a named scalar's value x: its literals
// (an integer, number or boolean enum, or a const) and its bounds, each
// returning its error. The decoder and the encoder run the same ones.
func scalarChecks(t *schema.Type, x jen.Code, fail ...jen.Code) []jen.Code {
	var out []jen.Code
	if len(t.Literals) > 0 {
		lits := []jen.Code{x, jen.Lit("")}
		for _, l := range t.Literals {
			lits = append(lits, jen.Lit(l))
		}
		out = append(out, jen.If(jen.Err().Op(":=").Id("checkLiteral").Call(lits...), jen.Err().Op("!=").Nil()).Block(jen.Return(append(fail, jen.Err())...)))
	}
	if t.Minimum != nil || t.Maximum != nil {
		out = append(out, jen.If(jen.Err().Op(":=").Id("checkBounds").Call(x, jen.Lit(""), boundsValue(t.Minimum, t.Maximum)), jen.Err().Op("!=").Nil()).Block(jen.Return(append(fail, jen.Err())...)))
	}
	return out
}

// checksScalar reports whether a named scalar has a value to check.
func checksScalar(t *schema.Type) bool {
	return len(t.Literals) > 0 || t.Minimum != nil || t.Maximum != nil
}

// valueChecks are the calls that refuse a field's value: its own check
// (valueCheck), then the check of its elements when it is an array or a
// map whose items or values the schema narrows. present is as for
// valueCheck.
func (g *gen) valueChecks(gf goField, present jen.Code) []jen.Code {
	var out []jen.Code
	if check := g.valueCheck(gf, present); check != nil {
		out = append(out, check)
	}
	if gf.Type.Array != nil || gf.Type.Map != nil {
		if r := g.ruleFor(gf.Type); r != nil {
			out = append(out, jen.Id("checkRule").Call(fieldValue(gf), jen.Lit(gf.Name), r))
		}
	}
	return out
}

// ruleFor is the rule (see support.go) that a value of a type expression
// must pass, element by element, such as eachRule(enumRule("a", "b")), or
// nil when the schema narrows none of its elements.
func (g *gen) ruleFor(r *schema.Ref) jen.Code {
	switch {
	case r.Array != nil:
		if inner := g.ruleFor(r.Array); inner != nil {
			return jen.Id("eachRule").Call(inner)
		}
		return nil
	case r.Map != nil:
		if inner := g.ruleFor(r.Map); inner != nil {
			return jen.Id("valuesRule").Call(inner)
		}
		return nil
	case r.Check == nil:
		return nil
	}
	c := r.Check
	var rules []jen.Code
	switch {
	case len(c.Enum) > 0:
		args := make([]jen.Code, len(c.Enum))
		for i, e := range c.Enum {
			args[i] = jen.Lit(e)
		}
		rules = append(rules, jen.Id("enumRule").Call(args...))
	case len(c.Literals) > 0:
		args := make([]jen.Code, len(c.Literals))
		for i, l := range c.Literals {
			args[i] = jen.Lit(l)
		}
		rules = append(rules, jen.Id("literalRule").Index(primType(r.Prim)).Call(args...))
	}
	if (c.Minimum != nil || c.Maximum != nil) && (r.Prim == schema.Integer || r.Prim == schema.Number) {
		rules = append(rules, jen.Id("boundsRule").Index(primType(r.Prim)).Call(boundsValue(c.Minimum, c.Maximum)))
	}
	var out jen.Code
	switch len(rules) {
	case 0:
		return nil
	case 1:
		out = rules[0]
	default:
		out = jen.Id("bothRules").Call(rules[0], rules[1])
	}
	if nullableElem(r) {
		out = jen.Id("optionalRule").Call(out) // null is allowed: a nil pointer
	}
	return out
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

// allowWord says how a named scalar's check is described: the values the
// schema does not "list" (an enum) or does not "allow" (bounds too).
func allowWord(t *schema.Type) string {
	if t.Minimum == nil && t.Maximum == nil {
		return "list"
	}
	return "allow"
}
