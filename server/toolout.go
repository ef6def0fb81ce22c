package server

import (
	"encoding/json"
	"fmt"
	"reflect"

	"github.com/mcpgen/mcpgen/generated/mcp"
	"github.com/mcpgen/mcpgen/internal/jsonenc"
	"github.com/mcpgen/mcpgen/jsonrpc"
)

// outKind says how a tool's Out value becomes a CallToolResult; it is
// decided once per tool from the type.
type outKind int

const (
	outOther      outKind = iota // any other type: its JSON as text
	outString                    // one text content block
	outContent                   // []mcp.ContentBlock
	outResult                    // *mcp.CallToolResult, as is
	outStructured                // struct (or pointer to one): structuredContent + JSON text
)

func outKindOf(t reflect.Type) outKind {
	switch {
	case t == reflect.TypeFor[string]():
		return outString
	case t == reflect.TypeFor[[]mcp.ContentBlock]():
		return outContent
	case t == reflect.TypeFor[*mcp.CallToolResult]():
		return outResult
	case t.Kind() == reflect.Struct, t.Kind() == reflect.Pointer && t.Elem().Kind() == reflect.Struct:
		return outStructured
	}
	return outOther
}

// toolText is the common tool output: one text block, optionally
// structuredContent and isError. The registry encodes it without reflection.
type toolText struct {
	text       string
	textJSON   []byte // when set, the text is this JSON (often structured itself)
	structured []byte // raw JSON, nil when absent
	isError    bool
}

func toolError(msg string) *toolText { return &toolText{text: msg, isError: true} }

// toolOutput converts a tool's Out value, encoded by enc (the Out type's
// encoder) when it is JSON; a *toolText is built in scratch when that is
// not nil.
func toolOutput(kind outKind, enc *jsonenc.Encoder, out any, scratch *toolText) (any, error) {
	switch kind {
	case outString:
		return scratch.set(toolText{text: out.(string)}), nil
	case outContent:
		content := out.([]mcp.ContentBlock)
		if content == nil {
			content = []mcp.ContentBlock{}
		}
		return &mcp.CallToolResult{Content: content}, nil
	case outResult:
		if res := out.(*mcp.CallToolResult); res != nil {
			return res, nil
		}
		return &mcp.CallToolResult{Content: []mcp.ContentBlock{}}, nil
	}
	b, err := enc.Marshal(out)
	if err != nil {
		return nil, err
	}
	tt := scratch.set(toolText{textJSON: b})
	if kind == outStructured && string(b) != "null" {
		tt.structured = b
		if s, ok := out.(fmt.Stringer); ok {
			tt.text, tt.textJSON = s.String(), nil
		}
	}
	return tt, nil
}

// set stores v in t and returns t, or a new toolText holding v when t is
// nil.
func (t *toolText) set(v toolText) *toolText {
	if t == nil {
		t = new(toolText) // not &v: v would then be on the heap either way
	}
	*t = v
	return t
}

// textLen is the length of the text block's text before escaping.
func (t *toolText) textLen() int {
	if t.textJSON != nil {
		return len(t.textJSON)
	}
	return len(t.text)
}

// encode is the CallToolResult with resultType and _meta, in a buffer of
// the size it needs.
func (t *toolText) encode(meta []byte) []byte {
	return t.appendResult(make([]byte, 0, t.encodedSize(meta)), meta)
}

// encodeIn is encode into a buffer of f, with room for the response's
// head in front.
func (t *toolText) encodeIn(f *resultFrame, meta []byte) []byte {
	return f.done(t.appendResult(f.alloc(t.encodedSize(meta)), meta))
}

// encodedSize is the buffer encode allocates: the fixed members take 108
// bytes at most; escaping may grow the text.
func (t *toolText) encodedSize(meta []byte) int {
	n := t.textLen()
	return n + n/8 + len(t.structured) + len(meta) + 112
}

// appendResult encodes the CallToolResult with resultType and _meta.
func (t *toolText) appendResult(dst, meta []byte) []byte {
	dst = append(dst, `{"content":[{"type":"text","text":`...)
	if t.textJSON != nil {
		dst = jsonrpc.AppendString(dst, t.textJSON)
	} else {
		dst = jsonrpc.AppendString(dst, t.text)
	}
	dst = append(dst, `}]`...)
	if t.structured != nil {
		dst = append(dst, `,"structuredContent":`...)
		dst = append(dst, t.structured...)
	}
	if t.isError {
		dst = append(dst, `,"isError":true`...)
	}
	dst = append(dst, `,"resultType":"complete","_meta":`...)
	dst = append(dst, meta...)
	return append(dst, '}')
}

func (t *toolText) callToolResult() *mcp.CallToolResult {
	text := t.text
	if t.textJSON != nil {
		text = string(t.textJSON)
	}
	res := &mcp.CallToolResult{Content: []mcp.ContentBlock{&mcp.TextContent{Text: text}}}
	if t.structured != nil {
		res.StructuredContent = json.RawMessage(t.structured)
	}
	if t.isError {
		yes := true
		res.IsError = &yes
	}
	return res
}
