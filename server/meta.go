package server

import (
	"strconv"

	"github.com/mcpgen/mcpgen/generated/mcp"
	"github.com/mcpgen/mcpgen/internal/jsonscan"
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
	uri            string // params.uri (resources/read)
	taskID         string // params.taskId (tasks/*)
	arguments      []byte // raw params.arguments
	requestState   string
	inputResponses []byte // raw params.inputResponses
	cursor         []byte // raw params.cursor

	// argsTape is arguments' subtree of the message's one parse the
	// members were read from (no nodes: absent, or params scanned from
	// bytes), which their validation, decoding and identity read instead
	// of parsing arguments again. Large arguments are only checked on that
	// parse (one opaque node, see request.argsTape), which found their
	// large arrays (jsonscan.Tape.Spans: argSpans).
	argsTape jsonscan.Tape
	// owner is the length of the message's own buffer, when the transport
	// decoded it with jsonrpc.DecodeOwned (0: not), which a large string
	// argument may be a view of (argcheck.TypeDecoder.DecodeOwnedInto).
	owner int
	// metaNode is the node of _meta on that parse (0: absent, or scanned
	// from bytes).
	metaNode int32

	hasName, hasURI, hasTaskID, hasState bool
	nameGiven                            bool // name present (hasName: a string)
	stateGiven                           bool // requestState present and not null
}

// nameParam returns params.name (tools/call, prompts/get); -32602 when it
// is missing or not a string.
func (p *requestParams) nameParam() (string, error) {
	if p.hasName {
		return p.name, nil
	}
	if !p.nameGiven {
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
	progressToken   []byte // raw string or integer (1e2 too), echoed as written; nil when absent
}

// scanParams reads the runtime-relevant members of params. Params must be an
// object: every modern request carries at least _meta. Member names are
// exact (jsonscan.Members): "NAME", "_META" or "Arguments" are other
// members, ignored here as by every other reader of the message; a name
// that appears twice is -32602.
func scanParams(params []byte) (requestParams, *jsonrpc.Error) {
	var p requestParams
	if jsonscan.IsNullOrAbsent(params) {
		return p, metaError("missing params._meta: every request must carry _meta with " + keyProtocolVersion + " and " + keyClientCapabilities)
	}
	dup, repeated, ok := jsonscan.Members(params, func(key, value []byte) {
		switch string(key) {
		case "_meta":
			p.meta = value
		case "name":
			p.nameGiven = true
			p.name, p.hasName = jsonscan.String(value)
		case "uri":
			p.uri, p.hasURI = jsonscan.String(value)
		case "taskId":
			p.taskID, p.hasTaskID = jsonscan.String(value)
		case "arguments":
			p.arguments = value
		case "requestState":
			p.stateGiven = !jsonscan.IsNullOrAbsent(value)
			p.requestState, p.hasState = jsonscan.String(value)
		case "inputResponses":
			p.inputResponses = value
		case "cursor":
			p.cursor = value
		}
	})
	if !ok {
		return p, invalidParams("params must be an object")
	}
	if repeated {
		return p, invalidParams("params: duplicate member " + strconv.Quote(dup))
	}
	return p, nil
}

// parseMeta checks the required _meta members (basic/index.mdx: a request
// missing any required field is malformed → -32602) and reads the optional
// ones the runtime acts on.
func parseMeta(raw []byte) (requestMeta, *jsonrpc.Error) {
	var m requestMeta
	if jsonscan.Kind(raw) != '{' {
		return m, metaError("missing or invalid params._meta: every request must carry _meta with " + keyProtocolVersion + " and " + keyClientCapabilities)
	}
	var bad *jsonrpc.Error
	var hasVersion bool
	dup, repeated, _ := jsonscan.Members(raw, func(key, value []byte) {
		if bad != nil {
			return
		}
		switch string(key) {
		case keyProtocolVersion:
			m.protocolVersion, hasVersion = jsonscan.String(value)
			if !hasVersion || m.protocolVersion == "" {
				bad = metaError(`missing or invalid _meta field "` + keyProtocolVersion + `": must be a non-empty string`)
			}
		case keyClientCapabilities:
			if jsonscan.Kind(value) != '{' {
				bad = metaError(`invalid _meta field "` + keyClientCapabilities + `": must be an object`)
			}
			m.caps = value
		case keyClientInfo:
			if jsonscan.Kind(value) != '{' {
				bad = metaError(`invalid _meta field "` + keyClientInfo + `": must be an object`)
			}
			m.clientInfo = value
		case keyLogLevel:
			s, ok := jsonscan.String(value)
			if !ok || !mcp.LoggingLevel(s).Valid() {
				bad = metaError(`invalid _meta field "` + keyLogLevel + `": must be one of debug, info, notice, warning, error, critical, alert, emergency`)
			}
			m.logLevel = mcp.LoggingLevel(s)
		case keyProgressToken:
			if k := jsonscan.Kind(value); k != '"' && !integerProgressToken(value) {
				bad = metaError(progressTokenError)
			}
			m.progressToken = value
		}
	})
	if repeated {
		return m, metaError("params._meta: duplicate member " + strconv.Quote(dup))
	}
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

// progressTokenError refuses a progressToken that is neither a string nor an
// integer the generated mcp.ProgressToken holds.
const progressTokenError = `invalid _meta field "progressToken": must be a string or an integer of at most 64 bits`

// integerProgressToken reports whether raw, a number, is a progressToken
// integer: one with a zero fraction (1e2 and 100.0 too, as JSON Schema
// counts integers) that fits the int64 the generated mcp.ProgressToken
// decodes it to. Every method's params decode _meta with that type, so the
// core's check and theirs give one verdict for one token.
func integerProgressToken(raw []byte) bool {
	if !jsonscan.IsIntegral(raw) {
		return false
	}
	var tok mcp.ProgressToken
	if tok.UnmarshalJSON(raw) != nil {
		return false
	}
	_, isInt := tok.Value.(int64)
	return isInt
}
