package server

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"

	"github.com/mcpgen/mcpgen/generated/mcp"
	legacy "github.com/mcpgen/mcpgen/generated/mcp20251125"
	"github.com/mcpgen/mcpgen/internal/jsonscan"
	"github.com/mcpgen/mcpgen/jsonrpc"
)

// The params of the requests server.Ask sends a legacy client, in the
// session's revision. What a revision can carry is converted; what it
// cannot is refused with -32603 naming the part and the revision, which
// the handler's Ask returns (nothing the client cannot read is sent).
//
// sampling/createMessage before 2025-11-25: a message's array of content
// blocks becomes consecutive messages of the same role, one block each
// (those revisions hold one block per message); audio becomes a text block
// saying it was omitted before 2025-03-26, as in tool results
// (convertBlock). Tool use (tools, toolChoice, tool_use and tool_result
// content) is 2025-11-25's and is refused, and so is a message whose
// content is an empty array: those revisions have no message of no
// blocks, and dropping it would ask the client about another conversation.
//
// elicitation/create at 2025-06-18: a titled single-select enum (oneOf of
// const and title) becomes the enum and enumNames that revision titles
// enums with; a multi-select enum (type array) and URL mode, which it
// lacks, are refused.
//
// The request is read as the runtime reads every message (legacy_exact.go):
// by exact member name, with jsonscan, so a member "Type" or "CONST" a
// block or an option carries (kept in Extra, as the generated decoders
// keep what they do not declare) is another member, never the "type" the
// tool-use check reads or the "const" the client is offered.

// askRefused is the error for an input request a revision cannot carry.
func askRefused(method, what, version string) *jsonrpc.Error {
	return &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "Internal error: " + method + ": " + what +
		", which protocol " + version + " (the session's) lacks; nothing was sent to the client"}
}

// legacySamplingParams converts sampling/createMessage params to version.
func legacySamplingParams(params map[string]json.RawMessage, version string) error {
	const method = legacy.MethodSamplingCreateMessage
	if version >= "2025-11-25" {
		return nil
	}
	for _, name := range []string{"tools", "toolChoice"} {
		if raw, ok := params[name]; ok && !jsonscan.IsNullOrAbsent(raw) {
			return askRefused(method, "the request has "+name+" (tool use in sampling, 2025-11-25)", version)
		}
	}
	raw, ok := params["messages"]
	if !ok {
		return nil
	}
	msgs, ok := exactObjects(raw)
	if !ok {
		return nil
	}
	out := make([]map[string]json.RawMessage, 0, len(msgs))
	for i, m := range msgs {
		content := m["content"]
		blocks := []json.RawMessage{content}
		if jsonscan.Kind(content) == '[' {
			if blocks, ok = elements(content); !ok {
				return fmt.Errorf("server.Ask: encoding the input request: messages[%d].content is not a JSON array", i)
			}
			if len(blocks) == 0 {
				return askRefused(method, "messages["+strconv.Itoa(i)+"] has no content block (a message of no blocks, 2025-11-25)", version)
			}
		}
		for _, b := range blocks {
			blk, rerr := exactObject(b, "messages["+strconv.Itoa(i)+"].content")
			if rerr != nil {
				return fmt.Errorf("server.Ask: encoding the input request: %w", rerr)
			}
			if typ, _ := jsonscan.String(blk["type"]); typ == "tool_use" || typ == "tool_result" {
				return askRefused(method, "messages["+strconv.Itoa(i)+"] holds "+typ+" content (tool use in sampling, 2025-11-25)", version)
			}
			one := make(map[string]json.RawMessage, len(m))
			for k, v := range m {
				one[k] = v
			}
			one["content"] = convertBlock(b, version)
			out = append(out, one)
		}
	}
	params["messages"] = appendObjects(nil, out)
	return nil
}

