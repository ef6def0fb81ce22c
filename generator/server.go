package generator

import (
	"fmt"
	"sort"
	"strings"

	"github.com/dave/jennifer/jen"
	"github.com/mcpgen/mcpgen/schema"
)

// group is the requests of one feature, such as tools/list and tools/call.
type group struct {
	Name     string // "Tools"
	Prefix   string // "tools"
	Requests []*schema.Method
}

// handlerGroups groups the requests clients send by the first segment of
// their method name.
func (g *gen) handlerGroups() []*group {
	byPrefix := map[string]*group{}
	for _, md := range g.m.Requests {
		if !md.FromClient {
			continue
		}
		prefix := groupPrefix(md.Name)
		gr := byPrefix[prefix]
		if gr == nil {
			gr = &group{Name: g.id.group[prefix], Prefix: prefix}
			byPrefix[prefix] = gr
		}
		gr.Requests = append(gr.Requests, md)
	}
	var out []*group
	for _, gr := range byPrefix {
		out = append(out, gr)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// resultType is the Go result of a request: *Struct or a sealed union.
func (g *gen) resultType(md *schema.Method) jen.Code {
	if md.Result == nil {
		return jen.Any()
	}
	if resolve(md.Result).Kind == schema.KindUnion {
		return jen.Id(g.name(md.Result))
	}
	return jen.Op("*").Id(g.name(md.Result))
}

func (g *gen) paramsType(md *schema.Method) jen.Code {
	if md.Params == nil {
		return jen.Op("*").Struct()
	}
	return jen.Op("*").Id(g.name(md.Params))
}

func (g *gen) handlerParams(md *schema.Method) []jen.Code {
	return []jen.Code{jen.Id("ctx").Qual("context", "Context"), jen.Id("params").Add(g.paramsType(md))}
}

// emitServer writes a handler interface per feature, an Unimplemented type
// per interface, and the Dispatcher.
//
//	type ToolsHandler interface {
//		CallTool(ctx context.Context, params *CallToolRequestParams) (CallToolOutcome, error)
//		ListTools(ctx context.Context, params *PaginatedRequestParams) (*ListToolsResult, error)
//	}
func (g *gen) emitServer(f *jen.File) {
	groups := g.handlerGroups()
	for _, gr := range groups {
		iface := gr.Name + "Handler"
		var methods []jen.Code
		for _, md := range gr.Requests {
			doc := fmt.Sprintf("%s answers %s.", g.id.handler[md], md.Name)
			if md.Type.Doc != "" {
				doc += " " + g.docs.text(firstParagraph(md.Type.Doc))
			}
			if md.Type.Deprecated != "" {
				doc += "\n\nDeprecated: " + md.Type.Name + " is deprecated."
			}
			methods = append(methods, jen.Add(comment(doc)).Id(g.id.handler[md]).Params(g.handlerParams(md)...).Params(g.resultType(md), jen.Error()))
		}
		f.Add(comment(fmt.Sprintf("%s is implemented by servers that offer the %s/* requests.", iface, gr.Prefix))).Type().Id(iface).Interface(methods...)

		unimpl := "Unimplemented" + iface
		f.Add(comment(fmt.Sprintf(`%s answers every %s/* request with a NotImplementedError.
Embed it in a server type to keep compiling when a later revision adds methods
to %s; embedding it still declares that the server offers %s.`, unimpl, gr.Prefix, iface, gr.Prefix))).Type().Id(unimpl).Struct()
		for _, md := range gr.Requests {
			f.Comment(fmt.Sprintf("%s answers with a NotImplementedError.", g.id.handler[md]))
			f.Func().Params(jen.Id(unimpl)).Id(g.id.handler[md]).Params(g.handlerParams(md)...).Params(g.resultType(md), jen.Error()).Block(
				jen.Return(jen.Nil(), jen.Op("&").Id("NotImplementedError").Values(jen.Dict{jen.Id("Method"): jen.Id(g.id.method[md])})),
			)
		}
	}
	g.emitDispatcher(f, groups)
}

func firstParagraph(s string) string {
	return strings.ReplaceAll(strings.TrimSpace(strings.SplitN(s, "\n\n", 2)[0]), "\n", " ")
}

// emitDispatcher writes the table from method name to typed decode →
// handler → result.
func (g *gen) emitDispatcher(f *jen.File, groups []*group) {
	f.Comment("Route decodes a request's params, runs Dispatcher.Before, and calls the handler.")
	f.Type().Id("Route").Func().Params(jen.Id("ctx").Qual("context", "Context"), jen.Id("d").Op("*").Id("Dispatcher"), jen.Id("params").Qual(encodingJSON, "RawMessage")).Params(jen.Any(), jen.Error())

	f.Add(comment(`Dispatcher routes requests by method name to the handler interfaces that
a server value implements (ToolsHandler, PromptsHandler, …).`)).Type().Id("Dispatcher").Struct(
		jen.Id("routes").Map(jen.String()).Id("Route"),
		jen.Id("groups").Map(jen.String()).Bool(),
		jen.Add(comment(`Before, when set, runs after the params are decoded and before the
handler; it may derive the context or refuse the request with an error.
params is the decoded params pointer (such as *CallToolRequestParams).`)).Id("Before").Func().Params(jen.Id("ctx").Qual("context", "Context"), jen.Id("method").String(), jen.Id("params").Any()).Params(jen.Qual("context", "Context"), jen.Error()),
	)

	var registers []jen.Code
	for _, gr := range groups {
		var routes []jen.Code
		for _, md := range gr.Requests {
			routes = append(routes, jen.Id("d").Dot("routes").Index(jen.Id(g.id.method[md])).Op("=").Func().Params(jen.Id("ctx").Qual("context", "Context"), jen.Id("d").Op("*").Id("Dispatcher"), jen.Id("raw").Qual(encodingJSON, "RawMessage")).Params(jen.Any(), jen.Error()).Block(
				g.routeBody(md)...,
			))
		}
		routes = append(routes, jen.Id("d").Dot("groups").Index(jen.Lit(gr.Prefix)).Op("=").True())
		registers = append(registers, jen.If(jen.List(jen.Id("h"), jen.Id("ok")).Op(":=").Id("handler").Assert(jen.Id(gr.Name+"Handler")), jen.Id("ok")).Block(routes...))
	}
	f.Add(comment(`NewDispatcher routes the requests of every handler interface that one of
handlers implements; a later handler takes over the methods of an earlier one.`)).Func().Id("NewDispatcher").Params(jen.Id("handlers").Op("...").Any()).Op("*").Id("Dispatcher").Block(
		jen.Id("d").Op(":=").Op("&").Id("Dispatcher").Values(jen.Dict{
			jen.Id("routes"): jen.Map(jen.String()).Id("Route").Values(),
			jen.Id("groups"): jen.Map(jen.String()).Bool().Values(),
		}),
		loopOverHandlers(registers),
		jen.Return(jen.Id("d")),
	)
	f.Comment("Handles reports whether a handler answers method.")
	f.Func().Params(jen.Id("d").Op("*").Id("Dispatcher")).Id("Handles").Params(jen.Id("method").String()).Bool().Block(
		jen.List(jen.Id("_"), jen.Id("ok")).Op(":=").Id("d").Dot("routes").Index(jen.Id("method")),
		jen.Return(jen.Id("ok")),
	)
	f.Comment(`Offers reports whether a handler implements the interface of a feature, named by its method prefix ("tools", "prompts", …).`)
	f.Func().Params(jen.Id("d").Op("*").Id("Dispatcher")).Id("Offers").Params(jen.Id("feature").String()).Bool().Block(
		jen.Return(jen.Id("d").Dot("groups").Index(jen.Id("feature"))),
	)
	f.Add(comment(`Dispatch answers one request. An unknown method is a NotImplementedError;
params that do not match the schema are a *DecodeError whose path starts
with "params".`)).Func().Params(jen.Id("d").Op("*").Id("Dispatcher")).Id("Dispatch").Params(jen.Id("ctx").Qual("context", "Context"), jen.Id("method").String(), jen.Id("params").Qual(encodingJSON, "RawMessage")).Params(jen.Any(), jen.Error()).Block(
		jen.List(jen.Id("route"), jen.Id("ok")).Op(":=").Id("d").Dot("routes").Index(jen.Id("method")),
		jen.If(jen.Op("!").Id("ok")).Block(jen.Return(jen.Nil(), jen.Op("&").Id("NotImplementedError").Values(jen.Dict{jen.Id("Method"): jen.Id("method")}))),
		jen.Return(jen.Id("route").Call(jen.Id("ctx"), jen.Id("d"), jen.Id("params"))),
	)
}

// loopOverHandlers registers each handler; a revision without requests
// has nothing to register.
func loopOverHandlers(registers []jen.Code) jen.Code {
	if len(registers) == 0 {
		return jen.Id("_").Op("=").Id("handlers")
	}
	return jen.For(jen.List(jen.Id("_"), jen.Id("handler")).Op(":=").Range().Id("handlers")).Block(registers...)
}

// routeBody decodes the params of one request and calls its handler.
func (g *gen) routeBody(md *schema.Method) []jen.Code {
	var body []jen.Code
	switch {
	case md.Params == nil:
		body = append(body, jen.Var().Id("p").Op("*").Struct())
	case resolve(md.Params).Kind == schema.KindUnion:
		body = append(body, g.decodeUnionParams(md)...)
	default:
		body = append(body,
			jen.List(jen.Id("p"), jen.Err()).Op(":=").Id("decodeParams").Index(jen.Id(g.name(md.Params))).Call(jen.Id("raw"), jen.Lit(md.ParamsRequired), jen.Lit(md.ParamsNullable)),
			jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Err())),
		)
	}
	body = append(body,
		jen.If(jen.Id("d").Dot("Before").Op("!=").Nil()).Block(
			jen.Var().Err().Error(),
			jen.If(jen.List(jen.Id("ctx"), jen.Err()).Op("=").Id("d").Dot("Before").Call(jen.Id("ctx"), jen.Id(g.id.method[md]), jen.Id("p")), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Err())),
		),
		jen.Return(jen.Id("h").Dot(g.id.handler[md]).Call(jen.Id("ctx"), jen.Id("p"))),
	)
	return body
}

