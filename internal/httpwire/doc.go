// Package httpwire holds the HTTP-level rules of the MCP 2026-07-28
// Streamable HTTP transport as small, pure building blocks: request-metadata
// header validation (MCP-Protocol-Version, Mcp-Method, Mcp-Name and the
// x-mcp-header mirrored Mcp-Param-{Name} headers), the Base64 sentinel value
// encoding, Origin/Host validation against DNS rebinding, Accept and
// Content-Type checks, the endpoint's allowed HTTP method, request body
// limits and a Server-Sent Events writer.
//
// Nothing here dispatches JSON-RPC. The server runtime calls these functions
// in this order for each request (every step returns a *Rejection or nil):
//
//	OriginPolicy.Check(r)     403 (DNS rebinding, foreign Origin)
//	CheckMethod(r.Method)     405 + Allow: POST (GET/DELETE belong to older revisions)
//	CheckContentType(header)  415
//	CheckAccept(header)       406
//	ReadBody(w, r, limit)     413
//	  … the runtime parses the message once (jsonrpc.Decode, then its params
//	  and _meta scan: -32700/-32600/-32602) and fills BodyFacts from that
//	  one parse …
//	HeaderRules.Check(header, facts)  400 -32020 (or -32022)
//
// This package parses no JSON of its own: BodyFacts come from the server's
// parse, and the Mcp-Param-{Name} values are read from the raw arguments
// with the runtime's scanner (internal/jsonscan), exact names, so the header
// is compared with the value the tool is given.
//
// A Rejection is written with Rejection.Write, passing the request id once it
// is known: error responses must echo the request id (basic/index.mdx) and
// omit it only when it could not be read.
//
// Spec references in comments are to docs/2026-07-28/basic/transports/
// streamable-http.mdx unless stated otherwise.
package httpwire