// legacyElicitParams converts elicitation/create params to version
// (2025-06-18 or later; earlier revisions have no elicitation).
func legacyElicitParams(params map[string]json.RawMessage, version string) error {
	const method = legacy.MethodElicitationCreate
	if version >= "2025-11-25" {
		return nil
	}
	if mode, _ := jsonscan.String(params["mode"]); mode == "url" {
		return askRefused(method, "the request is a URL-mode elicitation (2025-11-25)", version)
	}
	schema, rerr := exactObject(params["requestedSchema"], "requestedSchema")
	if rerr != nil {
		return nil
	}
	props, rerr := exactObject(schema["properties"], "requestedSchema.properties")
	if rerr != nil {
		return nil
	}
	changed := false
	for name, raw := range props {
		prop, rerr := exactObject(raw, "property")
		if rerr != nil {
			continue
		}
		if typ, _ := jsonscan.String(prop["type"]); typ == "array" {
			return askRefused(method, "property "+strconv.Quote(name)+" is a multi-select enum (type array, 2025-11-25)", version)
		}
		oneOf, titled := prop["oneOf"]
		if _, hasEnum := prop["enum"]; !titled || hasEnum {
			continue
		}
		values, titles, ok := titledOptions(oneOf)
		if !ok {
			return askRefused(method, "property "+strconv.Quote(name)+" has a oneOf that is not a list of const and title", version)
		}
		delete(prop, "oneOf")
		prop["enum"], prop["enumNames"] = appendArray(nil, values), appendArray(nil, titles)
		props[name] = appendMembers(nil, prop)
		changed = true
	}
	if !changed {
		return nil
	}
	schema["properties"] = appendMembers(nil, props)
	params["requestedSchema"] = appendMembers(nil, schema)
	return nil
}

// titledOptions returns the "const" and "title" strings (raw JSON, as
// written) of each option of a titled enum's oneOf, read by exact member
// name; an option without them is written as the empty string, as before.
// ok is false when oneOf is not an array of objects or a const or title
// is not a string.
func titledOptions(oneOf []byte) (values, titles []json.RawMessage, ok bool) {
	options, ok := exactObjects(oneOf)
	if !ok {
		return nil, nil, false
	}
	str := func(raw json.RawMessage) (json.RawMessage, bool) {
		if jsonscan.IsNullOrAbsent(raw) {
			return json.RawMessage(`""`), true
		}
		_, ok := jsonscan.String(raw)
		return raw, ok
	}
	values, titles = make([]json.RawMessage, len(options)), make([]json.RawMessage, len(options))
	for i, o := range options {
		var okConst, okTitle bool
		values[i], okConst = str(o["const"])
		titles[i], okTitle = str(o["title"])
		if !okConst || !okTitle {
			return nil, nil, false
		}
	}
	return values, titles, true
}

// inputEnvelope is an encoded input request's method and the members of
// its params.
type inputEnvelope struct {
	Method string
	Params map[string]json.RawMessage
}

// inputRequestEnvelope encodes req and reads back its method and params by
// exact member name (a member "Method" or "PARAMS" the request carries in
// Extra is another member, not sent).
func inputRequestEnvelope(req mcp.InputRequest) (inputEnvelope, error) {
	fail := func(err error) (inputEnvelope, error) {
		return inputEnvelope{}, fmt.Errorf("server.Ask: encoding the input request: %w", err)
	}
	b, err := json.Marshal(req)
	if err != nil {
		return fail(err)
	}
	obj, rerr := exactObject(b, "the input request")
	if rerr != nil {
		return fail(rerr)
	}
	env := inputEnvelope{Params: map[string]json.RawMessage{}}
	var ok bool
	if env.Method, ok = jsonscan.String(obj["method"]); !ok {
		return fail(errors.New("the input request has no method"))
	}
	if raw := obj["params"]; !jsonscan.IsNullOrAbsent(raw) {
		if env.Params, rerr = exactObject(raw, "the input request's params"); rerr != nil {
			return fail(rerr)
		}
	}
	return env, nil
}
