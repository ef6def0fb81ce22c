package server

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/mcpgen/mcpgen/generated/mcp"
	legacy "github.com/mcpgen/mcpgen/generated/mcp20251125"
	"github.com/mcpgen/mcpgen/internal/jsonscan"
	"github.com/mcpgen/mcpgen/jsonrpc"
)

// Conversions between a legacy session's revision and the modern core.
//
// Requests: the session's client capabilities and clientInfo become the
// modern _meta (protocolVersion 2026-07-28); the client's own _meta members
// (progressToken, …) are kept, a logLevel is dropped (the session's level
// applies), and inputResponses/requestState are only ever set by the
// session itself.
//
// Results: resultType, ttlMs, cacheScope and _meta.io.modelcontextprotocol/
// serverInfo are removed (an emptied _meta with them). Content follows the
// negotiated revision:
//   - before 2025-06-18, a resource_link block becomes a text block naming
//     the link ("<name>: <uri>"), structuredContent is dropped (its JSON is
//     already the text rendering of typed tools) and tool definitions lose
//     outputSchema;
//   - from 2025-06-18, an outputSchema whose root is not "type": "object"
//     (allowed since 2026-07-28; the legacy schemas require that root) is
//     left out of the tool definition, as its structuredContent, when not
//     an object, is left out of the tools/call result;
//   - before 2025-03-26 (2024-11-05), an audio block becomes a text block
//     saying audio of that MIME type was omitted;
//   - a structuredContent that is not a JSON object (allowed since
//     2026-07-28) is dropped for every legacy revision;
//   - boolean subschemas in a tool's inputSchema and outputSchema (allowed
//     since 2026-07-28) are written as objects for every legacy revision,
//     true as {} and false as {"not":{}} (legacy_schema.go).
//
// Errors: a resources/read's "Resource not found" (-32602 since
// 2026-07-28) has the code of the legacy revisions, -32002, and the same
// data.
//
// Input requests (Ask): the embedded modern request becomes a JSON-RPC
// request; a URL-mode elicitation gets the elicitationId 2025-11-25
// requires; elicitation is refused before 2025-06-18, which lacks it;
// sampling content and elicitation schemas follow the revision
// (legacy_ask.go).

// modernParams returns params with the modern _meta the core requires, and
// with the multi round-trip fields the session resolved (nil: none).
func (l *legacySession) modernParams(params json.RawMessage, responses mcp.InputResponses, state string) (json.RawMessage, *jsonrpc.Error) {
	if out, ok := l.modernParamsFast(params, responses, state); ok { // legacy_fast.go
		return out, nil
	}
	return l.modernParamsGeneral(params, responses, state)
}

// modernParamsGeneral is modernParams on maps of members, for any params.
// The members are written back as they came (appendMembers), so params of
// any depth reach the core, which judges them as in a modern session.
func (l *legacySession) modernParamsGeneral(params json.RawMessage, responses mcp.InputResponses, state string) (json.RawMessage, *jsonrpc.Error) {
	obj := map[string]json.RawMessage{}
	if !jsonscan.IsNullOrAbsent(params) {
		var rerr *jsonrpc.Error
		if obj, rerr = exactObject(params, "params"); rerr != nil {
			return nil, rerr
		}
	}
	meta := map[string]json.RawMessage{}
	if raw := obj["_meta"]; !jsonscan.IsNullOrAbsent(raw) {
		var rerr *jsonrpc.Error
		if meta, rerr = exactObject(raw, "params._meta"); rerr != nil {
			return nil, rerr
		}
	}
	l.mu.Lock()
	caps, info := l.caps, l.clientInfo
	l.mu.Unlock()
	meta[keyProtocolVersion] = json.RawMessage(`"` + mcp.ProtocolVersion + `"`)
	meta[keyClientCapabilities] = caps
	if info != nil {
		meta[keyClientInfo] = info
	} else {
		delete(meta, keyClientInfo)
	}
	delete(meta, keyLogLevel)
	delete(obj, "inputResponses")
	delete(obj, "requestState")
	obj["_meta"] = appendMembers(nil, meta)
	var err error
	if len(responses) > 0 {
		if obj["inputResponses"], err = marshalRaw(responses); err != nil {
			return nil, toRPCError(err)
		}
	}
	if state != "" {
		obj["requestState"] = jsonrpc.AppendString(nil, state)
	}
	return appendMembers(nil, obj), nil
}

// marshalRaw encodes v without HTML escaping.
func marshalRaw(v any) (json.RawMessage, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(buf.Bytes(), "\n"), nil
}

// convertResult turns a modern result of method into the session's revision.
func (l *legacySession) convertResult(method string, b []byte) ([]byte, *jsonrpc.Error) {
	if out, ok := l.convertResultFast(method, b); ok { // legacy_fast.go
		return out, nil
	}
	return l.convertResultGeneral(method, b)
}

