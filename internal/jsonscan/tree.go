package jsonscan

import (
	"encoding/json"
	"fmt"
	"strconv"
	"unicode/utf8"
)

// SyntaxError is why Tree rejected a document.
type SyntaxError struct {
	// Offset is the byte offset of the fault.
	Offset int
	// Repeated reports that the fault is a member name repeated in one
	// object; Duplicate is that name (which may be "").
	Repeated  bool
	Duplicate string
	msg       string
}

// Error says what is wrong and where ("... (at offset N)").
func (e *SyntaxError) Error() string { return e.msg }

// Tree decodes one JSON document (no surrounding whitespace beyond JSON's)
// into the tree encoding/json builds with UseNumber: map[string]any,
// []any, string, json.Number, bool and nil. Unlike encoding/json it
// rejects a member name repeated in one object (encoding/json keeps the
// last, a validator could look at the first: one message, one parse) and
// nesting deeper than maxDepth. Strings and numbers are read as Valid and
// String read them (one grammar); FuzzTree checks the tree against
// encoding/json's. It is argcheck's parse: the one tree a tool's arguments
// are validated on and bound from. A json.Decoder in its place cost a
// quarter of a tools/call's CPU time under load.
func Tree(data []byte, maxDepth int) (any, *SyntaxError) {
	p := treeParser{data: data, maxDepth: maxDepth}
	p.i = SkipSpace(data, 0)
	v := p.value(0)
	if p.err != nil {
		return nil, p.err
	}
	if p.i = SkipSpace(data, p.i); p.i != len(data) {
		return nil, p.failAt("invalid character %s after the top-level value")
	}
	return v, nil
}

type treeParser struct {
	data     []byte
	i        int
	maxDepth int
	err      *SyntaxError
}

// fail records the first error, at p.i.
func (p *treeParser) fail(msg string) *SyntaxError {
	if p.err == nil {
		p.err = &SyntaxError{Offset: p.i, msg: fmt.Sprintf("%s (at offset %d)", msg, p.i)}
	}
	return p.err
}

// failAt is fail with the character at p.i in place of the one %s of format.
func (p *treeParser) failAt(format string) *SyntaxError {
	at := "end of input"
	if p.i < len(p.data) {
		at = strconv.QuoteRune(rune(p.data[p.i]))
		if c := p.data[p.i]; c >= utf8.RuneSelf {
			at = fmt.Sprintf("byte 0x%02x", c)
		}
	}
	return p.fail(fmt.Sprintf(format, at))
}

func (p *treeParser) value(depth int) any {
	if p.i >= len(p.data) {
		p.fail("unexpected end of input")
		return nil
	}
	if depth > p.maxDepth {
		p.fail(fmt.Sprintf("nested deeper than %d levels", p.maxDepth))
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
		end, ok := numberEnd(p.data, p.i)
		if !ok {
			p.i = end
			p.failAt("invalid character %s in a number")
			return nil
		}
		n := json.Number(p.data[p.i:end])
		p.i = end
		return n
	}
	p.failAt("invalid character %s looking for the beginning of a value")
	return nil
}

func (p *treeParser) literal(word string) {
	if len(p.data)-p.i < len(word) || string(p.data[p.i:p.i+len(word)]) != word {
		p.fail("invalid literal; want " + word)
		return
	}
	p.i += len(word)
}

// string reads the string at p.i (its opening quote).
func (p *treeParser) string() (string, bool) {
	s, at, fault := readString(p.data, p.i+1, true)
	if fault != "" {
		p.i = at
		if at < len(p.data) && p.data[at] < 0x20 {
			p.failAt("invalid control character %s in a string")
		} else {
			p.fail(fault)
		}
		return "", false
	}
	p.i = at + 1
	return s, true
}

func (p *treeParser) object(depth int) any {
	p.i = SkipSpace(p.data, p.i+1) // past '{'
	m := map[string]any{}
	if p.i < len(p.data) && p.data[p.i] == '}' {
		p.i++
		return m
	}
	for p.err == nil {
		p.i = SkipSpace(p.data, p.i)
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
			e := p.fail("duplicate member name " + strconv.Quote(k))
			e.Repeated, e.Duplicate = true, k
			return nil
		}
		if p.i = SkipSpace(p.data, p.i); p.i >= len(p.data) || p.data[p.i] != ':' {
			p.failAt("invalid character %s after a member name; want ':'")
			return nil
		}
		p.i = SkipSpace(p.data, p.i+1)
		v := p.value(depth + 1)
		if p.err != nil {
			return nil
		}
		m[k] = v
		if p.i = SkipSpace(p.data, p.i); p.i >= len(p.data) {
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

func (p *treeParser) array(depth int) any {
	p.i = SkipSpace(p.data, p.i+1) // past '['
	a := []any{}
	if p.i < len(p.data) && p.data[p.i] == ']' {
		p.i++
		return a
	}
	for p.err == nil {
		p.i = SkipSpace(p.data, p.i)
		v := p.value(depth + 1)
		if p.err != nil {
			return nil
		}
		a = append(a, v)
		if p.i = SkipSpace(p.data, p.i); p.i >= len(p.data) {
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
