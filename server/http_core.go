package server

import (
	"context"

	"github.com/mcpgen/mcpgen/jsonrpc"
	"github.com/mcpgen/mcpgen/server/httpwire"
)

// httpCore is what the Streamable HTTP transport needs from the
// transport-independent core. *Server implements it; tests inject a fake.
type httpCore interface {
	// Handle answers one decoded message (see (*Server).Handle).
	Handle(ctx context.Context, msg jsonrpc.Message, w MessageWriter) Response
	// SupportedVersions lists the protocol versions served, newest first.
	SupportedVersions() []string
}

// paramHeaderSource is the optional part of httpCore that gives the
// x-mcp-header declarations of a registered tool, for the Mcp-Param-{Name}
// header checks of a tools/call POST.
//
// CORE SEAM: *Server provides it by defining, in a core file,
//
//	func (s *Server) toolParamHeaders(name string) []httpwire.ParamHeader
//
// returning the declarations of the tool currently registered under name
// (httpwire.ParamHeadersFromSchema of its inputSchema, computed once when
// the tool is registered; nil for an unknown tool or a tool without
// annotations). Until that method exists, HTTPHandler checks no
// Mcp-Param-* headers (TestServerProvidesToolParamHeaders fails).
type paramHeaderSource interface {
	toolParamHeaders(name string) []httpwire.ParamHeader
}
