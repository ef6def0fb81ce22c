package server

import (
	"encoding/json"

	"github.com/mcpgen/mcpgen/generated/mcp"
	"github.com/mcpgen/mcpgen/internal/jsonscan"
	"github.com/mcpgen/mcpgen/jsonrpc"
)

// The legacy conversions of the common messages, read from one parse (a
// jsonscan tape: exact names, no name repeated at any depth) and written
// by appending the members kept, in their order. They give what
// modernParams' and convertResult's general paths give (maps of members
// written again in name order, appendMembers): the same members with
// the same values, as FuzzLegacyFastPaths checks. A message the tape
// refuses (a repeated name anywhere, a nesting past legacyFastDepth) or a
// conversion they do not cover takes the general path, which also words
// the errors.

// legacyFastDepth bounds the nesting the fast paths parse; deeper
// messages take the general path.
const legacyFastDepth = jsonscan.MaxArgumentsDepth + 2

// modernParamsFast is modernParams for params that are absent, null or an
// object whose _meta is absent, null or an object; ok is false otherwise.
func (l *legacySession) modernParamsFast(params json.RawMessage, responses mcp.InputResponses, state string) (out json.RawMessage, ok bool) {
	var t jsonscan.Tape
	hasParams := !jsonscan.IsNullOrAbsent(params)
	meta := -1
	if hasParams {
		var perr *jsonscan.SyntaxError
		if t, perr = jsonscan.ParseKept(params, legacyFastDepth); perr != nil || t.Kind(0) != jsonscan.KindObject {
			return nil, false
		}
		if v, found := t.Member(0, "_meta"); found && t.Kind(v) != jsonscan.KindNull {
			if t.Kind(v) != jsonscan.KindObject {
				return nil, false
			}
			meta = v
		}
	}
	l.mu.Lock()
	caps, info := l.caps, l.clientInfo
	l.mu.Unlock()

	out = make([]byte, 0, len(params)+len(caps)+len(info)+160)
	out = append(out, '{')
	if hasParams {
		for m := t.FirstMember(0); m >= 0; m = t.NextMember(0, m) {
			if t.TextEqual(m, "_meta") || t.TextEqual(m, "inputResponses") || t.TextEqual(m, "requestState") {
				continue
			}
			out = appendMember(out, t.Raw(m), t.Raw(m+1))
		}
	}
	out = appendComma(out)
	out = append(out, `"_meta":{`...)
	if meta >= 0 {
		for m := t.FirstMember(meta); m >= 0; m = t.NextMember(meta, m) {
			if t.TextEqual(m, keyProtocolVersion) || t.TextEqual(m, keyClientCapabilities) ||
				t.TextEqual(m, keyClientInfo) || t.TextEqual(m, keyLogLevel) {
				continue
			}
			out = appendMember(out, t.Raw(m), t.Raw(m+1))
		}
	}
	out = appendComma(out)
	out = append(out, `"`+keyProtocolVersion+`":"`+mcp.ProtocolVersion+`","`+keyClientCapabilities+`":`...)
	if len(caps) == 0 {
		caps = json.RawMessage("null") // as encoding/json writes a nil RawMessage
	}
	out = append(out, caps...)
	if info != nil {
		out = append(out, `,"`+keyClientInfo+`":`...)
		out = append(out, info...)
	}
	out = append(out, '}')
	if len(responses) > 0 {
		enc, err := marshalRaw(responses)
		if err != nil {
			return nil, false
		}
		out = append(out, `,"inputResponses":`...)
		out = append(out, enc...)
	}
	if state != "" {
		out = append(out, `,"requestState":`...)
		out = jsonrpc.AppendString(out, state)
	}
	return append(out, '}'), true
}

