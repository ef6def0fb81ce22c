package schema

import (
	"unicode/utf16"
	"unicode/utf8"

	"github.com/mcpgen/mcpgen/internal/jsonscan"
)

// checkStrings refuses a string of the file that does not stand for the
// text it shows: bytes that are not UTF-8 (RFC 8259 §8.1: JSON text MUST
// be UTF-8) and \u escapes of half a UTF-16 surrogate pair (§8.2: their
// meaning is unpredictable). A decoder would replace either with U+FFFD,
// so that the generated names and values would not be the schema's. Only
// the strings the parse flagged (an escape or invalid UTF-8) are read
// again; the first bad one is reported.
func (d *decoder) checkStrings() {
	t := d.t
	for i := 0; i < t.Nodes(); {
		switch t.Kind(i) {
		case jsonscan.KindArray, jsonscan.KindObject:
			i += 2 // a container's two slots; its first child follows
			continue
		case jsonscan.KindString:
			if !t.Escaped(i) {
				break // plain ASCII or UTF-8, no escape
			}
			if at, what := badText(t.Contents(i)); at >= 0 {
				line, col := position(t.Data, t.Offset(i)+1+at)
				d.errs = append(d.errs, &Error{File: d.file, Line: line, Col: col, Msg: what})
				return
			}
		}
		i++
	}
}

// badText is the offset in a string's raw contents (between its quotes)
// of the first byte that is not UTF-8 or the first escaped unpaired
// surrogate, and what is wrong there; -1 when there is none.
func badText(s []byte) (int, string) {
	for j := 0; j < len(s); {
		c := s[j]
		switch {
		case c == '\\' && j+1 < len(s) && s[j+1] == 'u':
			r := escapedRune(s, j)
			if !utf16.IsSurrogate(r) {
				j += 6
				continue
			}
			if r < 0xdc00 && j+11 < len(s) && s[j+6] == '\\' && s[j+7] == 'u' {
				if low := escapedRune(s, j+6); low >= 0xdc00 && low <= 0xdfff {
					j += 12
					continue
				}
			}
			return j, "string holds half a UTF-16 surrogate pair (RFC 8259 §8.2): write the character itself"
		case c == '\\':
			j += 2
		case c < utf8.RuneSelf:
			j++
		default:
			r, size := utf8.DecodeRune(s[j:])
			if r == utf8.RuneError && size == 1 {
				return j, "invalid UTF-8 (RFC 8259 §8.1: JSON text must be UTF-8)"
			}
			j += size
		}
	}
	return -1, ""
}

// escapedRune is the code unit of the \uXXXX escape at s[j] (the parse
// checked its four hex digits).
func escapedRune(s []byte, j int) rune {
	var r rune
	for _, h := range s[j+2 : j+6] {
		switch {
		case h >= '0' && h <= '9':
			r = r<<4 | rune(h-'0')
		case h >= 'a' && h <= 'f':
			r = r<<4 | rune(h-'a'+10)
		default:
			r = r<<4 | rune(h-'A'+10)
		}
	}
	return r
}
