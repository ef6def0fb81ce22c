package generator

import (
	"fmt"

	"github.com/dave/jennifer/jen"
	"github.com/mcpgen/mcpgen/schema"
)

// emitMeta writes the typed _meta helpers: Get and Set for the undeclared
// keys of every _meta object (the declared, reserved keys are typed
// fields), and GetMeta on every type that carries a _meta object.
func (g *gen) emitMeta(f *jen.File) {
	metaTypes := map[*schema.Type]bool{}
	for _, t := range g.m.Types {
		for _, fl := range t.Fields {
			if fl.Name == "_meta" && fl.Type.Named != nil {
				metaTypes[resolve(fl.Type.Named)] = true
			}
		}
	}
	for _, t := range g.m.Types {
		if metaTypes[t] && t.Kind == schema.KindStruct && t.Open {
			g.emitMetaAccessors(f, t)
		}
	}
	for _, t := range g.m.Types {
		if t.Kind != schema.KindStruct {
			continue
		}
		fields, _ := structFields(t)
		for _, gf := range fields {
			if gf.Name != "_meta" || gf.Fixed || gf.Type.Named == nil || resolve(gf.Type.Named).Kind != schema.KindStruct {
				continue
			}
			mt := g.name(gf.Type.Named)
			ret := jen.Op("&").Id("x").Dot(gf.Go)
			if pointerField(gf.Field) {
				ret = jen.Id("x").Dot(gf.Go)
			}
			//	func (x *CallToolRequestParams) GetMeta() *RequestMetaObject
			f.Comment(fmt.Sprintf("GetMeta returns the _meta of %s; it is nil only when x is nil.", article(g.name(t))))
			f.Func().Params(jen.Id("x").Op("*").Id(g.name(t))).Id("GetMeta").Params().Op("*").Id(mt).Block(
				jen.If(jen.Id("x").Op("==").Nil()).Block(jen.Return(jen.Nil())),
				jen.Return(ret),
			)
		}
	}
}

// emitMetaAccessors writes Get and Set for the undeclared keys of a _meta
// object.
func (g *gen) emitMetaAccessors(f *jen.File, t *schema.Type) {
	_, extra := structFields(t)
	var declared []jen.Code
	for _, n := range declaredNames(t) {
		declared = append(declared, jen.Lit(n))
	}
	f.Comment(fmt.Sprintf("Get returns the raw value of a key the schema does not declare for %s.", g.name(t)))
	f.Func().Params(jen.Id("m").Op("*").Id(g.name(t))).Id("Get").Params(jen.Id("key").String()).Params(jen.Qual(encodingJSON, "RawMessage"), jen.Bool()).Block(
		jen.If(jen.Id("m").Op("==").Nil()).Block(jen.Return(jen.Nil(), jen.False())),
		jen.List(jen.Id("v"), jen.Id("ok")).Op(":=").Id("m").Dot(extra).Index(jen.Id("key")),
		jen.Return(jen.Id("v"), jen.Id("ok")),
	)
	f.Add(comment(fmt.Sprintf(`Set stores value under a key the schema does not declare for %s.
The key must follow the _meta key rules (ValidateMetaKey), must not use a
prefix reserved for MCP, and must not be one of the declared keys, which have
typed fields.`, g.name(t)))).Func().Params(jen.Id("m").Op("*").Id(g.name(t))).Id("Set").Params(jen.Id("key").String(), jen.Id("value").Any()).Error().Block(
		jen.If(jen.Qual("slices", "Contains").Call(jen.Index().String().Values(declared...), jen.Id("key"))).Block(
			jen.Return(jen.Qual("fmt", "Errorf").Call(jen.Lit("_meta key %q has a typed field in "+g.name(t)), jen.Id("key"))),
		),
		jen.If(jen.Err().Op(":=").Id("ValidateMetaKey").Call(jen.Id("key")), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())),
		jen.If(jen.Id("IsReservedMetaKey").Call(jen.Id("key"))).Block(
			jen.Return(jen.Qual("fmt", "Errorf").Call(jen.Lit("_meta key %q uses a prefix reserved for MCP"), jen.Id("key"))),
		),
		jen.List(jen.Id("raw"), jen.Err()).Op(":=").Qual(encodingJSON, "Marshal").Call(jen.Id("value")),
		jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())),
		jen.If(jen.Id("m").Dot(extra).Op("==").Nil()).Block(jen.Id("m").Dot(extra).Op("=").Map(jen.String()).Qual(encodingJSON, "RawMessage").Values()),
		jen.Id("m").Dot(extra).Index(jen.Id("key")).Op("=").Id("raw"),
		jen.Return(jen.Nil()),
	)
	f.Comment(fmt.Sprintf("Validate checks every undeclared key of %s against the _meta key rules.", article(g.name(t))))
	f.Func().Params(jen.Id("m").Op("*").Id(g.name(t))).Id("Validate").Params().Error().Block(
		jen.If(jen.Id("m").Op("==").Nil()).Block(jen.Return(jen.Nil())),
		jen.For(jen.Id("key").Op(":=").Range().Id("m").Dot(extra)).Block(
			jen.If(jen.Err().Op(":=").Id("ValidateMetaKey").Call(jen.Id("key")), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())),
		),
		jen.Return(jen.Nil()),
	)
}
