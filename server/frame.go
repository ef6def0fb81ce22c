package server

import (
	"bytes"

	"github.com/mcpgen/mcpgen/jsonrpc"
)

// frameRoom is the room a tool result's buffer keeps in front of the
// result for the response's head, {"jsonrpc":"2.0","id":…,"result": (32
// bytes and the id's text): ids up to 32 bytes long fit; a longer one
// gets its response built by copying.
const frameRoom = 64

// resultFrame is a buffer holding an encoded result after frameRoom free
// bytes and with one byte spare behind it, so that the response is the
// head written in front and '}' behind, with no copy of the result: a
// 10 MB tool result was copied once more into its response.
type resultFrame struct {
	buf []byte // frameRoom bytes of room, then the result
	// result is the encoded result (in buf, or a buffer it outgrew into):
	// a registry returns the frame itself as its result (encodeResult), a
	// pointer into the request, where a []byte in an interface would be
	// allocated.
	result []byte
	// oneLine says that result holds no CR or LF byte, so response need
	// not look: encodeIn sets it for a toolText's result, whose parts
	// cannot (see there); any other encoding leaves it false.
	oneLine bool
}

// alloc returns an empty result buffer of capacity n (and the room and
// the spare byte), which encoding appends to and done then records.
func (f *resultFrame) alloc(n int) []byte {
	f.buf, f.oneLine = make([]byte, frameRoom, frameRoom+n+1), false
	return f.buf[frameRoom:frameRoom]
}

// resultStart is the capacity behind the room that start gives a
// result encoded by appending: enough for most results without growing;
// a large one grows once (the generated encoders reserve a blob's or a
// text's encoded size before writing it).
const resultStart = 512

// start returns a buffer holding the room and nothing else, for an
// encoder that appends the result to it (adopt takes what it returns).
func (f *resultFrame) start() []byte {
	return make([]byte, frameRoom, frameRoom+resultStart)
}

// adopt records the result an encoder appended to start's buffer (out is
// that buffer, grown or not: appending keeps the room in front) and
// returns the result.
func (f *resultFrame) adopt(out []byte) []byte {
	f.buf, f.result, f.oneLine = out, out[frameRoom:], false
	return f.result
}

// done records the result encoded into alloc's buffer and returns it; a
// result that outgrew the buffer (append moved it: escaping grew the
// text more than the estimate) leaves f without a frame.
func (f *resultFrame) done(result []byte) []byte {
	f.result = result
	if n := frameRoom + len(result); len(result) > 0 && n <= cap(f.buf) && &f.buf[:n][frameRoom] == &result[0] {
		f.buf = f.buf[:n]
	} else {
		f.buf = nil
	}
	return result
}

// response is the response to id with result when result is the one f
// holds (not a copy, not grown out of its buffer) and stays on one line
// (oneLine, or no CR or LF found in it);
// nil otherwise, and the caller builds it with jsonrpc.AppendResult.
func (f *resultFrame) response(id jsonrpc.ID, result []byte) []byte {
	if f == nil || len(result) == 0 || len(f.buf) != frameRoom+len(result) || &f.buf[frameRoom] != &result[0] ||
		cap(f.buf) == len(f.buf) || !f.oneLine && (bytes.IndexByte(result, '\n') >= 0 || bytes.IndexByte(result, '\r') >= 0) {
		return nil
	}
	start := frameRoom - resultHeadLen(id)
	if start < 0 {
		return nil
	}
	jsonrpc.AppendResultHead(f.buf[start:start], id) // fills the room exactly (TestResultHeadLen)
	return append(f.buf[start:], '}')
}

// resultHeadLen is the length of jsonrpc.AppendResultHead's output for id.
func resultHeadLen(id jsonrpc.ID) int {
	n := len(`{"jsonrpc":"2.0","result":`)
	if raw := id.String(); raw != "" {
		n += len(`,"id":`) + len(raw)
	}
	return n
}
