package jsonscan

import (
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// readString decodes the contents of a JSON string starting at data[i],
// just past its opening quote, up to its closing quote (quoted) or to the
// end of data (!quoted: data holds the contents only, and a '"' in it is a
// fault), exactly as encoding/json decodes them
// (escapes, surrogate pairs; each byte of invalid UTF-8 and each lone
// surrogate becomes U+FFFD). It returns the text and the index of the
// closing quote; when there is none or the contents break the grammar,
// fault says why and at is the offending index. The common case (no
// escapes, valid UTF-8) is one scan and one copy. Tree, Unquote and String
// all decode strings with it.
func readString(data []byte, i int, quoted bool) (s string, at int, fault string) {
	ascii := true
	for j := i; j < len(data); j++ {
		switch c := data[j]; {
		case c == '"':
			if !quoted {
				return "", j, "unescaped quote in a string"
			}
			if !ascii && !utf8.Valid(data[i:j]) {
				return string(appendValidUTF8(make([]byte, 0, j-i+8), data[i:j])), j, ""
			}
			return string(data[i:j]), j, ""
		case c == '\\':
			return readEscaped(data, i, j, quoted)
		case c < 0x20:
			return "", j, "invalid control character in a string"
		case c >= utf8.RuneSelf:
			ascii = false
		}
	}
	if !quoted {
		if !ascii && !utf8.Valid(data[i:]) {
			return string(appendValidUTF8(make([]byte, 0, len(data)-i+8), data[i:])), len(data), ""
		}
		return string(data[i:]), len(data), ""
	}
	return "", len(data), "unexpected end of input in a string"
}

// readEscaped finishes readString from the first escape, at j.
func readEscaped(d []byte, start, j int, quoted bool) (string, int, string) {
	buf := make([]byte, 0, j-start+16)
	buf = appendValidUTF8(buf, d[start:j])
	for j < len(d) {
		c := d[j]
		switch {
		case c == '"':
			if !quoted {
				return "", j, "unescaped quote in a string"
			}
			return string(buf), j, ""
		case c < 0x20:
			return "", j, "invalid control character in a string"
		case c != '\\':
			k := j
			for k < len(d) && d[k] != '"' && d[k] != '\\' && d[k] >= 0x20 {
				k++
			}
			buf = appendValidUTF8(buf, d[j:k])
			j = k
			continue
		}
		if j+1 >= len(d) {
			return "", len(d), "unexpected end of input in a string escape"
		}
		switch e := d[j+1]; e {
		case '"', '\\', '/':
			buf, j = append(buf, e), j+2
		case 'b':
			buf, j = append(buf, '\b'), j+2
		case 'f':
			buf, j = append(buf, '\f'), j+2
		case 'n':
			buf, j = append(buf, '\n'), j+2
		case 'r':
			buf, j = append(buf, '\r'), j+2
		case 't':
			buf, j = append(buf, '\t'), j+2
		case 'u':
			r := hex4(d[j+2:])
			if r < 0 {
				return "", j, "invalid \\u escape in a string"
			}
			j += 6
			if utf16.IsSurrogate(r) {
				r2 := rune(-1)
				if j+1 < len(d) && d[j] == '\\' && d[j+1] == 'u' {
					r2 = hex4(d[j+2:])
				}
				if dec := utf16.DecodeRune(r, r2); dec != unicode.ReplacementChar {
					r, j = dec, j+6
				} else {
					r = unicode.ReplacementChar
				}
			}
			buf = utf8.AppendRune(buf, r)
		default:
			return "", j, "invalid escape in a string"
		}
	}
	if !quoted {
		return string(buf), len(d), ""
	}
	return "", len(d), "unexpected end of input in a string"
}

// hex4 decodes the four hex digits at the start of b, or returns -1.
func hex4(b []byte) rune {
	if len(b) < 4 {
		return -1
	}
	var r rune
	for _, c := range b[:4] {
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c = c - 'a' + 10
		case c >= 'A' && c <= 'F':
			c = c - 'A' + 10
		default:
			return -1
		}
		r = r*16 + rune(c)
	}
	return r
}

// appendValidUTF8 appends s, each byte of an invalid UTF-8 sequence replaced
// by U+FFFD (as encoding/json does).
func appendValidUTF8(dst, s []byte) []byte {
	for len(s) > 0 {
		r, size := utf8.DecodeRune(s)
		if r == utf8.RuneError && size == 1 {
			dst = utf8.AppendRune(dst, utf8.RuneError)
		} else {
			dst = append(dst, s[:size]...)
		}
		s = s[size:]
	}
	return dst
}
