// Package jsonrpc implements the JSON-RPC 2.0 wire rules used by the MCP
// server runtime over stdio and HTTP: decoding and classifying one message,
// encoding responses, requests and notifications without reflection, and
// newline-delimited framing for stdio. It knows nothing about MCP methods.
//
// # Decoding
//
// Decode accepts exactly one JSON object per call and classifies it as a
// request, notification, response or error response. The rules, checked
// in this order, are:
//
//   - Input that is not valid JSON, or not valid UTF-8 (RFC 8259 requires
//     UTF-8), is a Parse error (-32700). Nesting is not limited here
//     (encoding/json refuses past 10 000 levels): a message nested deeper
//     is still read, its id with it, and what is too deep is its reader's
//     verdict (a tool's arguments: the validation error).
//   - Valid JSON that is not an object is an Invalid Request (-32600).
//     Batches (arrays) are rejected this way: MCP does not support them.
//   - A member name that appears twice in the message object, known or
//     not, is an Invalid Request (-32600). encoding/json would silently
//     keep the last one; rejecting means no two readers of one message can
//     disagree about it. Unknown members are otherwise ignored. Decode does
//     not judge what is inside "params": its reader must apply the same
//     rule there and answer a repeated member of params, or of
//     params._meta, with Invalid params (-32602), as the server runtime
//     does, reading params from the one parse Decode made of the message.
//   - Member names are matched exactly and case-sensitively ("Method" and
//     "METHOD" are unknown members, not "method"), after unescaping
//     ("\u006dethod" is "method").
//   - "jsonrpc" must be present and be the string "2.0", otherwise Invalid
//     Request.
//   - "id", when present, must be a string or an integer in the int64
//     range. Numbers with a fraction or exponent (1.5, 1e2, 1.0), booleans,
//     objects and arrays are an Invalid Request. MCP forbids null ids: "id":
//     null is an Invalid Request on requests and result responses. The only
//     exception is an error response, where null is accepted and treated as
//     an absent id, because base JSON-RPC peers send null when they could
//     not read the request id.
//   - A message with "method" (which must be a string) is a request if it
//     has an id and a notification if it has none. It must not also carry
//     "result" or "error". "params", if present and not null, must be an
//     object or an array, otherwise Invalid params (-32602); null params are
//     treated as absent. (MCP further requires an object; that check belongs
//     to the caller that unmarshals params.)
//   - A message with a string "method" (once) and no "id" member is a
//     notification, decided before every rule above: when it breaks any of
//     them (a repeated member, a missing or wrong "jsonrpc", bad params,
//     "result" or "error" beside "method") it still has Kind
//     KindNotification (and its Method) beside the error: a notification
//     gets no response, malformed or not.
//   - A message without "method" is a response: it must have exactly one
//     of "result" and "error". A result response needs a string or integer
//     id; result may be any JSON value. An error response's "error" must be
//     an object with an integer "code" and a string "message" and an
//     optional "data" of any type.
//   - Anything else is an Invalid Request.
//
// When Decode fails but the id was readable, the id is returned in
// Message.ID so the caller can answer with it. When it was not, the caller
// answers without an id: the MCP 2026-07-28 schema makes "id" optional on
// JSONRPCErrorResponse and RequestId does not admit null, so this package
// omits the member rather than sending "id": null (AppendError with the zero
// ID does this).
//
// Decode does not copy: Params, Result and Error.Data alias the input.
//
// # IDs
//
// ID keeps the canonical JSON text of an id and is comparable, so it can key
// the map of in-flight requests. Echoing it writes the same JSON value back.
//
// # Encoding
//
// AppendRequest, AppendNotification, AppendResult and AppendError write
// compact single-line JSON with the members in the order jsonrpc, id,
// method/result/error, params. Strings are escaped by this package; raw
// values are copied verbatim (compacted only if they contain line breaks),
// except error data that is not JSON in UTF-8, which is left out
// (Error.ValidData).
//
// # Framing
//
// LineReader splits stdio input into newline-delimited messages with a size
// limit; see its documentation.
//
// # Scanning
//
// All JSON scanning is internal/jsonscan's, the runtime's one scanner.
// Decode parses a message once into its tape (a response's result only
// checked): the envelope is read from it, and a request's Message carries
// it, so the server reads params, _meta and a tool's arguments from that
// same parse and sees every message as Decode does. A message that parse
// refuses (a member name repeated at any depth, nesting deeper than a
// tool's arguments may) is judged by scans of its bytes instead, with the
// same rules and answers; FuzzDecodeTape checks the two agree.
package jsonrpc