// convertResultFast is convertResult for every result but prompts/get's
// (it rewrites nested objects): the top-level members resultType, ttlMs
// and cacheScope dropped, _meta without serverInfo (dropped when nothing
// else is left), a tools/call's content blocks and structuredContent
// converted for version, and a tools/list's definitions
// (legacyToolDef). ok is false when the general path must convert it.
func (l *legacySession) convertResultFast(method string, b []byte) (out []byte, ok bool) {
	version := l.ProtocolVersion()
	if method == mcp.MethodPromptsGet {
		return nil, false
	}
	t, perr := jsonscan.ParseKept(b, legacyFastDepth)
	if perr != nil || t.Kind(0) != jsonscan.KindObject {
		return nil, false
	}
	call, list := method == mcp.MethodToolsCall, method == mcp.MethodToolsList
	out = make([]byte, 0, len(b))
	out = append(out, '{')
	for m := t.FirstMember(0); m >= 0; m = t.NextMember(0, m) {
		v := m + 1
		switch {
		case t.TextEqual(m, "resultType"), t.TextEqual(m, "ttlMs"), t.TextEqual(m, "cacheScope"):
		case t.TextEqual(m, "_meta") && t.Kind(v) == jsonscan.KindObject:
			out = appendMetaWithout(out, &t, m, keyServerInfo)
		case call && t.TextEqual(m, "structuredContent"):
			if version >= "2025-06-18" && t.Kind(v) == jsonscan.KindObject {
				out = appendMember(out, t.Raw(m), t.Raw(v))
			}
		case call && t.TextEqual(m, "content") && t.Kind(v) == jsonscan.KindArray:
			out = appendComma(out)
			out = append(out, t.Raw(m)...)
			out = append(out, ':', '[')
			for i, e := 0, t.FirstElement(v); e >= 0; i, e = i+1, t.NextElement(v, e) {
				if i > 0 {
					out = append(out, ',')
				}
				raw := t.Raw(e)
				if blockConverts(&t, e, version) {
					raw = convertBlock(raw, version)
				}
				out = append(out, raw...)
			}
			out = append(out, ']')
		case list && t.TextEqual(m, "tools") && t.Kind(v) == jsonscan.KindArray:
			out = appendComma(out)
			out = append(out, t.Raw(m)...)
			out = append(out, ':', '[')
			for i, e := 0, t.FirstElement(v); e >= 0; i, e = i+1, t.NextElement(v, e) {
				if i > 0 {
					out = append(out, ',')
				}
				out = append(out, legacyToolDef(t.Raw(e), version)...)
			}
			out = append(out, ']')
		default:
			out = appendMember(out, t.Raw(m), t.Raw(v))
		}
	}
	return append(out, '}'), true
}

// blockConverts reports whether content block node e is one convertBlock
// rewrites for version: a resource_link before 2025-06-18, an audio block
// before 2025-03-26.
func blockConverts(t *jsonscan.Tape, e int, version string) bool {
	if t.Kind(e) != jsonscan.KindObject {
		return false
	}
	typ, found := t.Member(e, "type")
	if !found || t.Kind(typ) != jsonscan.KindString {
		return false
	}
	return version < "2025-06-18" && t.TextEqual(typ, "resource_link") ||
		version < "2025-03-26" && t.TextEqual(typ, "audio")
}

// appendMetaWithout appends member m of t (a _meta object) without its
// member named drop; nothing when no other member is left.
func appendMetaWithout(out []byte, t *jsonscan.Tape, m int, drop string) []byte {
	obj, start := m+1, len(out)
	out = appendComma(out)
	out = append(out, t.Raw(m)...)
	out = append(out, ':', '{')
	open := len(out)
	for n := t.FirstMember(obj); n >= 0; n = t.NextMember(obj, n) {
		if !t.TextEqual(n, drop) {
			out = appendMember(out, t.Raw(n), t.Raw(n+1))
		}
	}
	if len(out) == open {
		return out[:start]
	}
	return append(out, '}')
}

// appendMember appends "name":value to an object being written.
func appendMember(out, name, value []byte) []byte {
	out = appendComma(out)
	out = append(out, name...)
	out = append(out, ':')
	return append(out, value...)
}

// appendComma appends the comma before a member, unless the object has
// none yet.
func appendComma(out []byte) []byte {
	if c := out[len(out)-1]; c != '{' {
		out = append(out, ',')
	}
	return out
}
