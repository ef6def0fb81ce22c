package server

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"hash"
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

// identityDigestOf is the SHA-256 of identity(method, name, args), a zero
// byte and principal (request.identityDigest). Arguments of at least
// jsonscan.LazyArrayMin bytes are parsed lazily (spans: their large arrays,
// when the check of their message found them) and hashed as their
// canonical form is written: neither a tape of them nor their canonical
// form is ever held whole. Those the lazy parse cannot read take the path
// of identity, whose text the digest is always of.
func identityDigestOf(method, name string, args []byte, spans jsonscan.Spans, principal string) [sha256.Size]byte {
	if a := bytes.TrimSpace(args); len(a) >= jsonscan.LazyMin() && !jsonscan.IsNullOrAbsent(a) && string(a) != "{}" {
		if len(a) == 0 || &a[0] != &args[0] {
			spans = jsonscan.Spans{} // their offsets count from args' first byte
		}
		if sum, ok := lazyIdentityDigest(method, name, a, spans, principal); ok {
			return sum
		}
	}
	buf := make([]byte, 0, len(method)+len(name)+len(args)+len(principal)+8)
	buf = append(appendIdentity(buf, method, name, args), 0)
	return sha256.Sum256(append(buf, principal...))
}

// lazyIdentityDigest is identityDigestOf through jsonscan.ParseLazySpans;
// false when a window of a lazy array fails (the whole parse refuses the
// arguments too: identity then takes encoding/json's reading).
func lazyIdentityDigest(method, name string, a []byte, spans jsonscan.Spans, principal string) ([sha256.Size]byte, bool) {
	t, err := jsonscan.ParseLazySpans(a, canonicalMaxDepth, spans)
	if err != nil {
		return [sha256.Size]byte{}, false
	}
	defer t.Release()
	return hashIdentity(method, name, t, principal)
}

// hashIdentity is the identity digest of arguments parsed on t (node 0;
// lazily or whole): identity's text hashed as it is written; false when a
// window of a lazy array fails.
func hashIdentity(method, name string, t *jsonscan.Tape, principal string) ([sha256.Size]byte, bool) {
	h := sha256.New()
	dst := make([]byte, 0, 2*canonicalFlush)
	dst = append(append(append(append(dst, method...), 0), name...), 0)
	if t.Kind(0) == jsonscan.KindNull || t.Kind(0) == jsonscan.KindObject && t.Len(0) == 0 {
		dst = append(dst, "{}"...)
	} else {
		c := canonicalizer{t: t, h: h}
		if dst = c.value(dst, 0); c.failed {
			return [sha256.Size]byte{}, false
		}
	}
	h.Write(append(append(dst, 0), principal...))
	var sum [sha256.Size]byte
	h.Sum(sum[:0])
	return sum, true
}

// canonicalFlush is how much canonical form a hashing canonicalizer holds
// before it hashes it (a variable for the tests, which lower it).
var canonicalFlush = 32 << 10

// canonicalizer writes a tape's canonical form; members is scratch space
// for sorting the members of the objects being written (a stack: each
// object appends its own after its parent's). With h set, what it has
// written is hashed and dropped every canonicalFlush bytes or so (flush),
// and the lazy arrays of a tape of jsonscan.ParseLazy are read a window at
// a time (failed: a window's parse failed).
type canonicalizer struct {
	t       *jsonscan.Tape
	members []canonicalMember
	h       hash.Hash
	failed  bool
	// hole, when set, writes lazy array i instead of lazyArray: it is
	// handed what is written so far and returns it with the array appended
	// (identityReader).
	hole func(dst []byte, i int) []byte
}

// flush hashes and drops what dst holds once it is canonicalFlush long
// (only with h: dst is then all canonical form still to hash).
func (c *canonicalizer) flush(dst []byte) []byte {
	if c.h == nil || len(dst) < canonicalFlush {
		return dst
	}
	c.h.Write(dst)
	return dst[:0]
}

// lazyArray writes lazy array i's canonical form, its elements read a
// window at a time.
func (c *canonicalizer) lazyArray(dst []byte, i int) []byte {
	w := c.t.Windows(i)
	defer w.Release()
	dst = append(dst, '[')
	first := true
	for w.Next() {
		wc := canonicalizer{t: w.Tape(), members: c.members, h: c.h}
		for e := wc.t.FirstElement(0); e >= 0; e = wc.t.NextElement(0, e) {
			if !first {
				dst = append(dst, ',')
			}
			first = false
			dst = wc.flush(wc.value(dst, e))
		}
		c.members = wc.members[:len(c.members)] // the stack, perhaps grown by the window's objects
	}
	if w.Err() != nil {
		c.failed = true
	}
	return append(dst, ']')
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
		if t.Lazy(i) {
			if c.hole != nil {
				return c.hole(dst, i)
			}
			return c.lazyArray(dst, i)
		}
		dst = append(dst, '[')
		for first, e := true, t.FirstElement(i); e >= 0; first, e = false, t.NextElement(i, e) {
			if !first {
				dst = append(dst, ',')
			}
			dst = c.flush(c.value(dst, e))
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
		dst = c.flush(c.value(dst, m.node+1))
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
