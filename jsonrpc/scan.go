package jsonrpc

import (
	"bytes"
	"encoding/json"
)

// The helpers in this file walk JSON that json.Valid has already accepted.
// They still bounds-check every index so that a bug can never turn into a
// panic; on unexpected input they report failure instead.

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
// (which must be '"'), or -1 if it is unterminated.
func skipString(data []byte, i int) int {
	i++
	for i < len(data) {
		switch data[i] {
		case '\\':
			i += 2
		case '"':
			return i + 1
		default:
			i++
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

// objectIter iterates over the members of a validated JSON object.
type objectIter struct {
	data []byte
	i    int
	done bool
}

// newObjectIter starts iterating the object in data (leading/trailing
// whitespace allowed). ok is false if data is not an object.
func newObjectIter(data []byte) (it objectIter, ok bool) {
	i := skipSpace(data, 0)
	if i >= len(data) || data[i] != '{' {
		return objectIter{done: true}, false
	}
	i = skipSpace(data, i+1)
	if i < len(data) && data[i] == '}' {
		return objectIter{done: true}, true
	}
	return objectIter{data: data, i: i}, true
}

// next returns the next member. key is the raw key text between the quotes
// (possibly containing escapes) and value the raw value. ok is false at the
// end of the object or on malformed input.
func (it *objectIter) next() (key, value []byte, ok bool) {
	if it.done {
		return nil, nil, false
	}
	d := it.data
	i := it.i
	if i >= len(d) || d[i] != '"' {
		return it.fail()
	}
	end := skipString(d, i)
	if end < 0 {
		return it.fail()
	}
	key = d[i+1 : end-1]
	i = skipSpace(d, end)
	if i >= len(d) || d[i] != ':' {
		return it.fail()
	}
	i = skipSpace(d, i+1)
	vend := skipValue(d, i)
	if vend < 0 {
		return it.fail()
	}
	value = d[i:vend]
	i = skipSpace(d, vend)
	if i >= len(d) {
		return it.fail()
	}
	switch d[i] {
	case ',':
		it.i = skipSpace(d, i+1)
	case '}':
		it.done = true
	default:
		return it.fail()
	}
	return key, value, true
}

func (it *objectIter) fail() ([]byte, []byte, bool) {
	it.done = true
	it.data = nil
	return nil, nil, false
}

// keyEquals reports whether the raw key text (without quotes) denotes name.
// Keys without escapes are compared byte for byte; escaped keys are
// unescaped first, so "\u006dethod" matches "method". Comparison is
// case-sensitive, unlike encoding/json's struct field matching.
func keyEquals(raw []byte, name string) bool {
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

// stringValue returns the unescaped value of a raw JSON string value
// (including quotes). ok is false if raw is not a string.
func stringValue(raw []byte) (string, bool) {
	if len(raw) < 2 || raw[0] != '"' || raw[len(raw)-1] != '"' {
		return "", false
	}
	return unquote(raw[1 : len(raw)-1])
}

// isInteger reports whether raw is a JSON number without fraction or
// exponent.
func isInteger(raw []byte) bool {
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
