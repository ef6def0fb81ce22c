package server

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"sync/atomic"

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
// It lives in the request (56 bytes: the request stays in the 640-byte
// size class), so its JSON is one slice read through textJSON and
// structuredJSON.
type toolText struct {
	text string // the text, unless textIsJSON
	// json holds the output's JSON from jsonAt on: the text's (textIsJSON),
	// the structuredContent's (hasStructured), often both. In a framed
	// output (framedOutput) the jsonAt bytes in front are the room for the
	// response's head and the content block, and out is the encoder that
	// made it, which learns the room the result took; out is nil otherwise.
	// jsonAt is an int32 beside the flags (framedOutput keeps the room
	// under maxFramedRoom): toolText is 56 bytes, and the request, with
	// resultFrame's oneLine, stays within 632 (TestRequestSizeClass).
	json                               []byte
	out                                *outEncoder
	jsonAt                             int32
	textIsJSON, hasStructured, isError bool
}

// textJSON is the JSON the text is, nil when the text is t.text.
func (t *toolText) textJSON() []byte {
	if !t.textIsJSON {
		return nil
	}
	return t.json[int(t.jsonAt):]
}

// structuredJSON is the structuredContent, nil when absent.
func (t *toolText) structuredJSON() []byte {
	if !t.hasStructured {
		return nil
	}
	return t.json[int(t.jsonAt):]
}

func toolError(msg string) *toolText { return &toolText{text: msg, isError: true} }

// outEncoder encodes one tool's Out values.
type outEncoder struct {
	kind outKind
	enc  *jsonenc.Encoder // the Out type's
	// front and back are the room the last structured result framed in
	// place needed in front of its structuredContent (the response's head,
	// the content block) and behind it (the rest of the result, the
	// text's escaping): the next one is encoded with as much (encodeAround).
	front, back atomic.Int64
}

func newOutEncoder(outType reflect.Type) *outEncoder {
	o := &outEncoder{kind: outKindOf(outType), enc: jsonenc.NewEncoder(outType)}
	o.front.Store(frameRoom + 128)
	o.back.Store(256)
	return o
}

// toolOutput converts a tool's Out value; a *toolText is built in scratch
// when that is not nil, its structuredContent encoded with room around it
// for the rest of the result (encodeIn).
func (o *outEncoder) toolOutput(out any, scratch *toolText) (any, error) {
	kind := o.kind
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
	if kind == outStructured && scratch != nil {
		return o.framedOutput(out, scratch)
	}
	b, err := o.enc.Marshal(out)
	if err != nil {
		return nil, err
	}
	tt := scratch.set(toolText{json: b, textIsJSON: true})
	if kind == outStructured && string(b) != "null" {
		tt.hasStructured = true
		if s, ok := out.(fmt.Stringer); ok {
			tt.text, tt.textIsJSON = s.String(), false
		}
	}
	return tt, nil
}

// framedOutput is toolOutput of a structured Out, its structuredContent
// encoded behind o.front bytes of room, with o.back bytes spare behind
// it: the result is then written around it in the same buffer
// (encodeAround). The text is the Out's String when it is a fmt.Stringer,
// else the structuredContent's JSON itself.
func (o *outEncoder) framedOutput(out any, scratch *toolText) (any, error) {
	front := min(int(o.front.Load()), maxFramedRoom) // a larger text is encoded apart (encodeIn)
	buf, err := o.enc.MarshalRoom(out, front, int(o.back.Load()))
	if err != nil {
		return nil, err
	}
	b := buf[front:]
	if string(b) == "null" {
		// Not b: it would keep the room in front alive.
		return scratch.set(toolText{json: nullJSON, textIsJSON: true}), nil
	}
	tt := scratch.set(toolText{json: buf, jsonAt: int32(front), hasStructured: true, out: o})
	textLen := len(b)
	if s, ok := out.(fmt.Stringer); ok {
		tt.text = s.String()
		textLen = len(tt.text)
	} else {
		tt.textIsJSON = true
	}
	// The room was learned from the last result: after a large one, a
	// small result must not be framed in (and its response keep alive) a
	// buffer of the large one's size, as jsonenc keeps none sized for a
	// larger value. It is copied into room guessed for its own size
	// (encodeAround then learns the room it took).
	room := min(frameRoom+len(framedHead)+textLen+textLen/4+2+len(framedMiddle)+framedSlack, maxFramedRoom)
	if size := room + len(b) + 256 + textLen + textLen/4; cap(buf) > framedMaxSpare && cap(buf) > 2*size {
		own := make([]byte, room, size)
		tt.json, tt.jsonAt = append(own, b...), int32(room)
	}
	return tt, nil
}