// convertResultGeneral is convertResult on maps of members, for any result.
func (l *legacySession) convertResultGeneral(method string, b []byte) ([]byte, *jsonrpc.Error) {
	if name, ok := repeatedName(b); ok {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "Internal error: the result repeats the member name " + strconv.Quote(name)}
	}
	obj, rerr := exactObject(b, "result")
	if rerr != nil {
		return b, nil
	}
	delete(obj, "resultType")
	delete(obj, "ttlMs")
	delete(obj, "cacheScope")
	if raw, ok := obj["_meta"]; ok {
		if meta, rerr := exactObject(raw, "result._meta"); rerr == nil {
			delete(meta, keyServerInfo)
			if len(meta) == 0 {
				delete(obj, "_meta")
			} else {
				obj["_meta"] = appendMembers(nil, meta)
			}
		}
	}
	version := l.ProtocolVersion()
	switch method {
	case mcp.MethodToolsCall:
		if raw, ok := obj["content"]; ok {
			obj["content"] = convertBlocks(raw, version)
		}
		if raw, ok := obj["structuredContent"]; ok && (version < "2025-06-18" || jsonscan.Kind(raw) != '{') {
			delete(obj, "structuredContent")
		}
	case mcp.MethodPromptsGet:
		if raw, ok := obj["messages"]; ok {
			if msgs, ok := exactObjects(raw); ok {
				for _, m := range msgs {
					if c, ok := m["content"]; ok {
						m["content"] = convertBlock(c, version)
					}
				}
				obj["messages"] = appendObjects(nil, msgs)
			}
		}
	case mcp.MethodToolsList:
		if raw, ok := obj["tools"]; ok {
			if tools, ok := elements(raw); ok {
				for i, t := range tools {
					tools[i] = legacyToolDef(t, version)
				}
				obj["tools"] = appendArray(nil, tools)
			}
		}
	}
	return appendMembers(nil, obj), nil
}

// convertBlocks converts an array of content blocks.
func convertBlocks(raw json.RawMessage, version string) json.RawMessage {
	blocks, ok := elements(raw)
	if !ok {
		return raw
	}
	for i, b := range blocks {
		blocks[i] = convertBlock(b, version)
	}
	return appendArray(nil, blocks)
}

// convertBlock converts one content block to a kind version defines.
func convertBlock(raw json.RawMessage, version string) json.RawMessage {
	obj, rerr := exactObject(raw, "content")
	if rerr != nil {
		return raw
	}
	member := func(name string) string {
		s, _ := jsonscan.String(obj[name])
		return s
	}
	blk := struct{ Type, URI, Name, MIMEType string }{member("type"), member("uri"), member("name"), member("mimeType")}
	text := ""
	switch {
	case blk.Type == "resource_link" && version < "2025-06-18":
		text = blk.URI
		if blk.Name != "" {
			text = blk.Name + ": " + blk.URI
		}
	case blk.Type == "audio" && version < "2025-03-26":
		text = fmt.Sprintf("[audio content (%s) omitted: protocol %s has no audio content]", blk.MIMEType, version)
	default:
		return raw
	}
	enc, err := marshalRaw(map[string]string{"type": "text", "text": text})
	if err != nil {
		return raw
	}
	return enc
}

// legacyError returns the error a legacy session answers method with for
// the core's error e: a resources/read's ResourceNotFound with code -32002,
// e itself otherwise.
func legacyError(method string, e *jsonrpc.Error) *jsonrpc.Error {
	if method == mcp.MethodResourcesRead && e.Code == jsonrpc.CodeInvalidParams && e.Message == resourceNotFoundMessage {
		return &jsonrpc.Error{Code: codeLegacyResourceNotFound, Message: e.Message, Data: e.Data}
	}
	return e
}

// serverCapabilities are the server's capabilities in the legacy shape:
// listChanged where the registries notify, resources.subscribe whenever
// resources are offered, logging always, completions from 2025-03-26.
func (l *legacySession) serverCapabilities(version string) legacy.ServerCapabilities {
	c := l.s.capabilities()
	yes := true
	var out legacy.ServerCapabilities
	if c.Tools != nil {
		out.Tools = &legacy.ServerCapabilitiesTools{ListChanged: c.Tools.ListChanged}
	}
	if c.Prompts != nil {
		out.Prompts = &legacy.ServerCapabilitiesPrompts{ListChanged: c.Prompts.ListChanged}
	}
	if c.Resources != nil {
		out.Resources = &legacy.ServerCapabilitiesResources{Subscribe: &yes, ListChanged: c.Resources.ListChanged}
	}
	if c.Completions != nil && version >= "2025-03-26" {
		out.Completions = &legacy.ServerCapabilitiesCompletions{}
	}
	out.Logging = &legacy.ServerCapabilitiesLogging{}
	return out
}

// legacyInputRequest turns an embedded modern input request into the
// method and params of a server-to-client JSON-RPC request.
func legacyInputRequest(req mcp.InputRequest, version string) (string, json.RawMessage, error) {
	env, err := inputRequestEnvelope(req)
	if err != nil {
		return "", nil, err
	}
	if env.Method == legacy.MethodElicitationCreate {
		if version < "2025-06-18" {
			return "", nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "Internal error: elicitation is not part of protocol " + version}
		}
		if err := legacyElicitParams(env.Params, version); err != nil { // legacy_ask.go
			return "", nil, err
		}
		if mode, _ := jsonscan.String(env.Params["mode"]); mode == "url" {
			if _, ok := env.Params["elicitationId"]; !ok {
				env.Params["elicitationId"] = jsonrpc.AppendString(nil, newSessionID())
			}
		}
	}
	if env.Method == legacy.MethodSamplingCreateMessage {
		if err := legacySamplingParams(env.Params, version); err != nil { // legacy_ask.go
			return "", nil, err
		}
	}
	return env.Method, appendMembers(nil, env.Params), nil
}
