package generator

import (
	"fmt"

	"github.com/dave/jennifer/jen"
	"github.com/mcpgen/mcpgen/schema"
)

// emitClient writes Client, with one typed method per request a client
// sends, over a Caller that a transport provides.
//
//	func (c *Client) CallTool(ctx context.Context, params *CallToolRequestParams) (CallToolOutcome, error)
func (g *gen) emitClient(f *jen.File) {
	f.Add(comment(`Caller sends one request and returns its raw result; a transport or an
in-memory server implements it. A JSON-RPC error comes back as the error.`)).Type().Id("Caller").Interface(
		jen.Id("Call").Params(jen.Id("ctx").Qual("context", "Context"), jen.Id("method").String(), jen.Id("params").Any()).Params(jen.Qual(encodingJSON, "RawMessage"), jen.Error()),
	)
	f.Comment("Client calls a server's requests with typed params and results.")
	f.Type().Id("Client").Struct(jen.Id("caller").Id("Caller"))
	f.Comment("NewClient returns a client that sends its requests through caller.")
	f.Func().Id("NewClient").Params(jen.Id("caller").Id("Caller")).Op("*").Id("Client").Block(
		jen.Return(jen.Op("&").Id("Client").Values(jen.Dict{jen.Id("caller"): jen.Id("caller")})),
	)
	for _, md := range g.m.Requests {
		if !md.FromClient {
			continue
		}
		name := g.id.handler[md]
		var decode jen.Code
		switch {
		case md.Result == nil:
			decode = jen.Return(jen.Id("raw"), jen.Nil())
		case resolve(md.Result).Kind == schema.KindUnion:
			decode = jen.Return(jen.Id("Decode" + g.name(resolve(md.Result))).Call(jen.Id("raw")))
		default:
			decode = jen.Return(jen.Id("decodeResult").Index(jen.Id(g.name(md.Result))).Call(jen.Id("raw")))
		}
		f.Add(comment(fmt.Sprintf("%s sends %s.", name, md.Name))).Func().Params(jen.Id("c").Op("*").Id("Client")).Id(name).Params(g.handlerParams(md)...).Params(g.resultType(md), jen.Error()).Block(
			jen.List(jen.Id("raw"), jen.Err()).Op(":=").Id("c").Dot("caller").Dot("Call").Call(jen.Id("ctx"), jen.Id(g.id.method[md]), jen.Id("params")),
			jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Err())),
			decode,
		)
	}
}
