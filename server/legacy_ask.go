package server

import (
	"encoding/json"
	"fmt"
	"strconv"

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
			if err := json.Unmarshal(content, &blocks); err != nil {
				return fmt.Errorf("server.Ask: encoding the input request: %w", err)
			}
			if len(blocks) == 0 {
				return askRefused(method, "messages["+strconv.Itoa(i)+"] has no content block (a message of no blocks, 2025-11-25)", version)
			}
		}
		for _, b := range blocks {
			var blk struct {
				Type string `json:"type"`
			}
			_ = json.Unmarshal(b, &blk)
			if blk.Type == "tool_use" || blk.Type == "tool_result" {
				return askRefused(method, "messages["+strconv.Itoa(i)+"] holds "+blk.Type+" content (tool use in sampling, 2025-11-25)", version)
			}
			one := make(map[string]json.RawMessage, len(m))
			for k, v := range m {
				one[k] = v
			}
			one["content"] = convertBlock(b, version)
			out = append(out, one)
		}
	}
	enc, err := marshalRaw(out)
	if err != nil {
		return fmt.Errorf("server.Ask: encoding the input request: %w", err)
	}
	params["messages"] = enc
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
		var options []struct {
			Const string `json:"const"`
			Title string `json:"title"`
		}
		if err := json.Unmarshal(oneOf, &options); err != nil {
			return askRefused(method, "property "+strconv.Quote(name)+" has a oneOf that is not a list of const and title", version)
		}
		values, titles := make([]string, len(options)), make([]string, len(options))
		for i, o := range options {
			values[i], titles[i] = o.Const, o.Title
		}
		delete(prop, "oneOf")
		var err error
		if prop["enum"], err = marshalRaw(values); err != nil {
			return err
		}
		if prop["enumNames"], err = marshalRaw(titles); err != nil {
			return err
		}
		if props[name], err = marshalRaw(prop); err != nil {
			return err
		}
		changed = true
	}
	if !changed {
		return nil
	}
	var err error
	if schema["properties"], err = marshalRaw(props); err != nil {
		return err
	}
	params["requestedSchema"], err = marshalRaw(schema)
	return err
}
