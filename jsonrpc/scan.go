package jsonrpc

import (
	"bytes"
	"encoding/json"
)

// The helpers in this file walk JSON text without decoding it. Decode runs
// them over input validJSON has accepted, and the server runtime over the
// params of decoded messages; they still bounds-check every index so that
// unexpected input makes them report failure instead of panicking.

// isSpace reports whether c is JSON insignificant whitespace.
func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r'
}

// skipSpace returns the index of the first non-whitespace byte at or after i.
func skipSpace(data []byte, i int) int {
	for i < len(data) && isSpace(data[i]) {
		i++
	}
	return i
}

// skipString returns the index just past the string starting at data[i]
// (which must be '"'), or -1 if it is unterminated. The closing quote is
// the first '"' after an even run of backslashes; bytes.IndexByte finds the
// candidates.
func skipString(data []byte, i int) int {
	start := i
	for i++; i <= len(data); i++ {
		j := bytes.IndexByte(data[i:], '"')
		if j < 0 {
			return -1
		}
		i += j
		k := i - 1
		for k > start && data[k] == '\\' {
			k--
		}
		if (i-1-k)%2 == 0 {
			return i + 1
		}
	}
	return -1
}

// skipValue returns the index just past the value starting at data[i], or -1.
func skipValue(data []byte, i int) int {
	if i >= len(data) {
		return -1
	}
	switch data[i] {
	case '"':
		return skipString(data, i)
	case '{', '[':
		depth := 0
		for i < len(data) {
			switch data[i] {
			case '"':
				i = skipString(data, i)
				if i < 0 {
					return -1
				}
				continue
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return i + 1
				}
			}
			i++
		}
		return -1
	default:
		for i < len(data) {
			switch c := data[i]; {
			case c == ',' || c == '}' || c == ']' || isSpace(c):
				return i
			}
			i++
		}
		return i
	}
}

// EachMember calls fn for every member of the JSON object data (surrounding
// whitespace allowed), in order, without decoding: key is the raw text
// between the key's quotes (escapes kept; compare it with KeyEquals) and
// value the raw value. It reports false when data is not an object or is
// malformed; fn has then seen the members before the fault. It is meant
// for valid JSON, such as the Params of a decoded Message, and never panics
// on any other input.
func EachMember(data []byte, fn func(key, value []byte)) bool {
	i := skipSpace(data, 0)
	if i >= len(data) || data[i] != '{' {
		return false
	}
	i = skipSpace(data, i+1)
	if i < len(data) && data[i] == '}' {
		return true
	}
	for i < len(data) {
		if data[i] != '"' {
			return false
		}
		end := skipString(data, i)
		if end < 0 {
			return false
		}
		key := data[i+1 : end-1]
		i = skipSpace(data, end)
		if i >= len(data) || data[i] != ':' {
			return false
		}
		i = skipSpace(data, i+1)
		vend := skipValue(data, i)
		if vend < 0 {
			return false
		}
		fn(key, data[i:vend])
		i = skipSpace(data, vend)
		if i >= len(data) {
			return false
		}
		switch data[i] {
		case ',':
			i = skipSpace(data, i+1)
		case '}':
			return true
		default:
			return false
		}
	}
	return false
}

// readMembers reads the object obj, storing the value of the member named
// names[i] in vals[i]; other members are ignored. seen has bit i set when
// names[i] was present, dup is the first of names that appeared more than
// once ("" when none), and ok is false when obj is not an object.
func readMembers(obj []byte, names []string, vals [][]byte) (seen int, dup string, ok bool) {
	ok = EachMember(obj, func(key, value []byte) {
		if bytes.IndexByte(key, '\\') >= 0 { // rare: unescape once
			s, ok := unquote(key)
			if !ok {
				return
			}
			key = []byte(s)
		}
		for i, name := range names {
			if string(key) == name {
				if seen&(1<<i) != 0 && dup == "" {
					dup = name
				}
				seen |= 1 << i
				vals[i] = value
				return
			}
		}
	})
	return seen, dup, ok
}

// KeyEquals reports whether the raw key text (between the quotes, as
// EachMember gives it) denotes name. Keys without escapes are compared byte
// for byte; escaped keys are unescaped first, so `\u006dethod` matches
// "method". Comparison is case-sensitive, unlike encoding/json's struct
// field matching.
func KeyEquals(raw []byte, name string) bool {
	if bytes.IndexByte(raw, '\\') < 0 {
		return string(raw) == name
	}
	s, ok := unquote(raw)
	return ok && s == name
}

// unquote unescapes raw string contents (without the quotes).
func unquote(raw []byte) (string, bool) {
	if bytes.IndexByte(raw, '\\') < 0 {
		return string(raw), true
	}
	q := make([]byte, 0, len(raw)+2)
	q = append(q, '"')
	q = append(q, raw...)
	q = append(q, '"')
	var s string
	if err := json.Unmarshal(q, &s); err != nil {
		return "", false
	}
	return s, true
}

// StringValue returns the unescaped value of a raw JSON string value
// (including its quotes). ok is false if raw is not a valid JSON string.
func StringValue(raw []byte) (string, bool) {
	if len(raw) < 2 || raw[0] != '"' || raw[len(raw)-1] != '"' {
		return "", false
	}
	inner := raw[1 : len(raw)-1]
	for _, c := range inner {
		if c == '\\' || c < 0x20 {
			var s string
			if json.Unmarshal(raw, &s) != nil {
				return "", false
			}
			return s, true
		}
	}
	return string(inner), true
}

// IsInteger reports whether raw is a JSON number without fraction or
// exponent.
func IsInteger(raw []byte) bool {
	i := 0
	if i < len(raw) && raw[i] == '-' {
		i++
	}
	if i >= len(raw) {
		return false
	}
	for ; i < len(raw); i++ {
		if raw[i] < '0' || raw[i] > '9' {
			return false
		}
	}
	return true
}
