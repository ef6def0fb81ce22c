package jsonrpc

import (
	"bytes"
	"encoding/json"
	"math/bits"
	"strconv"
	"unicode/utf8"
)

// The Append functions write one compact JSON-RPC message to dst and return
// the extended slice. They do not use reflection and allocate only when dst
// must grow (or when a raw value has to be compacted).
//
// Raw values (params, result, error data) must be valid JSON; they are
// copied verbatim unless they contain a CR or LF byte, in which case they
// are compacted so the message stays on one line (as stdio framing
// requires). Invalid raw params or results are copied verbatim and yield
// invalid output; error data that is not valid JSON in UTF-8 is left out.
//
// A zero ID omits the "id" member. No trailing newline is written.

const header = `{"jsonrpc":"2.0"`

// AppendResult appends a success response {"jsonrpc":"2.0","id":id,"result":result}.
// An empty result is written as null.
func AppendResult(dst []byte, id ID, result []byte) []byte {
	dst = AppendResultHead(dst, id)
	if len(result) == 0 {
		dst = append(dst, "null"...)
	} else {
		dst = appendRaw(dst, result)
	}
	return append(dst, '}')
}

// AppendResultHead appends what AppendResult writes before the result:
// {"jsonrpc":"2.0","id":id,"result": — a response is that, a compact
// result without CR or LF bytes, and '}'.
func AppendResultHead(dst []byte, id ID) []byte {
	dst = append(dst, header...)
	dst = appendID(dst, id)
	return append(dst, `,"result":`...)
}

// AppendError appends an error response {"jsonrpc":"2.0","id":id,"error":{...}}.
// A zero id omits the id member, which MCP requires when the request id
// could not be read. A nil e is written as an Internal error.
func AppendError(dst []byte, id ID, e *Error) []byte {
	dst = append(dst, header...)
	dst = appendID(dst, id)
	dst = append(dst, `,"error":`...)
	dst = appendErrorObject(dst, e)
	return append(dst, '}')
}

// appendErrorObject appends just the error object
// {"code":c,"message":m[,"data":d]}. A nil e is written as an Internal error.
// Data that is not JSON in UTF-8 (Error.ValidData) is left out: an error
// often comes from a handler, and the message must stay one JSON value
// (stdio framing: one line, nothing on stdout that is not a message).
func appendErrorObject(dst []byte, e *Error) []byte {
	if e == nil {
		e = &Error{Code: CodeInternalError, Message: "Internal error"}
	}
	dst = append(dst, `{"code":`...)
	dst = strconv.AppendInt(dst, e.Code, 10)
	dst = append(dst, `,"message":`...)
	dst = AppendString(dst, e.Message)
	if len(e.Data) > 0 && validRaw(e.Data) {
		dst = append(dst, `,"data":`...)
		dst = appendRaw(dst, e.Data)
	}
	return append(dst, '}')
}

// AppendNotification appends a notification
// {"jsonrpc":"2.0","method":method,"params":params}. Empty params omit the
// params member.
func AppendNotification(dst []byte, method string, params []byte) []byte {
	dst = append(dst, header...)
	return appendMethodParams(dst, method, params)
}

// AppendRequest appends a request
// {"jsonrpc":"2.0","id":id,"method":method,"params":params}. Empty params
// omit the params member.
func AppendRequest(dst []byte, id ID, method string, params []byte) []byte {
	dst = append(dst, header...)
	dst = appendID(dst, id)
	return appendMethodParams(dst, method, params)
}

func appendID(dst []byte, id ID) []byte {
	if id.raw == "" {
		return dst
	}
	dst = append(dst, `,"id":`...)
	return append(dst, id.raw...)
}

func appendMethodParams(dst []byte, method string, params []byte) []byte {
	dst = append(dst, `,"method":`...)
	dst = AppendString(dst, method)
	if len(params) > 0 {
		dst = append(dst, `,"params":`...)
		dst = appendRaw(dst, params)
	}
	return append(dst, '}')
}

// appendRaw appends raw JSON, compacting it if it spans several lines.
func appendRaw(dst, raw []byte) []byte {
	if bytes.IndexByte(raw, '\n') < 0 && bytes.IndexByte(raw, '\r') < 0 {
		return append(dst, raw...)
	}
	n := len(dst)
	buf := bytes.NewBuffer(dst)
	if err := json.Compact(buf, raw); err != nil {
		return append(buf.Bytes()[:n], raw...)
	}
	return buf.Bytes()
}

const hexDigits = "0123456789abcdef"

// AppendString appends s as a JSON string. It escapes '"', '\\' and control
// characters and replaces each invalid UTF-8 byte with the (unescaped)
// character U+FFFD, as json.Unmarshal does when reading; everything else
// (including '<', '>', '&', U+2028 and U+2029) is written as is.
func AppendString[T string | []byte](dst []byte, s T) []byte {
	dst = append(dst, '"')
	dst = appendEscaped(dst, s)
	return append(dst, '"')
}

// appendEscaped appends s escaped as AppendString's text between its
// quotes. Each character's escape depends on that character only, so
// AppendJSONText hands it the rest of a text from any character on.
func appendEscaped[T string | []byte](dst []byte, s T) []byte {
	start := 0
	for i := plainASCII(s, 0); i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			switch c {
			case '"', '\\':
				dst = append(dst, '\\', c)
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			case '\b':
				dst = append(dst, '\\', 'b')
			case '\f':
				dst = append(dst, '\\', 'f')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			}
			i++
			start = i
			i = plainASCII(s, i)
			continue
		}
		r, size := decodeRune(s[i:])
		if r == utf8.RuneError && size == 1 {
			dst = append(dst, s[start:i]...)
			dst = append(dst, "\uFFFD"...)
			i++
			start = i
			i = plainASCII(s, i)
			continue
		}
		i = plainASCII(s, i+size)
	}
	return append(dst, s[start:]...)
}

// plainASCII is the index of the first byte from i on that AppendString
// must look at (a byte >= 0x80, a control character, '"' or '\\'), read 8
// bytes at a time; or the start of the last 8 bytes or fewer, which it
// leaves to the bytewise loop. appendEscaped calls it where the string
// starts and after each escape or multi-byte character. For the lowest
// byte that stops it, the bytes below are 0x20 to 0x7f and neither a quote
// nor a backslash, so none of the three differences borrows from or sets
// the top bit of one of them, and that byte sets its own top bit (as
// jsonscan's skipASCII).
func plainASCII[T string | []byte](s T, i int) int {
	const lsb, msb = 0x0101010101010101, 0x8080808080808080
	for ; i+8 <= len(s); i += 8 {
		w := s[i : i+8]
		x := uint64(w[0]) | uint64(w[1])<<8 | uint64(w[2])<<16 | uint64(w[3])<<24 |
			uint64(w[4])<<32 | uint64(w[5])<<40 | uint64(w[6])<<48 | uint64(w[7])<<56
		q, b := x^(lsb*'"'), x^(lsb*'\\')
		if stop := ((q - lsb) | (b - lsb) | (x - lsb*0x20) | x) & msb; stop != 0 {
			return i + bits.TrailingZeros64(stop)/8
		}
	}
	return i
}

// decodeRune decodes the first UTF-8 character of s, a string or bytes.
func decodeRune[T string | []byte](s T) (rune, int) {
	var buf [utf8.UTFMax]byte
	n := copy(buf[:], s)
	return utf8.DecodeRune(buf[:n])
}
