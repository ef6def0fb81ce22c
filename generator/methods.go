package generator

import (
	"github.com/dave/jennifer/jen"
	"github.com/mcpgen/mcpgen/schema"
)

// emitMethodTable writes the table from each method to its message, params
// and result types, unexported so no importer can change it, and
// LookupMethod, the one way to read it.
//
//	var methodTable = map[string]MethodInfo{MethodToolsCall: {…}, …}
//	func LookupMethod(name string) (MethodInfo, bool)
func (g *gen) emitMethodTable(f *jen.File) {
	f.Comment("MethodInfo describes a request or notification of the protocol.")
	f.Type().Id("MethodInfo").Struct(
		jen.Comment("Name is the method on the wire.").Line().Id("Name").String(),
		jen.Comment("Notification is true for notifications, which have no result.").Line().Id("Notification").Bool(),
		jen.Comment("FromClient and FromServer say who sends the message.").Line().Id("FromClient").Op(",").Id("FromServer").Bool(),
		jen.Comment("Message is the type of the whole message.").Line().Id("Message").Qual("reflect", "Type"),
		jen.Comment("Params is the type of its params, or nil.").Line().Id("Params").Qual("reflect", "Type"),
		jen.Comment("Result is the type of a request's result (a struct or a sealed union), or nil.").Line().Id("Result").Qual("reflect", "Type"),
	)
	typeOf := func(t *schema.Type) jen.Code {
		if t == nil {
			return jen.Nil()
		}
		return jen.Qual("reflect", "TypeFor").Index(jen.Id(g.name(t))).Call()
	}
	entries := jen.Dict{}
	for _, md := range append(append([]*schema.Method{}, g.m.Requests...), g.m.Notifications...) {
		entries[jen.Id(g.id.method[md])] = jen.Values(jen.Dict{
			jen.Id("Name"):         jen.Id(g.id.method[md]),
			jen.Id("Notification"): jen.Lit(md.Notification),
			jen.Id("FromClient"):   jen.Lit(md.FromClient),
			jen.Id("FromServer"):   jen.Lit(md.FromServer),
			jen.Id("Message"):      typeOf(md.Type),
			jen.Id("Params"):       typeOf(md.Params),
			jen.Id("Result"):       typeOf(md.Result),
		})
	}
	f.Comment("methodTable describes every request and notification, by method name.")
	f.Var().Id("methodTable").Op("=").Map(jen.String()).Id("MethodInfo").Values(entries)
	f.Line()
	f.Comment("LookupMethod describes the request or notification called name, and")
	f.Comment("reports whether this revision of the protocol has it.")
	f.Func().Id("LookupMethod").Params(jen.Id("name").String()).Params(jen.Id("MethodInfo"), jen.Bool()).Block(
		jen.List(jen.Id("m"), jen.Id("ok")).Op(":=").Id("methodTable").Index(jen.Id("name")),
		jen.Return(jen.Id("m"), jen.Id("ok")),
	)
}
