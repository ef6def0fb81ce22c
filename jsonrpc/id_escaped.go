package jsonrpc

import (
	"unicode/utf16"

	"github.com/mcpgen/mcpgen/internal/jsonscan"
)

// escapedStringID is the ID of a string id whose contents (inner, between
// the quotes) have escapes: the string re-encoded minimally, except that
// each lone surrogate escape ("\ud800" with no low half after it, or a low
// half alone) stays an escape, in lower case. A Go string cannot hold a
// lone surrogate (unescaping makes it U+FFFD), yet "\ud800", "\udc00" and
// "\ufffd" are three JSON values a peer keeping UTF-16 strings tells
// apart; so the id keeps them apart and echoes each as it came. ok is
// false when inner does not unescape.
func escapedStringID(inner []byte) (ID, bool) {
	var out []byte
	start := 0
	for i := 0; i < len(inner); {
		if inner[i] != '\\' {
			i++
			continue
		}
		r, ok := escapedUnit(inner, i)
		if !ok {
			i += 2 // another escape, or a malformed one Unquote refuses
			continue
		}
		if !utf16.IsSurrogate(r) {
			i += 6
			continue
		}
		if r < 0xdc00 {
			if low, ok := escapedUnit(inner, i+6); ok && low >= 0xdc00 && low <= 0xdfff {
				i += 12 // a pair: one character, re-encoded as such
				continue
			}
		}
		var fine bool
		if out, fine = appendUnquoted(out, inner[start:i]); !fine {
			return ID{}, false
		}
		out = append(out, '\\', 'u', hexDigits[r>>12], hexDigits[r>>8&0xf], hexDigits[r>>4&0xf], hexDigits[r&0xf])
		i += 6
		start = i
	}
	if out == nil {
		s, ok := jsonscan.Unquote(inner)
		if !ok {
			return ID{}, false
		}
		return StringID(s), true
	}
	out, ok := appendUnquoted(out, inner[start:])
	if !ok {
		return ID{}, false
	}
	return ID{raw: `"` + string(out) + `"`}, true
}

// escapedUnit is the UTF-16 code unit of the \uXXXX escape at inner[i],
// ok false when there is none there.
func escapedUnit(inner []byte, i int) (rune, bool) {
	if i+6 > len(inner) || inner[i] != '\\' || inner[i+1] != 'u' {
		return 0, false
	}
	var r rune
	for _, c := range inner[i+2 : i+6] {
		switch {
		case c >= '0' && c <= '9':
			r = r<<4 | rune(c-'0')
		case c >= 'a' && c <= 'f':
			r = r<<4 | rune(c-'a'+10)
		case c >= 'A' && c <= 'F':
			r = r<<4 | rune(c-'A'+10)
		default:
			return 0, false
		}
	}
	return r, true
}

// appendUnquoted appends the minimal JSON escaping of the unescaped seg
// (string contents with no lone surrogate), without quotes.
func appendUnquoted(dst, seg []byte) ([]byte, bool) {
	s, ok := jsonscan.Unquote(seg)
	if !ok {
		return dst, false
	}
	quoted := AppendString(nil, s)
	return append(dst, quoted[1:len(quoted)-1]...), true
}
