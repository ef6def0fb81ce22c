package argcheck

import (
	"encoding/json"
	"fmt"
	"strconv"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// maxDepth bounds the nesting of arguments: deeper documents are
// rejected (encoding/json's own limit is 10000; a tool argument nested
// deeper than this is hostile, not useful).
const maxDepth = 512

// parseError is why a document was rejected; the caller renders it.
type parseError struct {
	offset int
	msg    string
}

func (e *parseError) Error() string { return e.msg }

// parse decodes a JSON document into the tree jsonschema.UnmarshalJSON
// builds (map[string]any, []any, string, json.Number, bool, nil): this one
// tree is what the schema validates and what the tool's struct is bound
// from, so every check and the handler see the same values. Unlike
// encoding/json it rejects a member name repeated in one object (encoding/json
// keeps the last, a validator could look at the first: one message, one
// parse). Strings are decoded exactly as encoding/json decodes them
// (escapes, surrogate pairs, invalid UTF-8 replaced by U+FFFD), which
// FuzzValidate checks against jsonschema.UnmarshalJSON. It also replaces a
// json.Decoder on the hot path: under load that decoder's buffers and
// reflection were a quarter of a tools/call's CPU time.
func parse(data []byte) (any, *parseError) {
	p := parser{data: data}
	p.space()
	v := p.value(0)
	if p.err != nil {
		return nil, p.err
	}
	p.space()
	if p.i != len(p.data) {
		return nil, p.failAt("invalid character %s after the top-level value")
	}
	return v, nil
}

type parser struct {
	data []byte
	i    int
	err  *parseError
}

// fail records the first error.
func (p *parser) fail(msg string) *parseError {
	if p.err == nil {
		p.err = &parseError{offset: p.i, msg: fmt.Sprintf("%s (at offset %d)", msg, p.i)}
	}
	return p.err
}

// failAt is fail with the current character in place of the one %s of format.
func (p *parser) failAt(format string) *parseError {
	at := "end of input"
	if p.i < len(p.data) {
		at = strconv.QuoteRune(rune(p.data[p.i]))
		if c := p.data[p.i]; c >= utf8.RuneSelf {
			at = fmt.Sprintf("byte 0x%02x", c)
		}
	}
	return p.fail(fmt.Sprintf(format, at))
}

func (p *parser) space() {
	for p.i < len(p.data) {
		switch p.data[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

func (p *parser) value(depth int) any {
	if p.i >= len(p.data) {
		p.fail("unexpected end of input")
		return nil
	}
	if depth > maxDepth {
		p.fail(fmt.Sprintf("nested deeper than %d levels", maxDepth))
		return nil
	}
	switch c := p.data[p.i]; {
	case c == '{':
		return p.object(depth)
	case c == '[':
		return p.array(depth)
	case c == '"':
		s, _ := p.string()
		return s
	case c == 't':
		p.literal("true")
		return true
	case c == 'f':
		p.literal("false")
		return false
	case c == 'n':
		p.literal("null")
		return nil
	case c == '-' || c >= '0' && c <= '9':
		return p.number()
	}
	p.failAt("invalid character %s looking for the beginning of a value")
	return nil
}

func (p *parser) literal(word string) {
	if len(p.data)-p.i < len(word) || string(p.data[p.i:p.i+len(word)]) != word {
		p.fail("invalid literal; want " + word)
		return
	}
	p.i += len(word)
}

func (p *parser) object(depth int) any {
	p.i++ // '{'
	m := map[string]any{}
	p.space()
	if p.i < len(p.data) && p.data[p.i] == '}' {
		p.i++
		return m
	}
	for p.err == nil {
		p.space()
		if p.i >= len(p.data) || p.data[p.i] != '"' {
			p.failAt("invalid character %s looking for the beginning of a member name")
			return nil
		}
		keyAt := p.i
		k, ok := p.string()
		if !ok {
			return nil
		}
		if _, dup := m[k]; dup {
			p.i = keyAt
			p.fail(fmt.Sprintf("duplicate member name %s", strconv.Quote(k)))
			return nil
		}
		p.space()
		if p.i >= len(p.data) || p.data[p.i] != ':' {
			p.failAt("invalid character %s after a member name; want ':'")
			return nil
		}
		p.i++
		p.space()
		v := p.value(depth + 1)
		if p.err != nil {
			return nil
		}
		m[k] = v
		p.space()
		if p.i >= len(p.data) {
			p.fail("unexpected end of input in an object")
			return nil
		}
		switch p.data[p.i] {
		case ',':
			p.i++
		case '}':
			p.i++
			return m
		default:
			p.failAt("invalid character %s after an object member; want ',' or '}'")
			return nil
		}
	}
	return nil
}

func (p *parser) array(depth int) any {
	p.i++ // '['
	a := []any{}
	p.space()
	if p.i < len(p.data) && p.data[p.i] == ']' {
		p.i++
		return a
	}
	for p.err == nil {
		p.space()
		v := p.value(depth + 1)
		if p.err != nil {
			return nil
		}
		a = append(a, v)
		p.space()
		if p.i >= len(p.data) {
			p.fail("unexpected end of input in an array")
			return nil
		}
		switch p.data[p.i] {
		case ',':
			p.i++
		case ']':
			p.i++
			return a
		default:
			p.failAt("invalid character %s after an array element; want ',' or ']'")
			return nil
		}
	}
	return nil
}

// string reads a string at p.i; the common case (no escapes, valid UTF-8)
// is one scan and one copy.
func (p *parser) string() (string, bool) {
	start := p.i + 1
	ascii := true
	for j := start; j < len(p.data); j++ {
		switch c := p.data[j]; {
		case c == '"':
			s := p.data[start:j]
			p.i = j + 1
			if !ascii && !utf8.Valid(s) {
				return string(appendValidUTF8(make([]byte, 0, len(s)+8), s)), true
			}
			return string(s), true
		case c == '\\':
			return p.escaped(start, j)
		case c < 0x20:
			p.i = j
			p.failAt("invalid control character %s in a string")
			return "", false
		case c >= utf8.RuneSelf:
			ascii = false
		}
	}
	p.i = len(p.data)
	p.fail("unexpected end of input in a string")
	return "", false
}

// escaped finishes a string that has an escape at j, decoding it the way
// encoding/json does.
func (p *parser) escaped(start, j int) (string, bool) {
	d := p.data
	buf := make([]byte, 0, j-start+16)
	buf = appendValidUTF8(buf, d[start:j])
	for j < len(d) {
		c := d[j]
		switch {
		case c == '"':
			p.i = j + 1
			return string(buf), true
		case c < 0x20:
			p.i = j
			p.failAt("invalid control character %s in a string")
			return "", false
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
			p.i = len(d)
			p.fail("unexpected end of input in a string escape")
			return "", false
		}
		switch e := d[j+1]; e {
		case '"', '\\', '/':
			buf = append(buf, e)
			j += 2
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
				p.i = j
				p.fail("invalid \\u escape in a string")
				return "", false
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
			p.i = j
			p.fail("invalid escape in a string")
			return "", false
		}
	}
	p.i = len(d)
	p.fail("unexpected end of input in a string")
	return "", false
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

// number reads a number in JSON's grammar:
// -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
func (p *parser) number() any {
	d, start := p.data, p.i
	i := p.i
	if d[i] == '-' {
		i++
	}
	digits := func() bool {
		n := i
		for i < len(d) && d[i] >= '0' && d[i] <= '9' {
			i++
		}
		return i > n
	}
	bad := func() any {
		p.i = i
		p.failAt("invalid character %s in a number")
		return nil
	}
	switch {
	case i < len(d) && d[i] == '0':
		i++
	case !digits():
		return bad()
	}
	if i < len(d) && d[i] == '.' {
		i++
		if !digits() {
			return bad()
		}
	}
	if i < len(d) && (d[i] == 'e' || d[i] == 'E') {
		i++
		if i < len(d) && (d[i] == '+' || d[i] == '-') {
			i++
		}
		if !digits() {
			return bad()
		}
	}
	p.i = i
	return json.Number(d[start:i])
}
