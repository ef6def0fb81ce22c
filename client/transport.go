package client

import (
	"context"
	"encoding/json"
	"net/http"

	"github.com/mcpgen/mcpgen/jsonrpc"
)

// Request is one JSON-RPC request or notification as a Transport sends it.
// The Client fills it in; a Transport must not modify it.
type Request struct {
	// ID is the request id; zero for a notification.
	ID     jsonrpc.ID
	Method string
	// Params is the complete params object, _meta included (nil: none).
	Params json.RawMessage
	// ProtocolVersion is the version the request is sent at: the
	// MCP-Protocol-Version header on HTTP.
	ProtocolVersion string
	// Name is the value the Mcp-Name header mirrors (params.name of
	// tools/call and prompts/get, params.uri of resources/read), or "".
	Name string
	// Header holds further HTTP headers (Mcp-Param-*); other transports
	// ignore it.
	Header http.Header
	// ProgressToken is the JSON text of params._meta.progressToken, or "".
	// Transports route notifications/progress by it (an integral number
	// token in its int64 decimal form, as mcp.ProgressToken reads it).
	ProgressToken string
	// Notify, when set, receives the notifications the server sends for this
	// request, by one rule on every transport: a notifications/progress
	// when it carries its progress token (a subscription id in its _meta
	// notwithstanding), any other when it carries its id as subscription
	// id; on an HTTP response stream also any other that carries no
	// subscription id. The rest go to the Peer.
	Notify func(method string, params json.RawMessage)
}

// A Transport carries a Client's requests to one server. RoundTrip returns
// the raw result of the response with req.ID, or the error: a
// *jsonrpc.Error when the server answered with one, else an error that
// names what went wrong (the server exited, the stream ended, the response
// was malformed or had another id). Transports are safe for concurrent use.
type Transport interface {
	RoundTrip(ctx context.Context, req *Request) (json.RawMessage, error)
	// Notify sends a notification (req.ID is zero).
	Notify(ctx context.Context, req *Request) error
	// Close ends the connection: a stdio server is asked to exit, a legacy
	// HTTP session is deleted.
	Close() error
}

// Peer receives the messages a server sends that belong to no request of
// the client: a legacy session's server-to-client requests (sampling,
// elicitation, roots) and notifications that name no request. The Client
// is the Peer of its transport.
type Peer interface {
	HandleRequest(ctx context.Context, method string, params json.RawMessage) (json.RawMessage, *jsonrpc.Error)
	HandleNotification(method string, params json.RawMessage)
}

// serverRequestGate is implemented by a Peer that knows the session's era
// (the Client). A 2026-07-28 server sends no requests of its own
// (streamable-http.mdx: "The server MUST NOT send independent JSON-RPC
// requests on this stream"; stdio.mdx: "The server MUST NOT write JSON-RPC
// requests to stdout"), and the client answers none ("The client MUST NOT
// send JSON-RPC responses"): a transport drops such a request, neither
// served nor answered, when the gate says so.
type serverRequestGate interface {
	// acceptServerRequest reports whether a server request for method is
	// served; when it is not, the gate has logged why.
	acceptServerRequest(method string) bool
}

// acceptsServerRequest reports whether a transport serves a server request
// for method: always, unless p is a serverRequestGate that refuses it.
func acceptsServerRequest(p Peer, method string) bool {
	g, ok := p.(serverRequestGate)
	return !ok || g.acceptServerRequest(method)
}

// PeerBinder is implemented by transports that deliver such messages;
// Connect binds the Client before the first request.
type PeerBinder interface {
	BindPeer(Peer)
}

// HeaderMirror is implemented by transports that carry a tool's
// x-mcp-header arguments as Mcp-Param-* headers (HTTPTransport). For them
// the Client fills Request.Header and drops tools whose annotations are
// invalid from tools/list results.
type HeaderMirror interface {
	MirrorsHeaders() bool
}

// legacySessioner is implemented by transports that keep legacy session
// state (HTTP: Mcp-Session-Id); the Client calls it when it falls back.
type legacySessioner interface {
	startLegacy(version string)
	// sessionReady is called once notifications/initialized is sent.
	sessionReady()
}
