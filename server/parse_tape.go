package server

import (
	"github.com/mcpgen/mcpgen/generated/mcp"
	"github.com/mcpgen/mcpgen/internal/jsonscan"
	"github.com/mcpgen/mcpgen/jsonrpc"
)

// scanParamsTape is scanParams on node obj of t, the params of a message
// jsonrpc.Decode parsed once, written into *p: the same members by their
// exact unescaped names, read from that parse (the tape refused any
// repeated name). The raw values alias the message, as scanParams' do.
func scanParamsTape(t *jsonscan.Tape, obj int, p *requestParams) *jsonrpc.Error {
	*p = requestParams{owner: t.Owner()}
	if t.Kind(obj) != jsonscan.KindObject {
		return invalidParams("params must be an object")
	}
	for m := t.FirstMember(obj); m >= 0; m = t.NextMember(obj, m) {
		v := m + 1
		name, plain := t.PlainKey(m) // Key, inlined
		if !plain {
			name = t.Text(m)
		}
		switch name { // one switch on the name (not kept: it may be a view of the message)
		case "_meta":
			p.meta, p.metaNode = t.Raw(v), int32(v)
		case "name":
			p.nameGiven = true
			if t.Kind(v) == jsonscan.KindString && !t.Escaped(v) {
				p.name, p.hasName = internName(t.Contents(v)), true
			} else {
				p.name, p.hasName = tapeString(t, v)
			}
		case "uri":
			p.uri, p.hasURI = tapeString(t, v)
		case "taskId":
			p.taskID, p.hasTaskID = tapeString(t, v)
		case "arguments":
			p.arguments = t.Raw(v)
			p.argsTape = t.Sub(v) // large arguments: one opaque node (only checked: their checker parses them)
		case "requestState":
			p.stateGiven = t.Kind(v) != jsonscan.KindNull
			p.requestState, p.hasState = tapeString(t, v)
		case "inputResponses":
			p.inputResponses = t.Raw(v)
		case "cursor":
			p.cursor = t.Raw(v)
		}
	}
	return nil
}

// tapeString is jsonscan.String on node i: its text and whether it is a
// string.
func tapeString(t *jsonscan.Tape, i int) (string, bool) {
	if t.Kind(i) != jsonscan.KindString {
		return "", false
	}
	return t.Text(i), true
}

// parseMetaTape is parseMeta on node obj of t (0: absent), read from the
// message's one parse, written into *m.
func parseMetaTape(t *jsonscan.Tape, obj int, m *requestMeta) *jsonrpc.Error {
	*m = requestMeta{}
	if obj == 0 || t.Kind(obj) != jsonscan.KindObject {
		return metaError("missing or invalid params._meta: every request must carry _meta with " + keyProtocolVersion + " and " + keyClientCapabilities)
	}
	var hasVersion bool
	for k := t.FirstMember(obj); k >= 0; k = t.NextMember(obj, k) {
		v := k + 1
		kind := t.Kind(v)
		name, plain := t.PlainKey(k) // as in scanParamsTape
		if !plain {
			name = t.Text(k)
		}
		switch metaFieldOf(name) {
		case metaProtocolVersion:
			m.protocolVersion, hasVersion = "", kind == jsonscan.KindString
			if hasVersion {
				m.protocolVersion = protocolVersionText(t, v)
			}
			// As parseMeta: each field is kept as read, a bad one too,
			// and the first bad one ends the reading.
			if !hasVersion || m.protocolVersion == "" {
				return metaError(`missing or invalid _meta field "` + keyProtocolVersion + `": must be a non-empty string`)
			}
		case metaClientCapabilities:
			m.caps = t.Raw(v)
			if kind != jsonscan.KindObject {
				return metaError(`invalid _meta field "` + keyClientCapabilities + `": must be an object`)
			}
		case metaClientInfo:
			m.clientInfo = t.Raw(v)
			if kind != jsonscan.KindObject {
				return metaError(`invalid _meta field "` + keyClientInfo + `": must be an object`)
			}
		case metaLogLevel:
			s, ok := tapeString(t, v)
			m.logLevel = mcp.LoggingLevel(s)
			if !ok || !m.logLevel.Valid() {
				return metaError(`invalid _meta field "` + keyLogLevel + `": must be one of debug, info, notice, warning, error, critical, alert, emergency`)
			}
		case metaProgressToken:
			m.progressToken = t.Raw(v)
			if kind != jsonscan.KindString && !(kind == jsonscan.KindNumber && integerProgressToken(m.progressToken)) {
				return metaError(progressTokenError)
			}
		}
	}
	if !hasVersion {
		return metaError(`missing or invalid _meta field "` + keyProtocolVersion + `"`)
	}
	if m.caps == nil {
		return metaError(`missing or invalid _meta field "` + keyClientCapabilities + `"`)
	}
	return nil
}

// protocolVersionText is string node i's text: a supported protocol
// version without allocating.
func protocolVersionText(t *jsonscan.Tape, i int) string {
	if !t.Escaped(i) {
		c := t.Contents(i)
		if string(c) == mcp.ProtocolVersion {
			return mcp.ProtocolVersion
		}
		for _, v := range legacyVersions {
			if string(c) == v {
				return v
			}
		}
	}
	return t.Text(i)
}
