package jsonscan

import "bytes"

// IsSpace reports whether c is JSON insignificant whitespace. The first
// comparison settles every byte above ' ' (all but whitespace and control
// characters), which is almost every byte a parser asks about.
func IsSpace(c byte) bool {
	return c <= ' ' && (c == ' ' || c == '\t' || c == '\n' || c == '\r')
}

// SkipSpace returns the index of the first non-whitespace byte at or after i.
func SkipSpace(data []byte, i int) int {
	for i < len(data) && IsSpace(data[i]) {
		i++
	}
	return i
}

// TrimSpace is bytes.TrimSpace limited to JSON whitespace.
func TrimSpace(b []byte) []byte {
	i, j := 0, len(b)
	for i < j && IsSpace(b[i]) {
		i++
	}
	for j > i && IsSpace(b[j-1]) {
		j--
	}
	return b[i:j]
}

// Kind returns the first byte of a raw JSON value: '{', '[', '"', 't', 'f',
// 'n' or a number's first character; 0 when raw is empty or blank.
func Kind(raw []byte) byte {
	if i := SkipSpace(raw, 0); i < len(raw) {
		return raw[i]
	}
	return 0
}

// IsNullOrAbsent reports whether raw is empty or the literal null.
func IsNullOrAbsent(raw []byte) bool {
	return len(raw) == 0 || string(raw) == "null"
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
			case c == ',' || c == '}' || c == ']' || IsSpace(c):
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
// for valid JSON and never panics on any other input. Most callers want
// Members, which also unescapes keys and finds duplicates.
func EachMember(data []byte, fn func(key, value []byte)) bool {
	i := SkipSpace(data, 0)
	if i >= len(data) || data[i] != '{' {
		return false
	}
	i = SkipSpace(data, i+1)
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
		i = SkipSpace(data, end)
		if i >= len(data) || data[i] != ':' {
			return false
		}
		i = SkipSpace(data, i+1)
		vend := skipValue(data, i)
		if vend < 0 {
			return false
		}
		fn(key, data[i:vend])
		i = SkipSpace(data, vend)
		if i >= len(data) {
			return false
		}
		switch data[i] {
		case ',':
			i = SkipSpace(data, i+1)
		case '}':
			return true
		default:
			return false
		}
	}
	return false
}

// EachElement calls fn for every element of the JSON array data
// (surrounding whitespace allowed), in order, with its raw value, without
// decoding or allocating; fn returns false to stop early. It reports false
// when data is not an array or is malformed up to where it stopped (fn has
// then seen the elements before the fault); an early stop reports true
// without looking further. Like EachMember it is meant for valid JSON
// (check with Valid) and never panics on any other input.
func EachElement(data []byte, fn func(value []byte) bool) bool {
	i := SkipSpace(data, 0)
	if i >= len(data) || data[i] != '[' {
		return false
	}
	i = SkipSpace(data, i+1)
	if i < len(data) && data[i] == ']' {
		return true
	}
	for i < len(data) {
		end := skipValue(data, i)
		if end < 0 {
			return false
		}
		if !fn(data[i:end]) {
			return true
		}
		i = SkipSpace(data, end)
		if i >= len(data) {
			return false
		}
		switch data[i] {
		case ',':
			i = SkipSpace(data, i+1)
		case ']':
			return true
		default:
			return false
		}
	}
	return false
}

// smallObject is the member count up to which Members finds duplicates by
// comparing names pairwise (no allocation); larger objects use a map.
const smallObject = 8

// Members calls fn for every member of the JSON object data, in order, with
// the member's unescaped name (`\u006dethod` is "method"; key aliases data
// when the name has no escapes) and its raw value. Names are exact:
// "Method", "METHOD" and "ſ" are other names than "method" and "s", unlike
// encoding/json's case-insensitive struct field matching. repeated reports
// that some name appears more than once, and dup is the first such name
// (which may be the empty name ""): encoding/json would silently keep the
// last value, so a caller that rejects repeated never reads a message
// differently from a peer that keeps either value. ok is false when
// data is not an object, is malformed or a name does not unescape; fn has
// then seen the members before the fault. It never panics on any input.
func Members(data []byte, fn func(key, value []byte)) (dup string, repeated, ok bool) {
	var small [smallObject][]byte
	n := 0
	var large map[string]struct{}
	i := SkipSpace(data, 0)
	if i >= len(data) || data[i] != '{' {
		return "", false, false
	}
	i = SkipSpace(data, i+1)
	if i < len(data) && data[i] == '}' {
		return "", false, true
	}
	for i < len(data) {
		if data[i] != '"' {
			return dup, repeated, false
		}
		end := skipString(data, i)
		if end < 0 {
			return dup, repeated, false
		}
		key := data[i+1 : end-1]
		if bytes.IndexByte(key, '\\') >= 0 {
			s, ok := Unquote(key)
			if !ok {
				return dup, repeated, false
			}
			key = []byte(s)
		}
		i = SkipSpace(data, end)
		if i >= len(data) || data[i] != ':' {
			return dup, repeated, false
		}
		i = SkipSpace(data, i+1)
		vend := skipValue(data, i)
		if vend < 0 {
			return dup, repeated, false
		}
		if !repeated {
			if large == nil {
				for _, k := range small[:n] {
					if string(k) == string(key) {
						dup, repeated = string(key), true
						break
					}
				}
				if n < smallObject {
					small[n] = key
					n++
				} else {
					large = make(map[string]struct{}, 4*smallObject)
					for _, k := range small {
						large[string(k)] = struct{}{}
					}
				}
			}
			if large != nil {
				if _, seen := large[string(key)]; seen && !repeated {
					dup, repeated = string(key), true
				}
				large[string(key)] = struct{}{}
			}
		}
		fn(key, data[i:vend])
		i = SkipSpace(data, vend)
		if i >= len(data) {
			return dup, repeated, false
		}
		switch data[i] {
		case ',':
			i = SkipSpace(data, i+1)
		case '}':
			return dup, repeated, true
		default:
			return dup, repeated, false
		}
	}
	return dup, repeated, false
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
	s, ok := Unquote(raw)
	return ok && s == name
}

// Unquote unescapes raw string contents (without the quotes), as
// encoding/json decodes a string.
func Unquote(raw []byte) (string, bool) {
	s, _, fault := readString(raw, 0, false)
	if fault != "" {
		return "", false
	}
	return s, true
}

// String returns the unescaped value of a raw JSON string value (including
// its quotes), as encoding/json decodes it. ok is false if raw is not a
// valid JSON string.
func String(raw []byte) (string, bool) {
	if len(raw) < 2 || raw[0] != '"' {
		return "", false
	}
	s, end, fault := readString(raw, 1, true)
	if fault != "" || end != len(raw)-1 {
		return "", false
	}
	return s, true
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
	if raw[i] == '0' && len(raw) > i+1 {
		return false // a leading zero is not JSON
	}
	for ; i < len(raw); i++ {
		if raw[i] < '0' || raw[i] > '9' {
			return false
		}
	}
	return true
}
