package generator

import (
	"fmt"

	"github.com/dave/jennifer/jen"
	"github.com/mcpgen/mcpgen/schema"
)

// emitConstants declares the protocol version, the JSON-RPC version, a
// constant per method and one per error code.
//
//	const ProtocolVersion = "2026-07-28"
//	const MethodToolsCall = "tools/call"
//	const CodeMethodNotFound = -32601
func (g *gen) emitConstants(f *jen.File) {
	f.Const().Defs(
		jen.Comment("ProtocolVersion is the revision of the Model Context Protocol this package implements.").Line().
			Id("ProtocolVersion").Op("=").Lit(g.m.Version),
		jen.Comment("JSONRPCVersion is the JSON-RPC version every message carries.").Line().
			Id("JSONRPCVersion").Op("=").Lit("2.0"),
	)
	var methods []jen.Code
	for _, md := range append(append([]*schema.Method{}, g.m.Requests...), g.m.Notifications...) {
		kind := "request"
		if md.Notification {
			kind = "notification"
		}
		doc := fmt.Sprintf("%s is the method of %s, the %s %s.", g.id.method[md], md.Type.Name, kind, senderPhrase(md))
		if md.Type.Deprecated != "" {
			doc += "\n\nDeprecated: " + md.Type.Name + " is deprecated."
		}
		methods = append(methods, jen.Add(comment(doc)).Id(g.id.method[md]).Op("=").Lit(md.Name))
	}
	f.Const().Defs(methods...)
	var codes []jen.Code
	for _, ec := range g.m.ErrorCodes {
		doc := fmt.Sprintf("%s (%d): %s", g.id.code[ec.Code], ec.Code, g.docs.text(ec.Doc))
		codes = append(codes, jen.Add(comment(doc)).Id(g.id.code[ec.Code]).Op("=").Lit(int(ec.Code)))
	}
	f.Comment("JSON-RPC error codes of this revision.")
	f.Const().Defs(codes...)
}

func senderPhrase(md *schema.Method) string {
	switch {
	case md.FromClient && md.FromServer:
		return "both sides send"
	case md.FromClient:
		return "a client sends"
	case md.FromServer:
		return "a server sends"
	}
	return "of the protocol"
}
