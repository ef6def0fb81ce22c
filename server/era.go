package server

import (
	"context"
	"slices"

	legacy "github.com/mcpgen/mcpgen/generated/mcp20251125"
	"github.com/mcpgen/mcpgen/jsonrpc"
)

// The era seam. A message is served in one of two protocol eras
// (basic/versioning.mdx, "Backward Compatibility"): the modern, stateless
// era (every request carries its _meta) or an initialize-era session. The
// transports (Handle, the in-memory Caller, stdio, Streamable HTTP) only
// carry bytes; which era serves a message is decided in one place,
// chooseEra, from the one parse of the message, and the chosen era serves
// it through the era interface. So every transport serves both eras, and
// the versions they advertise (server/discover, -32022 data.supported, the
// MCP-Protocol-Version check) are the same list: SupportedVersions.

// era serves the messages of one protocol era. *Server is the stateless
// modern core; *legacySession is one initialize-era client.
type era interface {
	// handleRequest answers one parsed request.
	handleRequest(ctx context.Context, pr *parsedRequest, w MessageWriter) Response
}

var (
	_ era = (*Server)(nil)
	_ era = (*legacySession)(nil)
)

// eraChoice is what chooseEra decides for a request.
type eraChoice int

const (
	// eraModern: the stateless core serves it (a usable modern _meta with a
	// modern version, or a request no era can serve, which the core answers
	// with its -32602 / -32601 / -32022).
	eraModern eraChoice = iota
	// eraLegacyRequest: a usable _meta naming an initialize-era version
	// (a client retrying with a version -32022 or server/discover listed):
	// a session made from that _meta serves this one request.
	eraLegacyRequest
	// eraSession: the transport scope's legacy session serves it (a message
	// without a usable modern _meta on a connection or HTTP session that
	// was opened with initialize).
	eraSession
	// eraOpenSession: an initialize request (without a usable _meta, or
	// with one naming an initialize-era version) opens a legacy session in
	// the transport's scope; with no scope (Handle, the in-memory Caller) a
	// session that lives for that request answers it.
	eraOpenSession
)

// chooseEra picks the era of a request from its one parse; hasSession says
// whether the transport scope (stdio connection, HTTP Mcp-Session-Id) has a
// legacy session. A request with a usable modern _meta is always served by
// its _meta's version, with or without a session.
func (s *Server) chooseEra(pr *parsedRequest, hasSession bool) eraChoice {
	switch {
	case pr.metaUsable():
		if !s.supports(pr.meta.protocolVersion) && slices.Contains(legacyVersions, pr.meta.protocolVersion) {
			if pr.msg.Method == legacy.MethodInitialize && !hasSession {
				return eraOpenSession // negotiated like any initialize, not "already initialized"
			}
			return eraLegacyRequest
		}
		return eraModern
	case hasSession:
		return eraSession
	case pr.msg.Method == legacy.MethodInitialize:
		return eraOpenSession
	}
	return eraModern
}

// eraFor returns the era that serves the request pr in a transport scope:
// sess is the scope's legacy session (nil when none) and open opens and
// keeps one for the scope (stdio: the connection). With open nil (Handle,
// the in-memory Caller: no scope outlives the call) an initialize is
// answered by a session that lives for that request only; when open
// returns nil the transport has ruled the client modern and the core
// answers (HTTP: an initialize sent with a modern MCP-Protocol-Version).
// Opening happens here, synchronously, so a transport that calls eraFor
// in message order sees the session from the next message on.
func (s *Server) eraFor(pr *parsedRequest, sess *legacySession, open func() *legacySession) era {
	switch s.chooseEra(pr, sess != nil) {
	case eraLegacyRequest:
		return newOneRequest(s.requestSession(pr.meta))
	case eraSession:
		return sess
	case eraOpenSession:
		if open == nil {
			return newOneRequest(s.newLegacySession(nil))
		}
		if l := open(); l != nil {
			return l
		}
	}
	return s
}

// noSession is the open function of a transport scope that opens no
// legacy session for this message.
func noSession() *legacySession { return nil }

// serveStateless answers a request that no session of the transport's
// scope serves (httpCore): HTTP has already served the session traffic and
// opened sessions for initialize, so nothing is opened here.
func (s *Server) serveStateless(ctx context.Context, pr *parsedRequest, w MessageWriter) Response {
	return s.eraFor(pr, nil, noSession).handleRequest(ctx, pr, w)
}

// oneRequest is a legacy session that serves one request and ends.
type oneRequest struct{ *legacySession }

func newOneRequest(l *legacySession) oneRequest {
	l.oneShot = true
	return oneRequest{l}
}

func (o oneRequest) handleRequest(ctx context.Context, pr *parsedRequest, w MessageWriter) Response {
	defer o.Close()
	return o.legacySession.handleRequest(ctx, pr, w)
}

// requestSession returns a legacy session for one request whose _meta names
// an initialize-era version: initialized from that _meta (version, client
// capabilities and info, log level) as if the client had sent initialize.
func (s *Server) requestSession(meta requestMeta) *legacySession {
	l := s.newLegacySession(nil)
	l.initialized, l.version = true, meta.protocolVersion
	l.caps, l.clientInfo, l.level = meta.caps, meta.clientInfo, meta.logLevel
	l.readyOnce.Do(func() { close(l.ready) })
	return l
}

// handleRequest serves one request of the session (era).
func (l *legacySession) handleRequest(ctx context.Context, pr *parsedRequest, w MessageWriter) Response {
	return l.Handle(ctx, pr.msg, w)
}

// errorFor returns the error response for a message that failed to decode:
// notifications and responses get none.
func errorFor(msg jsonrpc.Message, derr *jsonrpc.Error) Response {
	if msg.Kind == jsonrpc.KindNotification || msg.Kind == jsonrpc.KindResponse || msg.Kind == jsonrpc.KindErrorResponse {
		return Response{}
	}
	return errorResponse(msg.ID, derr)
}
