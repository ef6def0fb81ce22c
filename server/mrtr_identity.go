package server

import (
	"bytes"
	"encoding/json"
	"slices"
	"unicode/utf8"

	"github.com/mcpgen/mcpgen/internal/jsonenc"
	"github.com/mcpgen/mcpgen/internal/jsonscan"
)

// identity binds a requestState to one request: method, name and the
// canonical arguments (object members sorted; absent, null and {} agree).
//
// The canonical form is what encoding/json writes for the arguments decoded
// into an any with UseNumber: members sorted by their unescaped names,
// strings re-encoded (HTML-safe, U+2028/U+2029 escaped), numbers as
// written, no whitespace. appendCanonical writes it from one flat parse
// (jsonscan.ParseTape) instead of building and re-encoding a map tree,
// byte for byte the same (FuzzIdentityCanonical checks it against the
// decode-and-marshal it replaces), so a requestState sealed before the
// change still opens after it. Arguments the tape refuses (a repeated
// member name, deeper nesting, malformed JSON) keep the old treatment.
func identity(method, name string, args []byte) string {
	return string(appendIdentity(make([]byte, 0, len(method)+len(name)+len(args)+8), method, name, args))
}

// appendIdentity appends identity(method, name, args).
func appendIdentity(dst []byte, method, name string, args []byte) []byte {
	dst = append(dst, method...)
	dst = append(dst, 0)
	dst = append(dst, name...)
	dst = append(dst, 0)
	return appendCanonicalArgs(dst, args)
}

// appendIdentityTape is appendIdentity for arguments already parsed: node
// 0 of args (their subtree of the message's one parse, which nest at most
// jsonscan.MaxArgumentsDepth < canonicalMaxDepth levels and repeat no
// name, so appendCanonicalArgs would take its tape path on them).
func appendIdentityTape(dst []byte, method, name string, args *jsonscan.Tape) []byte {
	t, i := args, 0
	dst = append(dst, method...)
	dst = append(dst, 0)
	dst = append(dst, name...)
	dst = append(dst, 0)
	if t.Kind(i) == jsonscan.KindNull || t.Kind(i) == jsonscan.KindObject && t.Len(i) == 0 {
		return append(dst, "{}"...)
	}
	c := canonicalizer{t: t}
	return c.value(dst, i)
}

// canonicalMaxDepth is the nesting the fast canonical form handles; deeper
// arguments take the encoding/json path (whose limit is 10 000).
const canonicalMaxDepth = 1000

// appendCanonicalArgs appends the canonical form of a request's arguments.
func appendCanonicalArgs(dst, args []byte) []byte {
	a := bytes.TrimSpace(args)
	if jsonscan.IsNullOrAbsent(a) || string(a) == "{}" {
		return append(dst, "{}"...)
	}
	t, err := jsonscan.ParseTape(a, canonicalMaxDepth)
	if err != nil {
		return append(dst, decodedCanonical(a)...)
	}
	c := canonicalizer{t: t}
	dst = c.value(dst, 0)
	t.Release()
	return dst
}

// decodedCanonical is the canonical form through encoding/json: decode
// (UseNumber; a repeated name keeps its last value), marshal; text that
// does not decode stands for itself.
func decodedCanonical(a []byte) []byte {
	dec := json.NewDecoder(bytes.NewReader(a))
	dec.UseNumber()
	var v any
	if dec.Decode(&v) != nil {
		return a
	}
	if b, err := json.Marshal(v); err == nil {
		return b
	}
	return []byte("{}")
}

// canonicalizer writes a tape's canonical form; members is scratch space
// for sorting the members of the objects being written (a stack: each
// object appends its own after its parent's).
type canonicalizer struct {
	t       *jsonscan.Tape
	members []canonicalMember
}

type canonicalMember struct {
	name []byte // unescaped
	node int    // the name node; the value is node+1
}

func (c *canonicalizer) value(dst []byte, i int) []byte {
	t := c.t
	switch t.Kind(i) {
	case jsonscan.KindString:
		return c.string(dst, i)
	case jsonscan.KindArray:
		dst = append(dst, '[')
		for first, e := true, t.FirstElement(i); e >= 0; first, e = false, t.NextElement(i, e) {
			if !first {
				dst = append(dst, ',')
			}
			dst = c.value(dst, e)
		}
		return append(dst, ']')
	case jsonscan.KindObject:
		return c.object(dst, i)
	}
	return append(dst, t.Raw(i)...) // null, true, false, a number as written
}

func (c *canonicalizer) object(dst []byte, obj int) []byte {
	t := c.t
	base := len(c.members)
	for m := t.FirstMember(obj); m >= 0; m = t.NextMember(obj, m) {
		name := t.Contents(m)
		if t.Escaped(m) {
			name = []byte(t.Text(m))
		}
		c.members = append(c.members, canonicalMember{name: name, node: m})
	}
	own := c.members[base:]
	slices.SortFunc(own, func(a, b canonicalMember) int { return bytes.Compare(a.name, b.name) })
	dst = append(dst, '{')
	for k, m := range own {
		if k > 0 {
			dst = append(dst, ',')
		}
		dst = jsonenc.AppendString(dst, m.name)
		dst = append(dst, ':')
		dst = c.value(dst, m.node+1)
	}
	c.members = c.members[:base]
	return append(dst, '}')
}

func (c *canonicalizer) string(dst []byte, i int) []byte {
	t := c.t
	if !t.Escaped(i) && htmlSafeASCII(t.Contents(i)) {
		return append(dst, t.Raw(i)...)
	}
	return jsonenc.AppendString(dst, t.AppendText(nil, i))
}

// htmlSafeASCII reports whether encoding/json writes s unchanged: printable
// ASCII other than '"', '\\', '<', '>' and '&'.
func htmlSafeASCII(s []byte) bool {
	for _, b := range s {
		if b < 0x20 || b >= utf8.RuneSelf || b == '"' || b == '\\' || b == '<' || b == '>' || b == '&' {
			return false
		}
	}
	return true
}