// decodeUnionParams decodes params that are a union with the union's own
// decoder, as the request's decoder does (json.Unmarshal cannot fill an
// interface): p is a pointer to the member decoded, or to nil when
// optional params are absent, or params that may be null are null. Null
// params the schema does not allow go to the union's decoder, which
// refuses them, as the request's decoder does.
//
//	if raw == nil {
//		return nil, &DecodeError{Path: "params", Msg: "missing required member"}
//	}
//	v, err := DecodeItem(raw)
//	if err != nil {
//		return nil, within("params", err)
//	}
//	p := &v
func (g *gen) decodeUnionParams(md *schema.Method) []jen.Code {
	decode := []jen.Code{
		jen.List(jen.Id("v"), jen.Err()).Op(":=").Id("Decode" + g.name(resolve(md.Params))).Call(jen.Id("raw")),
		jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Id("within").Call(jen.Lit("params"), jen.Err()))),
	}
	if md.ParamsRequired && !md.ParamsNullable {
		return append(append([]jen.Code{missingParams()}, decode...), jen.Id("p").Op(":=").Op("&").Id("v"))
	}
	var body []jen.Code
	if md.ParamsRequired {
		body = append(body, missingParams())
	}
	cond := jen.Id("raw").Op("!=").Nil()
	if md.ParamsNullable {
		cond = cond.Op("&&").Op("!").Id("isNull").Call(jen.Id("raw"))
	}
	return append(body,
		jen.Id("p").Op(":=").New(jen.Id(g.name(md.Params))),
		jen.If(cond).Block(append(decode, jen.Op("*").Id("p").Op("=").Id("v"))...),
	)
}

// missingParams refuses absent params:
//
//	if raw == nil {
//		return nil, &DecodeError{Path: "params", Msg: "missing required member"}
//	}
func missingParams() jen.Code {
	return jen.If(jen.Id("raw").Op("==").Nil()).Block(jen.Return(jen.Nil(), jen.Op("&").Id("DecodeError").Values(jen.Dict{
		jen.Id("Path"): jen.Lit("params"),
		jen.Id("Msg"):  jen.Lit("missing required member"),
	})))
}
