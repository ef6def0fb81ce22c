package server

import "github.com/mcpgen/mcpgen/jsonrpc"

// parsedRequest is the one reading of a request message that everything
// downstream acts on: the era choice (is the modern _meta usable?), the
// Streamable HTTP header rules (Mcp-Method, Mcp-Name, MCP-Protocol-Version,
// Mcp-Param-*) and the core's dispatch all read these fields, scanned once
// with exact, case-sensitive member names and duplicates rejected
// (internal/jsonscan). No second parser looks at the same bytes, so a body
// cannot show the header checks one request and the handler another.
type parsedRequest struct {
	msg    jsonrpc.Message
	params requestParams
	meta   requestMeta
	// err is the -32602 that params or params._meta deserve (missing,
	// malformed, duplicate members); nil when the modern _meta is usable.
	err *jsonrpc.Error
	// frame is the buffer of the result serveParsed returned when that
	// result was encoded with room for the response's head in front
	// (resultFrame); nil otherwise.
	frame *resultFrame
}

// parseRequest reads the params and _meta of the request msg once: from
// the parse jsonrpc.Decode made of the message when it carries one, else
// by one scan of the bytes (a Message built by hand, or one that parse
// refused).
func parseRequest(msg jsonrpc.Message) parsedRequest {
	var pr parsedRequest
	pr.parse(msg)
	return pr
}

// parse is parseRequest into pr, a zero parsedRequest: the params and
// _meta read from the message's parse are written in place, not copied
// out of their own results (several hundred bytes each).
func (pr *parsedRequest) parse(msg jsonrpc.Message) {
	pr.msg = msg
	if t, params, ok := msg.ParamsTape(); ok {
		if pr.err = scanParamsTape(&t, params, &pr.params); pr.err == nil {
			pr.err = parseMetaTape(&t, int(pr.params.metaNode), &pr.meta)
		}
		return
	}
	pr.params, pr.err = scanParams(msg.Params)
	if pr.err == nil {
		pr.meta, pr.err = parseMeta(pr.params.meta)
	}
}

// metaUsable reports whether the request carries a well-formed modern
// _meta: such a request is served statelessly by the core in every
// transport, and on HTTP its headers are checked against it.
func (pr *parsedRequest) metaUsable() bool { return pr.err == nil }

// nameParam returns the params member that Mcp-Name mirrors for the
// request's method ("name", "uri" or "taskId"; see httpwire.NameField) and
// whether it is a string.
func (pr *parsedRequest) nameParam(field string) (string, bool) {
	switch field {
	case "name":
		return pr.params.name, pr.params.hasName
	case "uri":
		return pr.params.uri, pr.params.hasURI
	case "taskId":
		return pr.params.taskID, pr.params.hasTaskID
	}
	return "", false
}
