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
	ok := eachMember(params, func(key, value []byte) {
		switch {
		case keyIs(key, "_meta"):
			p.meta = value
		case keyIs(key, "name"):
			p.nameRaw = value
			p.name, p.hasName = stringValue(value)
		case keyIs(key, "uri"):
			p.uri, p.hasURI = stringValue(value)
		case keyIs(key, "arguments"):
			p.arguments = value
		case keyIs(key, "requestState"):
			p.stateRaw = value
			p.requestState, p.hasState = stringValue(value)
		case keyIs(key, "inputResponses"):
			p.inputResponses = value
		case keyIs(key, "cursor"):
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
	eachMember(raw, func(key, value []byte) {
		if bad != nil {
			return
		}
		switch {
		case keyIs(key, keyProtocolVersion):
			m.protocolVersion, hasVersion = stringValue(value)
			if !hasVersion || m.protocolVersion == "" {
				bad = metaError(`missing or invalid _meta field "` + keyProtocolVersion + `": must be a non-empty string`)
			}
		case keyIs(key, keyClientCapabilities):
			if jsonKind(value) != '{' {
				bad = metaError(`invalid _meta field "` + keyClientCapabilities + `": must be an object`)
			}
			m.caps = value
		case keyIs(key, keyClientInfo):
			if jsonKind(value) != '{' {
				bad = metaError(`invalid _meta field "` + keyClientInfo + `": must be an object`)
			}
			m.clientInfo = value
		case keyIs(key, keyLogLevel):
			s, ok := stringValue(value)
			if !ok || !mcp.LoggingLevel(s).Valid() {
				bad = metaError(`invalid _meta field "` + keyLogLevel + `": must be one of debug, info, notice, warning, error, critical, alert, emergency`)
			}
			m.logLevel = mcp.LoggingLevel(s)
		case keyIs(key, keyProgressToken):
			if k := jsonKind(value); k != '"' && !isIntegerJSON(value) {
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

// isIntegerJSON reports whether raw is a JSON integer (no fraction or exponent).
func isIntegerJSON(raw []byte) bool {
	if len(raw) == 0 {
		return false
	}
	i := 0
	if raw[0] == '-' {
		i++
	}
	if i >= len(raw) {
		return false
	}
	for ; i < len(raw); i++ {
		if raw[i] < '0' || raw[i] > '9' {
			return false
		}
	}
	return true
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
