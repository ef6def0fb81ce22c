package server

import (
	"context"

	"github.com/mcpgen/mcpgen/internal/httpwire"
	"github.com/mcpgen/mcpgen/jsonrpc"
)

// httpCore is what the Streamable HTTP transport needs from the
// transport-independent core. *Server implements it; tests inject a fake.
type httpCore interface {
	// Handle answers one decoded message (see (*Server).Handle).
	Handle(ctx context.Context, msg jsonrpc.Message, w MessageWriter) Response
	// serveStateless answers a request that no legacy session of the
	// transport serves, from the one parse the transport's checks read:
	// in the era its _meta names (see eraFor).
	serveStateless(ctx context.Context, pr *parsedRequest, w MessageWriter) Response
	// SupportedVersions lists the protocol versions served, newest first.
	SupportedVersions() []string
}

// paramHeaderSource is the optional part of httpCore that gives the
// x-mcp-header declarations of a registered tool, for the Mcp-Param-{Name}
// header checks of a tools/call POST.
//
// *Server implements it in server.go (toolParamHeaders: the declarations
// computed when the tool was registered; nil for an unknown tool or one
// without annotations).
type paramHeaderSource interface {
	toolParamHeaders(name string) []httpwire.ParamHeader
}

var (
	_ httpCore          = (*Server)(nil)
	_ paramHeaderSource = (*Server)(nil)
)
