package server

import "encoding/json"

// A small scanner over JSON text that jsonrpc.Decode has already checked to
// be valid. It finds the members of an object without building a map, so the
// request hot path reads _meta, name and arguments without reflection.

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func skipSpace(data []byte, i int) int {
	for i < len(data) && isSpace(data[i]) {
		i++
	}
	return i
}

// skipString returns the index after the string starting at data[i] == '"',
// or -1.
func skipString(data []byte, i int) int {
	for i++; i < len(data); i++ {
		switch data[i] {
		case '\\':
			i++
		case '"':
			return i + 1
		}
	}
	return -1
}

// skipValue returns the index after the JSON value starting at data[i], or -1.
func skipValue(data []byte, i int) int {
	if i >= len(data) {
		return -1
	}
	switch data[i] {
	case '"':
		return skipString(data, i)
	case '{', '[':
		depth := 0
		for ; i < len(data); i++ {
			switch data[i] {
			case '"':
				j := skipString(data, i)
				if j < 0 {
					return -1
				}
				i = j - 1
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return i + 1
				}
			}
		}
		return -1
	default:
		for ; i < len(data); i++ {
			switch c := data[i]; {
			case c == ',' || c == '}' || c == ']' || isSpace(c):
				return i
			}
		}
		return i
	}
}

// eachMember calls fn for every member of the JSON object data, with the
// raw (still quoted) key and the raw value. It reports false when data is
// not an object or is malformed.
func eachMember(data []byte, fn func(key, value []byte)) bool {
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
		key := data[i:end]
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

// keyIs reports whether the raw quoted key equals name.
func keyIs(raw []byte, name string) bool {
	if len(raw) == len(name)+2 && string(raw[1:len(raw)-1]) == name {
		return true
	}
	for _, c := range raw {
		if c == '\\' {
			var s string
			return json.Unmarshal(raw, &s) == nil && s == name
		}
	}
	return false
}

// stringValue decodes a raw JSON string; ok is false for any other value.
func stringValue(raw []byte) (string, bool) {
	if len(raw) < 2 || raw[0] != '"' {
		return "", false
	}
	plain := true
	for _, c := range raw[1 : len(raw)-1] {
		if c == '\\' || c < 0x20 {
			plain = false
			break
		}
	}
	if plain {
		return string(raw[1 : len(raw)-1]), true
	}
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return "", false
	}
	return s, true
}

// jsonKind returns the first byte of a raw JSON value: '{', '[', '"', 't',
// 'f', 'n' or a number's first character; 0 when empty.
func jsonKind(raw []byte) byte {
	i := skipSpace(raw, 0)
	if i >= len(raw) {
		return 0
	}
	return raw[i]
}

// isNullOrAbsent reports whether raw is empty or the literal null.
func isNullOrAbsent(raw []byte) bool {
	return len(raw) == 0 || string(raw) == "null"
}