// maxFramedRoom bounds the room framedOutput encodes a result behind, so
// that its offset fits toolText.jsonAt: a result whose text needs more
// is written into a buffer of its own (encodeIn's fallback).
const maxFramedRoom = 1<<31 - 1

// nullJSON is the JSON of a nil structured Out; only ever read.
var nullJSON = []byte("null")

// framedMaxSpare is the capacity up to which a framed result keeps the
// buffer it was encoded into however little of it it uses (jsonenc's
// maxSpare).
const framedMaxSpare = 64 << 10

// escapedJSONLen is the length of the JSON text b written as a JSON
// string by jsonrpc.AppendString, quotes aside: each quote and backslash
// gains one; b is JSON (control characters already escaped), so no other
// byte changes length unless it is invalid UTF-8 (each then becomes
// U+FFFD's three bytes, which this does not count).
func escapedJSONLen(b []byte) int {
	return len(b) + bytes.Count(b, []byte{'"'}) + bytes.Count(b, []byte{'\\'})
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
	if t.textIsJSON {
		return len(t.json) - int(t.jsonAt)
	}
	return len(t.text)
}

// encode is the CallToolResult with resultType and _meta, in a buffer of
// the size it needs.
func (t *toolText) encode(meta []byte) []byte {
	return t.appendResult(make([]byte, 0, t.encodedSize(meta)), meta)
}

// encodeIn is encode into a buffer of f, with room for the response's
// head in front. The result is one line when meta is (the server's
// metaJSON, its strings written by jsonenc.AppendString): the text is
// escaped, and structuredContent is jsonenc's encoding, json.Marshal's
// bytes (FuzzMarshal), which are compact and escape CR and LF; so f is
// marked oneLine and response does not look for them.
func (t *toolText) encodeIn(f *resultFrame, meta []byte) []byte {
	if t.out != nil {
		if result := t.encodeAround(f, meta); result != nil {
			f.oneLine = true
			return result
		}
	}
	result := f.done(t.appendResult(f.alloc(t.encodedSize(meta)), meta))
	f.oneLine = true
	return result
}

// framedSlack is the room framedOutput asks for beyond what the last
// result took, either side: a slightly longer text still fits.
const framedSlack = 32

// The result's members in front of and behind a structuredContent
// encoded in place (encodeAround).
const (
	framedHead   = `{"content":[{"type":"text","text":`
	framedMiddle = `}],"structuredContent":`
	framedTail   = `,"resultType":"complete","_meta":`
)

// encodeAround encodes the result around the structuredContent in t.json
// (framedOutput's buffer), which becomes f's buffer: the text is escaped
// behind the structuredContent and moved in front of it, then the rest
// appended. It returns appendResult's bytes, or nil (and nothing written
// in front) when the room either side is too small, and the caller
// encodes into a buffer of its own.
func (t *toolText) encodeAround(f *resultFrame, meta []byte) []byte {
	if t.textIsJSON {
		return t.encodeAroundJSON(f, meta)
	}
	buf, s := t.json, int(t.jsonAt)
	end := len(buf)
	text := jsonrpc.AppendString(buf[end:end], t.text)
	back := len(text) + len(framedTail) + len(meta) + 2 // '}' and the spare byte
	front := frameRoom + len(framedHead) + len(text) + len(framedMiddle)
	t.out.front.Store(int64(front + framedSlack))
	t.out.back.Store(int64(back + framedSlack))
	if front > s || cap(buf)-end < back || &buf[:end+1][end] != &text[0] {
		return nil // text did not fit: escaped into a buffer of its own
	}
	start := s - (front - frameRoom)
	n := copy(buf[start:], framedHead)
	n += copy(buf[start+n:], text)
	copy(buf[start+n:], framedMiddle)
	out := append(buf, framedTail...)
	out = append(out, meta...)
	out = append(out, '}')
	f.buf, f.result = out[start-frameRoom:], out[start:]
	return f.result
}

