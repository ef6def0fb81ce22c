package generator

import (
	"github.com/dave/jennifer/jen"
	"github.com/mcpgen/mcpgen/schema"
)

// emitRegistry writes DecodeNamed, which decodes JSON as any schema
// definition by name: tools, gateways and tests that hold a type name use it.
//
//	func DecodeNamed(name string, data []byte) (any, error)
func (g *gen) emitRegistry(f *jen.File) {
	var cases []jen.Code
	for _, t := range g.m.Types {
		if t.Inline {
			continue
		}
		var body jen.Code
		switch resolve(t).Kind {
		case schema.KindUnion:
			body = jen.Return(jen.Id("Decode" + g.name(resolve(t))).Call(jen.Id("data")))
		default:
			body = jen.Return(jen.Id("decodeNew").Index(jen.Id(g.name(t))).Call(jen.Id("data")))
		}
		cases = append(cases, jen.Case(jen.Lit(t.Name)).Block(body))
	}
	cases = append(cases, jen.Default().Block(jen.Return(jen.Nil(), jen.Qual("fmt", "Errorf").Call(jen.Lit("no schema definition named %q"), jen.Id("name")))))
	f.Comment("DecodeNamed decodes data as the schema definition called name and returns a pointer to it (or, for a union, its member).")
	f.Func().Id("DecodeNamed").Params(jen.Id("name").String(), jen.Id("data").Index().Byte()).Params(jen.Any(), jen.Error()).Block(
		jen.Switch(jen.Id("name")).Block(cases...),
	)
}
