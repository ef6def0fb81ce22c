package server

import (
	"encoding/json"

	"github.com/mcpgen/mcpgen/generated/mcp"
	"github.com/mcpgen/mcpgen/jsonrpc"
)

// Reserved _meta keys (basic/index.mdx, "_meta").
const (
	keyProtocolVersion    = "io.modelcontextprotocol/protocolVersion"
	keyClientCapabilities = "io.modelcontextprotocol/clientCapabilities"
	keyClientInfo         = "io.modelcontextprotocol/clientInfo"
	keyLogLevel           = "io.modelcontextprotocol/logLevel"
	keyProgressToken      = "progressToken"
	keySubscriptionID     = "io.modelcontextprotocol/subscriptionId"
	keyServerInfo         = "io.modelcontextprotocol/serverInfo"
)

// requestParams are the members of a request's params the runtime reads
// itself, found by one scan without decoding the rest.
type requestParams struct {
	meta           []byte // raw _meta object
	name           string // params.name (tools/call, prompts/get)
	hasName        bool
	nameRaw        []byte
	uri            string // params.uri (resources/read)
	hasURI         bool
	arguments      []byte // raw params.arguments
	requestState   string
	hasState       bool
	stateRaw       []byte
	inputResponses []byte // raw params.inputResponses
	cursor         []byte // raw params.cursor
}

// nameParam returns params.name (tools/call, prompts/get); -32602 when it
// is missing or not a string.
func (p *requestParams) nameParam() (string, error) {
	if p.hasName {
		return p.name, nil
	}
	if p.nameRaw == nil {
		return "", invalidParams("params.name: missing required member")
	}
	return "", invalidParams("params.name: must be a string")
}

// requestMeta is the per-request metadata of a modern request.
type requestMeta struct {
	protocolVersion string
	caps            []byte // raw clientCapabilities object
	clientInfo      []byte
	logLevel        mcp.LoggingLevel
	progressToken   []byte // raw string or integer, nil when absent
}

// scanParams reads the runtime-relevant members of params. Params must be an
// object: every modern request carries at least _meta.
func scanParams(params []byte) (requestParams, *jsonrpc.Error) {
	var p requestParams
	if isNullOrAbsent(params) {
		return p, metaError("missing params._meta: every request must carry _meta with " + keyProtocolVersion + " and " + keyClientCapabilities)
	}
	ok := jsonrpc.EachMember(params, func(key, value []byte) {
		switch {
		case jsonrpc.KeyEquals(key, "_meta"):
			p.meta = value
		case jsonrpc.KeyEquals(key, "name"):
			p.nameRaw = value
			p.name, p.hasName = jsonrpc.StringValue(value)
		case jsonrpc.KeyEquals(key, "uri"):
			p.uri, p.hasURI = jsonrpc.StringValue(value)
		case jsonrpc.KeyEquals(key, "arguments"):
			p.arguments = value
		case jsonrpc.KeyEquals(key, "requestState"):
			p.stateRaw = value
			p.requestState, p.hasState = jsonrpc.StringValue(value)
		case jsonrpc.KeyEquals(key, "inputResponses"):
			p.inputResponses = value
		case jsonrpc.KeyEquals(key, "cursor"):
			p.cursor = value
		}
	})
	if !ok {
		return p, invalidParams("params must be an object")
	}
	return p, nil
}

// parseMeta checks the required _meta members (basic/index.mdx: a request
// missing any required field is malformed → -32602) and reads the optional
// ones the runtime acts on.
func parseMeta(raw []byte) (requestMeta, *jsonrpc.Error) {
	var m requestMeta
	if jsonKind(raw) != '{' {
		return m, metaError("missing or invalid params._meta: every request must carry _meta with " + keyProtocolVersion + " and " + keyClientCapabilities)
	}
	var bad *jsonrpc.Error
	var hasVersion bool
	jsonrpc.EachMember(raw, func(key, value []byte) {
		if bad != nil {
			return
		}
		switch {
		case jsonrpc.KeyEquals(key, keyProtocolVersion):
			m.protocolVersion, hasVersion = jsonrpc.StringValue(value)
			if !hasVersion || m.protocolVersion == "" {
				bad = metaError(`missing or invalid _meta field "` + keyProtocolVersion + `": must be a non-empty string`)
			}
		case jsonrpc.KeyEquals(key, keyClientCapabilities):
			if jsonKind(value) != '{' {
				bad = metaError(`invalid _meta field "` + keyClientCapabilities + `": must be an object`)
			}
			m.caps = value
		case jsonrpc.KeyEquals(key, keyClientInfo):
			if jsonKind(value) != '{' {
				bad = metaError(`invalid _meta field "` + keyClientInfo + `": must be an object`)
			}
			m.clientInfo = value
		case jsonrpc.KeyEquals(key, keyLogLevel):
			s, ok := jsonrpc.StringValue(value)
			if !ok || !mcp.LoggingLevel(s).Valid() {
				bad = metaError(`invalid _meta field "` + keyLogLevel + `": must be one of debug, info, notice, warning, error, critical, alert, emergency`)
			}
			m.logLevel = mcp.LoggingLevel(s)
		case jsonrpc.KeyEquals(key, keyProgressToken):
			if k := jsonKind(value); k != '"' && !jsonrpc.IsInteger(value) {
				bad = metaError(`invalid _meta field "progressToken": must be a string or an integer`)
			}
			m.progressToken = value
		}
	})
	if bad != nil {
		return m, bad
	}
	if !hasVersion {
		return m, metaError(`missing or invalid _meta field "` + keyProtocolVersion + `"`)
	}
	if m.caps == nil {
		return m, metaError(`missing or invalid _meta field "` + keyClientCapabilities + `"`)
	}
	return m, nil
}

// CheckRequestMeta reports the -32602 error a request's params deserve when
// their _meta lacks io.modelcontextprotocol/protocolVersion or
// io.modelcontextprotocol/clientCapabilities or has a malformed reserved key;
// nil when they are well formed. Handle runs the same check; transports that
// must report it before their own checks (the HTTP header comparison) call it
// first. It does not check whether the version is supported.
func CheckRequestMeta(params json.RawMessage) *jsonrpc.Error {
	p, err := scanParams(params)
	if err != nil {
		return err
	}
	_, err = parseMeta(p.meta)
	return err
}
