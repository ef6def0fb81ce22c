package generator

import (
	"fmt"
	"sort"

	"github.com/dave/jennifer/jen"
	"github.com/mcpgen/mcpgen/schema"
)

// The names emitResults declares; idents reserves them.
const (
	resultDefaultsName  = "ResultDefaults"
	resultCompleterName = "ResultCompleter"
	completedMethod     = "Completed"
)

// cacheMembers are the members of a cacheable result that a server fills
// from its cache policy when a result sets no cacheScope (2026-07-28
// CacheableResult).
var cacheMembers = []string{"ttlMs", "cacheScope"}

// resultTypes lists the struct types a request answers with: each request's
// result, or the struct members of a result union, sorted by name.
func (g *gen) resultTypes() []*schema.Type {
	seen := map[*schema.Type]bool{}
	var out []*schema.Type
	add := func(t *schema.Type) {
		if t != nil && t.Kind == schema.KindStruct && !seen[t] {
			seen[t] = true
			out = append(out, t)
		}
	}
	for _, md := range g.m.Requests {
		r := resolve(md.Result)
		if r == nil {
			continue
		}
		if r.Kind == schema.KindUnion {
			for _, m := range r.Union.Members {
				add(m.Type)
			}
			continue
		}
		add(r)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// defaultsPlan is what ResultDefaults holds for one model.
type defaultsPlan struct {
	meta  *schema.Type        // the _meta type most results use, or nil
	cache map[string]*goField // cache member → its first declaration
	order []string            // cache members present, in cacheMembers order
}

func (g *gen) planDefaults(results []*schema.Type) defaultsPlan {
	p := defaultsPlan{cache: map[string]*goField{}}
	count := map[*schema.Type]int{}
	for _, t := range results {
		fields, _ := structFields(t)
		for i := range fields {
			gf := &fields[i]
			if gf.Fixed {
				continue
			}
			if gf.Name == "_meta" && isMeta(gf.Type) {
				count[resolve(gf.Type.Named)]++
			}
			for _, c := range cacheMembers {
				if gf.Name == c && p.cache[c] == nil && cacheFillable(c, gf.Type) {
					p.cache[c] = gf
				}
			}
		}
	}
	for t, n := range count {
		if p.meta == nil || n > count[p.meta] || n == count[p.meta] && t.Name < p.meta.Name {
			p.meta = t
		}
	}
	for _, c := range cacheMembers {
		if p.cache[c] != nil {
			p.order = append(p.order, c)
		}
	}
	return p
}

// scalarRef reports whether a field holds a string, number or boolean (or
// a named type of one), which a default can be converted to.
func scalarRef(r *schema.Ref) bool {
	if r.Named != nil {
		t := resolve(r.Named)
		return t.Kind == schema.KindEnum || t.Kind == schema.KindScalar && !t.Elem.Base64
	}
	return r.Prim != "" && r.Array == nil && r.Map == nil && !r.Any && !r.Raw && !r.Base64
}

// cacheFillable reports whether a cache member has a type ResultDefaults
// can fill: cacheScope a string (or a string enum), whose "" says the
// result sets none, and ttlMs a number. A schema may declare either
// otherwise in some result (an integer cacheScope, a string ttlMs); that
// member is then not filled (converting a default to it would not compile,
// or, string(ttlMs), would make a one-rune string), and the result keeps
// what its handler set.
func cacheFillable(member string, r *schema.Ref) bool {
	if !scalarRef(r) {
		return false
	}
	switch p := primOf(r); member {
	case cacheMembers[1]:
		return p == schema.String
	default:
		return p == schema.Integer || p == schema.Number
	}
}

// primOf is the primitive a scalar field holds.
func primOf(r *schema.Ref) schema.Prim {
	if r.Named != nil {
		t := resolve(r.Named)
		if t.Kind == schema.KindEnum {
			return schema.String
		}
		return t.Elem.Prim
	}
	return r.Prim
}

// emitResults writes ResultDefaults, the ResultCompleter interface and a
// Completed method on every result type, so that a server completes any
// result in one call instead of one case per type.
//
//	func (x *ListToolsResult) Completed(d *ResultDefaults) any
func (g *gen) emitResults(f *jen.File) {
	results := g.resultTypes()
	if len(results) == 0 {
		return
	}
	p := g.planDefaults(results)
	var members []jen.Code
	if p.meta != nil {
		members = append(members, jen.Comment("Meta supplies the members of a result's _meta that the result leaves unset; a _meta of another type gets the members both declare.").Line().
			Id("Meta").Id(g.name(p.meta)))
	}
	for _, c := range p.order {
		gf := p.cache[c]
		members = append(members, jen.Comment(fmt.Sprintf("%s is the %q of a cacheable result that sets no %q.", gf.Go, c, cacheMembers[1])).Line().
			Id(gf.Go).Add(primType(primOf(gf.Type))))
	}
	f.Add(comment(resultDefaultsName + ` holds what a server puts into every result it sends where the
handler left it unset.`)).Type().Id(resultDefaultsName).Struct(members...)

	f.Add(comment(resultCompleterName + ` is implemented by every result type of the protocol.`)).Type().Id(resultCompleterName).Interface(
		jen.Add(comment(completedMethod + ` returns a copy of the result with the members d supplies filled in
where the result leaves them unset and its discriminator (resultType) set to
the type's own whatever the result holds, or nil when the result is a nil
pointer.`)).Id(completedMethod).Params(jen.Id("d").Op("*").Id(resultDefaultsName)).Any(),
	)

	metaFillers := map[*schema.Type]bool{} // whether a _meta type has a filler
	for _, t := range results {
		g.emitCompleted(f, t, p, metaFillers)
	}
}

// emitCompleted writes Completed for one result type.
func (g *gen) emitCompleted(f *jen.File, t *schema.Type, p defaultsPlan, metaFillers map[*schema.Type]bool) {
	fields, _ := structFields(t)
	body := []jen.Code{
		jen.If(jen.Id("x").Op("==").Nil()).Block(jen.Return(jen.Nil())),
		jen.Id("c").Op(":=").Op("*").Id("x"),
	}
	byName := map[string]goField{}
	for _, gf := range fields {
		if !gf.Fixed {
			byName[gf.Name] = gf
		}
		if gf.Tag != "" && !gf.Fixed && !pointerField(gf.Field) {
			// The discriminator is the type's own: a result never
			// claims to be another kind ("task" on a CallToolResult).
			body = append(body, jen.Id("c").Dot(gf.Go).Op("=").Lit(gf.Tag))
		}
	}
	if gf, ok := byName["_meta"]; ok && p.meta != nil && isMeta(gf.Type) {
		mt := resolve(gf.Type.Named)
		if _, done := metaFillers[mt]; !done {
			metaFillers[mt] = g.emitMetaFiller(f, mt, p.meta)
		}
		if metaFillers[mt] {
			body = append(body, jen.Id("c").Dot(gf.Go).Op("=").Id("d").Dot(metaFiller(g.name(mt))).Call(jen.Id("c").Dot(gf.Go)))
		}
	}
	if scope, ok := byName[cacheMembers[1]]; ok && p.cache[cacheMembers[1]] != nil && cacheFillable(cacheMembers[1], scope.Type) && !pointerField(scope.Field) {
		set := []jen.Code{jen.Id("c").Dot(scope.Go).Op("=").Add(g.goType(scope.Type)).Call(jen.Id("d").Dot(p.cache[cacheMembers[1]].Go))}
		ttl, hasTTL := byName[cacheMembers[0]]
		hasTTL = hasTTL && p.cache[cacheMembers[0]] != nil && cacheFillable(cacheMembers[0], ttl.Type)
		if hasTTL && !pointerField(ttl.Field) {
			set = append(set, jen.Id("c").Dot(ttl.Go).Op("=").Add(g.goType(ttl.Type)).Call(jen.Id("d").Dot(p.cache[cacheMembers[0]].Go)))
		}
		body = append(body, jen.If(jen.Id("c").Dot(scope.Go).Op("==").Lit("")).Block(set...))
		if hasTTL && pointerField(ttl.Field) {
			body = append(body, jen.If(jen.Id("c").Dot(ttl.Go).Op("==").Nil()).Block(
				jen.Id("v").Op(":=").Add(g.goType(ttl.Type)).Call(jen.Id("d").Dot(p.cache[cacheMembers[0]].Go)),
				jen.Id("c").Dot(ttl.Go).Op("=").Op("&").Id("v"),
			))
		}
	}
	body = append(body, jen.Return(jen.Op("&").Id("c")))
	f.Comment(fmt.Sprintf("%s returns a copy of x completed with d (see %s).", completedMethod, resultCompleterName))
	f.Func().Params(jen.Id("x").Op("*").Id(g.name(t))).Id(completedMethod).Params(jen.Id("d").Op("*").Id(resultDefaultsName)).Any().Block(body...)
}

func metaFiller(metaName string) string { return "fill" + metaName }

// emitMetaFiller writes the ResultDefaults method that fills the unset
// members of one _meta type from d.Meta: each member both types declare
// with the same Go type. It writes nothing, and reports false, when no
// member can be filled.
func (g *gen) emitMetaFiller(f *jen.File, mt, from *schema.Type) bool {
	src := map[string]goField{}
	fromFields, _ := structFields(from)
	for _, gf := range fromFields {
		if !gf.Fixed {
			src[gf.Name] = gf
		}
	}
	var body []jen.Code
	fields, _ := structFields(mt)
	for _, gf := range fields {
		s, ok := src[gf.Name]
		if gf.Fixed || !ok || g.fieldGo(gf) != g.fieldGo(s) {
			continue
		}
		var unset jen.Code
		switch {
		case pointerField(gf.Field) || isCollection(gf.Type) || gf.Type.Raw || gf.Type.Any:
			unset = jen.Id("m").Dot(gf.Go).Op("==").Nil()
		case scalarRef(gf.Type) && primOf(gf.Type) == schema.String:
			unset = jen.Id("m").Dot(gf.Go).Op("==").Lit("")
		case scalarRef(gf.Type) && primOf(gf.Type) != schema.Boolean:
			unset = jen.Id("m").Dot(gf.Go).Op("==").Lit(0)
		default:
			continue // a boolean or a struct value: unset cannot be told from set
		}
		body = append(body, jen.If(unset).Block(jen.Id("m").Dot(gf.Go).Op("=").Id("d").Dot("Meta").Dot(s.Go)))
	}
	if len(body) == 0 {
		return false
	}
	body = append(body, jen.Return(jen.Id("m")))
	name := g.name(mt)
	f.Comment(fmt.Sprintf("%s fills the members of m that d.Meta supplies and m leaves unset.", metaFiller(name)))
	f.Func().Params(jen.Id("d").Op("*").Id(resultDefaultsName)).Id(metaFiller(name)).Params(jen.Id("m").Id(name)).Id(name).Block(body...)
	return true
}

// fieldGo renders a field's Go type, to compare two fields.
func (g *gen) fieldGo(gf goField) string { return fmt.Sprintf("%#v", g.fieldType(gf.Field)) }