// encodeAroundJSON is encodeAround for a text that is the
// structuredContent's JSON (textIsJSON): the text
// is escaped straight into the room in front, from the head's end on, and
// moved up against the structuredContent; behind it only the rest of the
// result is appended. It returns nil (nothing of the result written) when
// either side's room is too small.
func (t *toolText) encodeAroundJSON(f *resultFrame, meta []byte) []byte {
	buf, s := t.json, int(t.jsonAt)
	textJSON := buf[s:]
	end := len(buf)
	back := len(framedTail) + len(meta) + 2 // '}' and the spare byte
	from, limit := frameRoom+len(framedHead), s-len(framedMiddle)
	// The escaped text's length, counted: a room that would not hold it
	// is not handed to AppendJSONText, which would grow it by appending
	// (copies of a text escaped to twice its length) only for the result
	// to be encoded again.
	if n := escapedJSONLen(textJSON) + 2; limit-from < n || cap(buf)-end < back {
		t.out.front.Store(int64(frameRoom + len(framedHead) + n + len(framedMiddle) + framedSlack))
		t.out.back.Store(int64(back))
		return nil // the escaped text cannot fit
	}
	text := jsonrpc.AppendJSONText(buf[from:from:limit], textJSON)
	front := frameRoom + len(framedHead) + len(text) + len(framedMiddle)
	// The text's escaping varies with the value, the rest behind it only
	// with meta: slack in front, none behind.
	t.out.front.Store(int64(front + framedSlack))
	t.out.back.Store(int64(back))
	if front > s || &buf[from] != &text[0] {
		return nil // text did not fit: AppendJSONText grew it into a buffer of its own
	}
	start := s - (front - frameRoom)
	copy(buf[start+len(framedHead):], text) // up: start >= frameRoom
	copy(buf[start:], framedHead)
	copy(buf[limit:], framedMiddle)
	out := append(buf, framedTail...)
	out = append(out, meta...)
	out = append(out, '}')
	f.buf, f.result = out[start-frameRoom:], out[start:]
	return f.result
}

// encodedSize is the buffer encode allocates: the fixed members take 108
// bytes at most; escaping may grow the text.
func (t *toolText) encodedSize(meta []byte) int {
	n := t.textLen()
	if t.textIsJSON {
		n = escapedJSONLen(t.textJSON()) // counted: a JSON text may be mostly quotes
	} else {
		n += n / 8
	}
	return n + len(t.structuredJSON()) + len(meta) + 112
}

// appendResult encodes the CallToolResult with resultType and _meta.
func (t *toolText) appendResult(dst, meta []byte) []byte {
	dst = append(dst, `{"content":[{"type":"text","text":`...)
	if t.textIsJSON {
		dst = jsonrpc.AppendJSONText(dst, t.textJSON())
	} else {
		dst = jsonrpc.AppendString(dst, t.text)
	}
	dst = append(dst, `}]`...)
	if structured := t.structuredJSON(); structured != nil {
		dst = append(dst, `,"structuredContent":`...)
		dst = append(dst, structured...)
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
	if t.textIsJSON {
		text = string(t.textJSON())
	}
	res := &mcp.CallToolResult{Content: []mcp.ContentBlock{&mcp.TextContent{Text: text}}}
	if structured := t.structuredJSON(); structured != nil {
		res.StructuredContent = json.RawMessage(structured)
	}
	if t.isError {
		yes := true
		res.IsError = &yes
	}
	return res
}
