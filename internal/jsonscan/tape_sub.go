package jsonscan

import (
	"fmt"
	"unicode/utf8"
)

// ParseKept is ParseTape for a tape the caller keeps as long as anything
// refers to it: returned by value, its nodes its own (never from or back
// to the pool: Release does nothing), so the parse of a small document
// costs one allocation.
func ParseKept(data []byte, maxDepth int) (Tape, *SyntaxError) {
	return ParseEnvelope(data, maxDepth)
}

// Opaque names a value ParseEnvelope only checks: the value of the root
// object's member Root, or with Inner, the value of the member Inner of
// the object that is Root's value. With Spans, the check also records the
// value's large arrays for ParseLazySpans (see Tape.Spans).
type Opaque struct {
	Root, Inner string
	Spans       bool
}

// ParseEnvelope is ParseKept for a JSON-RPC message (jsonrpc.Decode's one
// parse, carried by its Message, whose params a task or a listen stream
// may hold after the request returns), except that the opaque values (a
// response's "result", which nothing reads but as raw bytes) are only
// checked, with Valid's grammar and nesting limit (names inside them are
// not compared), and each kept as one node: Raw is its bytes, Opaque
// reports it, and an object or array of it has Len 0 and no members on
// the tape. So a large result costs no nodes.
func ParseEnvelope(data []byte, maxDepth int, opaque ...Opaque) (Tape, *SyntaxError) {
	var t Tape
	err := ParseEnvelopeInto(&t, data, maxDepth, opaque...)
	return t, err
}

// ParseEnvelopeInto is ParseEnvelope writing the tape into *t (the zero
// Tape on failure), so that a caller holding the tape in a struct of its
// own (jsonrpc.Decode's Message) does not copy it out of a result.
func ParseEnvelopeInto(t *Tape, data []byte, maxDepth int, opaque ...Opaque) *SyntaxError {
	if uint64(len(data)) > MaxTapeSize {
		*t = Tape{}
		return &SyntaxError{Offset: 0, msg: fmt.Sprintf("document of %d bytes is longer than %d", len(data), uint64(MaxTapeSize))}
	}
	// Nodes of its own, of the size this document needs (a pooled tape's
	// may be far larger).
	*t = Tape{kept: true}
	if err := parseWith(t, data, maxDepth, opaque, true, nil); err != nil {
		*t = Tape{}
		return err
	}
	return nil
}

// Opaque reports whether node i is an opaque value ParseEnvelope only
// checked (an object or array without its members on the tape).
func (t *Tape) Opaque(i int) bool {
	return isContainer(t.nodes, i) && t.nodes[i].meta&flagEscaped != 0
}

// rootMember reads the value of the root member whose name is node name
// (at p.i), skipping it or its Inner member when an Opaque says so.
func (p *tapeParser) rootMember(name, depth int) {
	for _, o := range p.opaque {
		if !p.sameText(name, o.Root) {
			continue
		}
		if o.Inner == "" {
			p.skip(depth + 1)
			return
		}
		p.inner, p.innerSpans = o.Inner, o.Spans
		p.value(depth + 1)
		p.inner, p.innerSpans = "", false
		return
	}
	p.value(depth + 1)
}

// mayBeOpaqueRoot reports whether root member name node n may be one of
// the opaque Root names, so that rootMember must compare it with them: a
// name with escapes may be any; a plain one only if its raw length and its
// first byte are those of one (rootLens, rootFirst). The four members of a
// request are told so without a call or a comparison of their bytes.
func (p *tapeParser) mayBeOpaqueRoot(n int) bool {
	nd := p.nodes[n]
	if nd.meta&flagEscaped != 0 {
		return true
	}
	return p.rootLens>>(nd.meta>>metaShift%64)&1 != 0 && p.rootFirst>>(p.data[nd.start+1]%64)&1 != 0
}

// sameText reports whether name node n's text is s. A name without
// escapes is s only if its raw length (its quotes included) is len(s)+2:
// that is checked before its bytes are.
func (p *tapeParser) sameText(n int, s string) bool {
	if m := p.nodes[n].meta; m&flagEscaped == 0 {
		return int(m>>metaShift) == len(s)+2 && string(p.data[p.nodes[n].start+1:p.nodes[n].start+1+uint32(len(s))]) == s
	}
	return p.text(n) == s
}

// skipInner is skip for an Opaque's Inner value, recording its large
// arrays when the Opaque says so: the tape then carries them (Spans).
func (p *tapeParser) skipInner(depth int) {
	if !p.innerSpans || p.i >= len(p.data) || p.data[p.i] != '{' && p.data[p.i] != '[' {
		p.skip(depth)
		return
	}
	x := p.extras()
	x.recorder = spanRecorder{root: p.i, min: lazyArrayMin}
	x.rec = &x.recorder
	p.skip(depth)
	x.rec = nil
	if p.err == nil {
		x.spanned, x.spanNode = x.recorder.spans(), len(p.nodes)-2
	}
	x.recorder = spanRecorder{}
}

// skip reads the value at p.i as ParseEnvelope's opaque value: a scalar as
// value does; an object or array checked by Valid's reader (from depth, as
// Valid counts it) and kept as a container without members.
func (p *tapeParser) skip(depth int) {
	if p.i >= len(p.data) || p.data[p.i] != '{' && p.data[p.i] != '[' {
		p.value(depth)
		return
	}
	k := KindArray
	if p.data[p.i] == '{' {
		k = KindObject
	}
	start := p.i
	v := validator{data: p.data, i: p.i}
	if p.x != nil {
		v.rec = p.x.rec
	}
	if !v.value(depth) {
		p.i = v.i
		p.fail("invalid JSON in the opaque value")
		return
	}
	n := p.open(k)
	p.nodes[n].meta |= flagEscaped // on a container: opaque
	p.i = v.i
	p.close(n, 0)
	if !utf8.Valid(p.data[start:p.i]) {
		p.badUTF8 = true
	}
}

// ValidUTF8 reports whether every string on t is valid UTF-8 (outside
// strings a parsed document is ASCII): utf8.Valid(t.Data) for the whole
// parsed document, without reading its bytes again.
func (t *Tape) ValidUTF8() bool { return !t.badUTF8 }

// Sub is node i's subtree as a tape of its own, its node 0: Raw(0) is
// node i's bytes; it shares t's nodes and Data (nothing is copied) and
// Release does nothing on it. The document it is the parse of is Raw(0)
// (Data stays the whole document: Offset counts from its start, and
// ValidUTF8 speaks for the whole document).
func (t *Tape) Sub(i int) Tape {
	end := t.next(i)
	return Tape{Data: t.Data, nodes: t.nodes[i:end:end], base: t.base + uint32(i), kept: true, badUTF8: t.badUTF8, owner: t.owner,
		ext: t.ext, noSpans: t.noSpans}
}

// MaxArgumentsDepth bounds the nesting of a tool's arguments (argcheck's
// limit); a message's one parse (jsonrpc.Decode) takes two levels more,
// the envelope and params that hold them.
const MaxArgumentsDepth = 512
