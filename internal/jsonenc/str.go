package jsonenc

import "unicode/utf8"

const hex = "0123456789abcdef"

// safe[c] is true for the ASCII bytes a JSON string holds as they are
// when HTML characters are escaped: not a control character, '"', '\\',
// '<', '>' or '&'.
var safe = func() (t [utf8.RuneSelf]bool) {
	for c := ' '; c < utf8.RuneSelf; c++ {
		t[c] = true
	}
	for _, c := range `"\<>&` {
		t[c] = false
	}
	return t
}()

// plainByte[c] is safe[c] for every byte: false from 0x80 on (the start
// or continuation of a UTF-8 sequence, which appendString checks).
var plainByte = func() (t [256]bool) {
	copy(t[:], safe[:])
	return t
}()

// AppendString appends s as json.Marshal encodes a string: appendString
// with HTML escaping.
func AppendString(dst, s []byte) []byte { return appendString(dst, s, true) }

// AppendStringText is AppendString for a string.
func AppendStringText(dst []byte, s string) []byte { return appendString(dst, s, true) }

// appendString appends src as a JSON string, as encoding/json's
// appendString: control characters, '"' and '\\' escaped (short forms for
// \b \f \n \r \t), '<' '>' '&' escaped when escapeHTML, U+2028 and U+2029
// escaped, each invalid UTF-8 byte replaced by \ufffd.
func appendString[Bytes []byte | string](dst []byte, src Bytes, escapeHTML bool) []byte {
	// The bytes written as they are, whether HTML is escaped or not,
	// found first: a string of them only (most) is copied whole.
	i := 0
	for i < len(src) && plainByte[src[i]] {
		i++
	}
	if i == len(src) {
		if n := len(dst); cap(dst)-n >= len(src)+2 {
			dst = dst[:n+len(src)+2]
			dst[n] = '"'
			copy(dst[n+1:], src)
			dst[n+1+len(src)] = '"'
			return dst
		}
		dst = append(dst, '"')
		dst = append(dst, src...)
		return append(dst, '"')
	}
	dst = append(dst, '"')
	start := 0
	for i < len(src) {
		if c := src[i]; c < utf8.RuneSelf {
			if safe[c] || (!escapeHTML && (c == '<' || c == '>' || c == '&')) {
				i++
				continue
			}
			dst = append(dst, src[start:i]...)
			switch c {
			case '\\', '"':
				dst = append(dst, '\\', c)
			case '\b':
				dst = append(dst, '\\', 'b')
			case '\f':
				dst = append(dst, '\\', 'f')
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xF])
			}
			i++
			start = i
			continue
		}
		n := min(len(src)-i, utf8.UTFMax)
		r, size := utf8.DecodeRuneInString(string(src[i : i+n]))
		if r == utf8.RuneError && size == 1 {
			dst = append(dst, src[start:i]...)
			dst = append(dst, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			dst = append(dst, src[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hex[r&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	dst = append(dst, src[start:]...)
	return append(dst, '"')
}

// appendHTMLEscape appends compact JSON with '<', '>', '&', U+2028 and
// U+2029 escaped (they can only be inside its strings).
func appendHTMLEscape(dst, src []byte) []byte {
	start := 0
	for i, c := range src {
		if c == '<' || c == '>' || c == '&' {
			dst = append(dst, src[start:i]...)
			dst = append(dst, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xF])
			start = i + 1
		}
		if c == 0xE2 && i+2 < len(src) && src[i+1] == 0x80 && src[i+2]&^1 == 0xA8 {
			dst = append(dst, src[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hex[src[i+2]&0xF])
			start = i + len("\u2029")
		}
	}
	return append(dst, src[start:]...)
}
