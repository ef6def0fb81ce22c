package jsonscan

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"hash/maphash"
	"math"
	"math/bits"
	"slices"
	"strconv"
	"sync"
	"unicode/utf8"
	"unsafe"
)

// NodeKind is a JSON value's kind on a Tape (Kind, the function, reads
// a raw value's first byte).
type NodeKind uint8

// The kinds of a Tape's nodes.
const (
	KindNull NodeKind = iota
	KindFalse
	KindTrue
	KindNumber
	KindString
	KindArray
	KindObject
)

// Tape is one parsed JSON document: its nodes in document order. An object
// node is followed by its members, each a name node (KindString) then the
// value's subtree; an array node by its elements' subtrees. A Tape refers
// to the document's bytes (it does not copy them) and holds 8 bytes per
// scalar and member name and 16 per object or array; it is the one parse
// a tool's arguments are validated on, decoded from and identified by.
type Tape struct {
	// Data is the parsed document, not copied: it must not change while
	// the Tape is in use.
	Data  []byte
	nodes []node
	// base is the index on the parsed tape of node 0: non-zero for a Sub
	// view, whose container tails still hold the parsed tape's indices.
	base uint32
	// kept tapes (Sub views, ParseKept's) are never pooled: Release does
	// nothing.
	kept bool
	// badUTF8 records a string with invalid UTF-8 (see ValidUTF8).
	badUTF8 bool
	// noSpans says that the check of an Opaque value with Spans found no
	// large array in it (see Spans).
	noSpans bool
	// owner is the length of the buffer Data is part of when that buffer
	// belongs to the parsed message alone (SetOwner); 0 when it does not.
	owner int
	// ext is what few tapes hold beyond their nodes: a tape of
	// ParseLazy's lazy arrays, an envelope's recorded spans (lazy.go). One
	// pointer, so that a Tape held by value stays small.
	ext *tapeExt
}

// node is one slot of a tape. A scalar (or member name) is one node:
// start is its offset, meta its kind, flags and length<<metaShift. An
// object or array is two: the first has its offset and kind |
// count<<metaShift, the second (its tail) its end offset in start and the
// index of the node after its subtree in meta.
type node struct {
	start uint32
	meta  uint32
}

// isContainer reports whether node i is an object or array (two slots).
func isContainer(ns []node, i int) bool { return NodeKind(ns[i].meta&kindMask) >= KindArray }

// nodeEnd is the offset just past node i's bytes.
func nodeEnd(ns []node, i int) uint32 {
	if isContainer(ns, i) {
		return ns[i+1].start
	}
	return ns[i].start + ns[i].meta>>metaShift
}

// nodeNext is the index of the node after i's subtree.
func nodeNext(ns []node, i int) int {
	if isContainer(ns, i) {
		return int(ns[i+1].meta)
	}
	return i + 1
}

const (
	kindMask    = 0x7
	flagEscaped = 0x8 // string: has an escape or invalid UTF-8 (Text must decode it)
	metaShift   = 4
	// MaxTapeElements bounds the members of one object and the elements of
	// one array on a Tape.
	MaxTapeElements = math.MaxUint32 >> metaShift
	// MaxTapeScalar bounds the length of one string or number (256 MiB).
	MaxTapeScalar = math.MaxUint32 >> metaShift
	// MaxTapeSize bounds the length of a document ParseTape accepts.
	MaxTapeSize = math.MaxUint32 - 1
)

// smallTapeObject is the member count up to which duplicates are found by
// comparing a name with the object's earlier names; larger objects use a
// hash table.
const smallTapeObject = 8

var tapePool = sync.Pool{New: func() any { return new(Tape) }}

// tapeParser holds the state of one ParseTape, kept with its scratch space
// in a pool.
type tapeParser struct {
	data     []byte
	i        int
	maxDepth int
	nodes    []node
	err      *SyntaxError
	badUTF8  bool
	// opaque are the values ParseEnvelope only checks, inner the Inner
	// name of the root member being read; lazy sizes the nodes from the
	// rest of the document when they first outgrow a small start.
	opaque []Opaque
	inner  string
	// rootLens and rootFirst have bit n%64 set for the raw length n and
	// the first byte n of each opaque Root name (mayBeOpaqueRoot).
	rootLens, rootFirst uint64
	innerSpans          bool // the Inner value's large arrays are recorded (Opaque.Spans)
	lazy                bool
	// names finds repeated member names of the open objects with more
	// than smallTapeObject members: a linear-probing table of name node
	// index + 1 (0 is empty), holding live entries. An object's entries
	// are the most recent ones while it is open, so removing them when it
	// closes restores the table as it was before the object.
	names []uint32
	live  int
	dirty bool // names may hold entries (a parse failed with objects open)
	// scratch are the nodes a small document is parsed into when its tape
	// gets a copy of its own (ParseEnvelope), kept for the next parse.
	scratch []node
	// x is the state of ParseLazy's lazy arrays and of an Opaque's
	// recorded spans (lazy.go): allocated once for a pooled parser that
	// needs it, kept with it, reset only after a parse that used it, so
	// that the reset of every other parse stays small.
	x *parseExtras
}

// maxScratch bounds the scratch nodes a parser keeps in the pool.
const maxScratch = 1 << 12

var tapeParsers = sync.Pool{New: func() any { return new(tapeParser) }}

var nameSeed = maphash.MakeSeed()

// ParseTape parses data with the grammar of Tree and Valid (the same number
// and string readers): a member name repeated in one object and nesting
// deeper than maxDepth are errors, as in Tree, and so is a document longer
// than MaxTapeSize or a container of more than MaxTapeElements values.
// Node 0 is the root. FuzzTape checks it against Tree and encoding/json.
// When the caller is done with the tape (nothing keeps an index or calls a
// method any more) it may hand it back with Release.
func ParseTape(data []byte, maxDepth int) (*Tape, *SyntaxError) {
	if uint64(len(data)) > MaxTapeSize {
		return nil, &SyntaxError{Offset: 0, msg: fmt.Sprintf("document of %d bytes is longer than %d", len(data), uint64(MaxTapeSize))}
	}
	t := tapePool.Get().(*Tape)
	if err := parseInto(t, data, maxDepth); err != nil {
		t.Release()
		return nil, err
	}
	return t, nil
}

// parseInto is ParseTape into t, whose nodes it reuses.
func parseInto(t *Tape, data []byte, maxDepth int) *SyntaxError {
	return parseWith(t, data, maxDepth, nil, false, nil)
}

// parseWith is parseInto with ParseEnvelope's opaque values; own gives t
// nodes of its own, of the size the document needs (for a small document,
// parsed into the parser's scratch nodes and copied, which costs less than
// sizing them beforehand from the document's bytes).
func parseWith(t *Tape, data []byte, maxDepth int, opaque []Opaque, own bool, spans []span) *SyntaxError {
	// A pooled parser is clean (see clean): only what it keeps is set.
	p := tapeParsers.Get().(*tapeParser)
	if p.dirty {
		clear(p.names)
		p.dirty = false
	}
	nodes, copyOut := t.nodes[:0], own && len(data) < 64<<10
	if copyOut {
		nodes, p.scratch = p.scratch[:0], nil
	}
	p.data, p.maxDepth, p.nodes, p.opaque = data, maxDepth, nodes, opaque
	if spans != nil {
		p.extras().spans = spans
	}
	for _, o := range opaque {
		p.rootLens |= 1 << ((len(o.Root) + 2) % 64)
		first := byte('"') // an empty name's closing quote
		if o.Root != "" {
			first = o.Root[0]
		}
		p.rootFirst |= 1 << (first % 64)
	}
	switch {
	case spans != nil:
		// Most of the document is in the lazy arrays, off the tape.
		p.nodes = make([]node, 0, 64)
	case opaque != nil && len(data) >= 64<<10:
		// The opaque value's characters would count: estimate when
		// the nodes outgrow their start instead, from what is left.
		p.nodes, p.lazy = make([]node, 0, 256), true
	case len(data) >= 64<<10:
		p.nodes = make([]node, 0, nodeEstimate(data))
	}
	p.i = SkipSpace(data, 0)
	p.value(0)
	if p.err == nil {
		if p.i = SkipSpace(data, p.i); p.i != len(data) {
			p.failAt("invalid character %s after the top-level value")
		}
	}
	t.Data, t.nodes, t.badUTF8, t.ext, t.noSpans = data, p.nodes, p.badUTF8, nil, false
	if p.x != nil && p.x.used {
		p.x.result(t, spans != nil, maxDepth)
	}
	err := p.err
	var scratch []node
	if copyOut {
		t.nodes = nil
		if err == nil {
			t.nodes = slices.Clone(p.nodes)
		}
		if cap(p.nodes) <= maxScratch {
			scratch = p.nodes[:0]
		}
	}
	dirty := p.live > 0
	if len(p.names) > 1<<16 {
		p.names, dirty = nil, false // do not pin a large table in the pool
	}
	if x := p.x; x != nil && x.used {
		*x = parseExtras{} // nothing of this parse kept in the pool
	}
	p.clean(dirty, scratch)
	tapeParsers.Put(p)
	return err
}

// clean resets p for the pool: every field zero but what a parser keeps
// from one parse to the next (its names table, whether that table may
// hold entries, its scratch nodes and extras). A parse sets only the
// fields it needs on a clean parser, where writing the whole struct at
// both ends had cost about a twentieth of a small message's parse;
// TestParserClean checks that no field is left out.
func (p *tapeParser) clean(dirty bool, scratch []node) {
	p.data, p.nodes, p.err, p.opaque, p.inner = nil, nil, nil, nil, ""
	p.i, p.maxDepth, p.live = 0, 0, 0
	p.badUTF8, p.innerSpans, p.lazy = false, false, false
	p.rootLens, p.rootFirst = 0, 0
	p.dirty, p.scratch = dirty, scratch
}

// nodeEstimate bounds the nodes of data from above, counting structure
// characters (inside strings too, so it may count more): every value and
// name but the root follows a ':', a ',', a '[' or a '{', and each object
// and array has a second node. A document of long strings full of those
// characters would be overestimated: the estimate is held to one node per
// two bytes (a denser document grows its nodes on the way).
func nodeEstimate(data []byte) int {
	open := bytes.Count(data, []byte{'['}) + bytes.Count(data, []byte{'{'})
	n := 1 + bytes.Count(data, []byte{','}) + bytes.Count(data, []byte{':'}) + 2*open
	return min(n, len(data)/2+64)
}

// Release hands t back for reuse by a later ParseTape; t and every index
// into it must not be used afterwards. Values t returned (Text, Number,
// Value) stay valid; Raw's bytes are the caller's own Data.
func (t *Tape) Release() {
	if t == nil || t.kept {
		return
	}
	if cap(t.nodes) > 1<<16 {
		t.nodes = nil // a large document's nodes go to the collector
	}
	t.Data, t.nodes, t.owner, t.ext, t.noSpans = nil, t.nodes[:0], 0, nil, false
	tapePool.Put(t)
}

// Nodes is the number of nodes on t.
func (t *Tape) Nodes() int { return len(t.nodes) }

// Kind is the kind of node i.
func (t *Tape) Kind(i int) NodeKind { return NodeKind(t.nodes[i].meta & kindMask) }

// Len is the number of members of an object node or of elements of an
// array node, and 0 for any other node.
func (t *Tape) Len(i int) int {
	if !isContainer(t.nodes, i) {
		return 0
	}
	return int(t.nodes[i].meta >> metaShift)
}

// Next is the index of the node after i's whole subtree.
func (t *Tape) Next(i int) int { return t.next(i) }

// next is nodeNext on t, whose tails hold indices base higher.
func (t *Tape) next(i int) int {
	if isContainer(t.nodes, i) {
		return int(t.nodes[i+1].meta - t.base)
	}
	return i + 1
}

// Raw is node i's bytes in Data (a string's with its quotes).
func (t *Tape) Raw(i int) []byte {
	start, end := t.nodes[i].start, nodeEnd(t.nodes, i)
	return t.Data[start:end:end]
}

// Offset is the offset in Data of node i's first byte.
func (t *Tape) Offset(i int) int { return int(t.nodes[i].start) }

// Escaped reports whether string node i has an escape or invalid UTF-8, so
// that its text differs from its raw contents.
func (t *Tape) Escaped(i int) bool { return t.nodes[i].meta&flagEscaped != 0 }

// Contents is string node i's raw contents, between its quotes; its text
// when !Escaped(i).
func (t *Tape) Contents(i int) []byte {
	start, end := t.nodes[i].start, nodeEnd(t.nodes, i)
	return t.Data[start+1 : end-1 : end-1]
}

// Text is string node i's unescaped text, as encoding/json decodes it. It
// allocates the string once (a string without escapes is one copy).
func (t *Tape) Text(i int) string {
	if !t.Escaped(i) {
		if t.aliasable(i) {
			return AliasString(t.Contents(i))
		}
		return string(t.Contents(i))
	}
	s, _, _ := readString(t.Data[:nodeEnd(t.nodes, i)], int(t.nodes[i].start)+1, true)
	return s
}

// AppendText appends string node i's unescaped text to dst.
func (t *Tape) AppendText(dst []byte, i int) []byte {
	if !t.Escaped(i) {
		return append(dst, t.Contents(i)...)
	}
	return append(dst, t.Text(i)...)
}

// TextEqual reports whether string node i's text is s; it allocates only
// for a string with escapes.
func (t *Tape) TextEqual(i int, s string) bool {
	if n := t.nodes[i]; n.meta&(kindMask|flagEscaped) == uint32(KindString) {
		// Raw text: its length (the node's, less the quotes) first.
		if int(n.meta>>metaShift) != len(s)+2 {
			return false
		}
		return string(t.Data[n.start+1:n.start+1+uint32(len(s))]) == s
	}
	if !t.Escaped(i) {
		return string(t.Contents(i)) == s
	}
	return t.Text(i) == s
}

// Key is string node i's text to compare or switch on without copying
// it: for a string without escapes a view of Data (which the caller must
// not keep: it is only valid while Data is), else its Text. A switch on
// Key(m) reads a member name in one step where a TextEqual per candidate
// name compares it once for each.
func (t *Tape) Key(i int) string {
	if n := t.nodes[i]; n.meta&flagEscaped == 0 {
		return unsafe.String(&t.Data[n.start+1], n.meta>>metaShift-2) // Contents(i)
	}
	return t.Text(i)
}

// PlainKey is Key without its call for a string with escapes, for the
// loops that read every member name of a message: string node i's text as
// a view of Data (not to be kept) and true when it has no escapes, else
// "" and false (the caller then reads Text). Small enough to be inlined,
// where a call of Key cost about 20 instructions a name.
func (t *Tape) PlainKey(i int) (string, bool) {
	n := t.nodes[i]
	if n.meta&flagEscaped != 0 {
		return "", false
	}
	return unsafe.String(&t.Data[n.start+1], n.meta>>metaShift-2), true // Contents(i)
}

// Number is number node i's literal text (json.Number's form).
func (t *Tape) Number(i int) string { return string(t.Raw(i)) }

// FirstMember is the name node of object obj's first member, or -1.
func (t *Tape) FirstMember(obj int) int {
	if t.next(obj) == obj+2 {
		return -1
	}
	return obj + 2
}

// NextMember is the name node of the member after m (a name node) in
// object obj, or -1.
func (t *Tape) NextMember(obj, m int) int {
	next := t.next(m + 1)
	if next >= int(t.nodes[obj+1].meta-t.base) { // t.next(obj), obj being an object
		return -1
	}
	return next
}

// FirstElement is array arr's first element, or -1.
func (t *Tape) FirstElement(arr int) int {
	if t.next(arr) == arr+2 {
		return -1
	}
	return arr + 2
}

// NextElement is the element after e in array arr, or -1.
func (t *Tape) NextElement(arr, e int) int {
	next := t.next(e)
	if next >= t.next(arr) {
		return -1
	}
	return next
}

// Member is the value node of object obj's member named name.
func (t *Tape) Member(obj int, name string) (value int, ok bool) {
	raw := uint64(len(name)) + 2 // a name without escapes: its raw length
	for m := t.FirstMember(obj); m >= 0; m = t.NextMember(obj, m) {
		// TextEqual's first case, inlined: a name of another raw length
		// is passed over without a call.
		if n := t.nodes[m]; n.meta&(kindMask|flagEscaped) == uint32(KindString) {
			if uint64(n.meta>>metaShift) == raw && string(t.Data[n.start+1:uint64(n.start)+raw-1]) == name {
				return m + 1, true
			}
			continue
		}
		if t.TextEqual(m, name) {
			return m + 1, true
		}
	}
	return 0, false
}

// Value builds node i's subtree as Tree (and encoding/json with UseNumber)
// would: map[string]any, []any, string, json.Number, bool and nil.
func (t *Tape) Value(i int) any {
	switch t.Kind(i) {
	case KindNull:
		return nil
	case KindFalse:
		return false
	case KindTrue:
		return true
	case KindNumber:
		return json.Number(t.Number(i))
	case KindString:
		return t.Text(i)
	case KindArray:
		a := make([]any, 0, t.Len(i))
		for e := t.FirstElement(i); e >= 0; e = t.NextElement(i, e) {
			a = append(a, t.Value(e))
		}
		return a
	}
	m := make(map[string]any, t.Len(i))
	for k := t.FirstMember(i); k >= 0; k = t.NextMember(i, k) {
		m[t.Text(k)] = t.Value(k + 1)
	}
	return m
}

// fail records the first error, at p.i.
func (p *tapeParser) fail(msg string) *SyntaxError {
	if p.err == nil {
		p.err = &SyntaxError{Offset: p.i, msg: fmt.Sprintf("%s (at offset %d)", msg, p.i)}
	}
	return p.err
}

// failAt is fail with the character at p.i in place of the one %s of format.
func (p *tapeParser) failAt(format string) *SyntaxError {
	at := "end of input"
	if p.i < len(p.data) {
		at = strconv.QuoteRune(rune(p.data[p.i]))
		if c := p.data[p.i]; c >= utf8.RuneSelf {
			at = fmt.Sprintf("byte 0x%02x", c)
		}
	}
	return p.fail(fmt.Sprintf(format, at))
}

// push appends a node for the value starting at p.i and returns its index.
func (p *tapeParser) push(n node) int {
	if len(p.nodes) == cap(p.nodes) {
		p.grow()
	}
	p.nodes = append(p.nodes, n) // room made: no growth here
	return len(p.nodes) - 1
}

// grow makes room for more nodes: doubling (append grows large slices by
// a quarter, copying a big document's nodes several times over).
func (p *tapeParser) grow() {
	n := max(64, 2*len(p.nodes))
	if p.lazy {
		p.lazy = false
		n = max(n, len(p.nodes)+nodeEstimate(p.data[p.i:]))
	}
	grown := make([]node, len(p.nodes), n)
	copy(grown, p.nodes)
	p.nodes = grown
}

// scalar adds a node for the scalar from start to p.i.
func (p *tapeParser) scalar(k NodeKind, start int, flags uint32) {
	n := p.i - start
	if n > MaxTapeScalar {
		p.tooLong(start, n)
		return
	}
	p.push(node{start: uint32(start), meta: uint32(k) | flags | uint32(n)<<metaShift})
}

// tooLong fails at the scalar from start, n bytes long.
func (p *tapeParser) tooLong(start, n int) {
	p.i = start
	p.fail(fmt.Sprintf("value of %d bytes is longer than %d", n, MaxTapeScalar))
}

// open adds the two nodes of the object or array at p.i.
func (p *tapeParser) open(k NodeKind) int {
	n := p.push(node{start: uint32(p.i), meta: uint32(k)})
	p.push(node{})
	return n
}

// close ends container n at p.i, with count members or elements.
func (p *tapeParser) close(n, count int) {
	p.nodes[n].meta |= uint32(count) << metaShift
	p.nodes[n+1] = node{start: uint32(p.i), meta: uint32(len(p.nodes))}
}

// value reads the value at p.i, with Tree's rules and messages.
func (p *tapeParser) value(depth int) {
	if p.i >= len(p.data) {
		p.fail("unexpected end of input")
		return
	}
	if depth > p.maxDepth {
		p.fail(fmt.Sprintf("nested deeper than %d levels", p.maxDepth))
		return
	}
	switch c := p.data[p.i]; {
	case c == '{':
		p.object(depth)
	case c == '[':
		p.array(depth)
	case c == '"':
		if j := skipASCII(p.data, p.i+1); j < len(p.data) && p.data[j] == '"' && j-p.i < MaxTapeScalar && len(p.nodes) < cap(p.nodes) {
			// string's common case, as in object.
			p.nodes = append(p.nodes, node{start: uint32(p.i), meta: uint32(KindString) | uint32(j+1-p.i)<<metaShift})
			p.i = j + 1
		} else {
			p.string()
		}
	case c == 't':
		p.literal("true", KindTrue)
	case c == 'f':
		p.literal("false", KindFalse)
	case c == 'n':
		p.literal("null", KindNull)
	case c == '-' || c >= '0' && c <= '9':
		end, ok := numberEnd(p.data, p.i)
		if !ok {
			p.i = end
			p.failAt("invalid character %s in a number")
			return
		}
		start := p.i
		p.i = end
		p.scalar(KindNumber, start, 0)
	default:
		p.failAt("invalid character %s looking for the beginning of a value")
	}
}

func (p *tapeParser) literal(word string, k NodeKind) {
	if len(p.data)-p.i < len(word) || string(p.data[p.i:p.i+len(word)]) != word {
		p.fail("invalid literal; want " + word)
		return
	}
	start := p.i
	p.i += len(word)
	p.scalar(k, start, 0)
}

// string reads the string at p.i (its opening quote) into a node.
func (p *tapeParser) string() bool {
	// Most strings are short ASCII without escapes: when the first byte
	// skipPlain stops at is the closing quote, that is all scanString
	// would find.
	if j := skipASCII(p.data, p.i+1); j < len(p.data) && p.data[j] == '"' {
		start := p.i
		p.i = j + 1
		if n := p.i - start; n <= MaxTapeScalar && len(p.nodes) < cap(p.nodes) {
			// scalar's common case, without the call.
			p.nodes = append(p.nodes, node{start: uint32(start), meta: uint32(KindString) | uint32(n)<<metaShift})
		} else {
			p.scalar(KindString, start, 0)
		}
		return p.err == nil
	}
	end, escaped, badUTF8, fault := scanString(p.data, p.i+1)
	p.badUTF8 = p.badUTF8 || badUTF8
	if fault != "" {
		p.i = end
		if end < len(p.data) && p.data[end] < 0x20 {
			p.failAt("invalid control character %s in a string")
		} else {
			p.fail(fault)
		}
		return false
	}
	start := p.i
	p.i = end + 1
	var flags uint32
	if escaped {
		flags = flagEscaped
	}
	p.scalar(KindString, start, flags)
	return p.err == nil
}

// object reads the object at p.i. It works on a local copy of p.i, written
// back before every call that reads it (and read again after): each
// member's punctuation is looked for where it is in a compact document,
// and SkipSpace runs only when it is not there. A member's value that is
// a plain string is written here, and an object value read without value's
// dispatch: together the per-member work of a message's parse.
func (p *tapeParser) object(depth int) {
	// open's two nodes, without the call.
	obj := len(p.nodes)
	if cap(p.nodes)-obj < 2 {
		p.grow()
	}
	p.nodes = append(p.nodes, node{start: uint32(p.i), meta: uint32(KindObject)}, node{})
	data := p.data
	i := p.i + 1 // past '{'
	count := 0
	// lens has a bit set for each name read so far (nameBit, of its raw
	// length and first byte): a name without escapes whose bit no
	// earlier name set repeats none of them (equal raw names have equal
	// lengths and first bytes), so repeated need not look. After a name
	// with escapes, and past smallTapeObject members (repeated's hash
	// table), every bit is set.
	var lens uint64
	// special says that a member's name must be compared before its
	// value is read: an opaque Root's or Inner's object (rootMember,
	// skipInner). It holds for the whole object.
	special := depth == 0 && p.opaque != nil || depth == 1 && p.inner != ""
	for {
		if uint(i) >= uint(len(data)) || data[i] != '"' {
			i = SkipSpace(data, i)
			if count == 0 && i < len(data) && data[i] == '}' {
				p.i = i + 1
				p.close(obj, 0)
				return
			}
			if i >= len(data) || data[i] != '"' {
				p.i = i
				p.failAt("invalid character %s looking for the beginning of a member name")
				return
			}
		}
		name := len(p.nodes)
		var bit uint64
		if j := skipASCII(data, i+1); uint(j) < uint(len(data)) && data[j] == '"' && j-i < MaxTapeScalar && name < cap(p.nodes) {
			// string's common case (a plain name) written out here:
			// calling string cost about a twentieth of a parse.
			p.nodes = append(p.nodes, node{start: uint32(i), meta: uint32(KindString) | uint32(j+1-i)<<metaShift})
			bit = nameBit(j+1-i, data[i+1])
			i = j + 1
		} else {
			p.i = i
			if !p.string() {
				return
			}
			i = p.i
			nd := p.nodes[name]
			bit = nameBit(int(nd.meta>>metaShift), data[nd.start+1])
			if nd.meta&flagEscaped != 0 {
				lens = ^uint64(0)
			}
		}
		if count++; count > smallTapeObject {
			if count > MaxTapeElements {
				p.i = i
				p.fail(fmt.Sprintf("more than %d members in an object", MaxTapeElements))
				return
			}
			lens = ^uint64(0)
		}
		if lens&bit != 0 && p.repeated(obj, name, count) {
			p.duplicate(name)
			return
		}
		lens |= bit
		if uint(i) >= uint(len(data)) || data[i] != ':' {
			if i = SkipSpace(data, i); i >= len(data) || data[i] != ':' {
				p.i = i
				p.failAt("invalid character %s after a member name; want ':'")
				return
			}
		}
		if i++; uint(i) < uint(len(data)) && data[i] <= ' ' {
			i = SkipSpace(data, i)
		}
		switch {
		case special && depth == 0 && p.mayBeOpaqueRoot(name):
			p.i = i
			p.rootMember(name, depth)
		case special && depth == 1 && p.sameText(name, p.inner):
			p.i = i
			p.skipInner(depth + 1)
		case depth >= p.maxDepth || uint(i) >= uint(len(data)):
			p.i = i
			p.value(depth + 1) // its failure
		case data[i] == '"':
			if j := skipASCII(data, i+1); uint(j) < uint(len(data)) && data[j] == '"' && j-i < MaxTapeScalar && len(p.nodes) < cap(p.nodes) {
				// value's common case, as for the name.
				p.nodes = append(p.nodes, node{start: uint32(i), meta: uint32(KindString) | uint32(j+1-i)<<metaShift})
				p.i = j + 1
			} else {
				p.i = i
				p.string()
			}
		case data[i] == '{':
			p.i = i
			p.object(depth + 1)
		default:
			p.i = i
			p.value(depth + 1)
		}
		if p.err != nil {
			return
		}
		i = p.i
		c := byte(0)
		if uint(i) < uint(len(data)) {
			c = data[i]
		}
		if c <= ' ' {
			if i = SkipSpace(data, i); i >= len(data) {
				p.i = i
				p.fail("unexpected end of input in an object")
				return
			}
			c = data[i]
		}
		switch c {
		case ',':
			i++
		case '}':
			p.i = i + 1
			p.close(obj, count)
			if count > smallTapeObject {
				p.forget(obj)
			}
			return
		default:
			p.i = i
			p.failAt("invalid character %s after an object member; want ',' or '}'")
			return
		}
	}
}

func (p *tapeParser) array(depth int) {
	if x := p.x; x != nil && x.spanAt < len(x.spans) && depth > 0 && int(x.spans[x.spanAt].start) == p.i {
		p.lazyArray(depth)
		return
	}
	arr := p.open(KindArray)
	p.i = SkipSpace(p.data, p.i+1) // past '['
	if p.i < len(p.data) && p.data[p.i] == ']' {
		p.i++
		p.close(arr, 0)
		return
	}
	count := 0
	for p.err == nil {
		p.i = SkipSpace(p.data, p.i)
		p.value(depth + 1)
		if p.err != nil {
			return
		}
		if count++; count > MaxTapeElements {
			p.fail(fmt.Sprintf("more than %d elements in an array", MaxTapeElements))
			return
		}
		if p.i = SkipSpace(p.data, p.i); p.i >= len(p.data) {
			p.fail("unexpected end of input in an array")
			return
		}
		switch p.data[p.i] {
		case ',':
			p.i++
		case ']':
			p.i++
			p.close(arr, count)
			return
		default:
			p.failAt("invalid character %s after an array element; want ',' or ']'")
			return
		}
	}
}

// nameBit is object's filter bit for a name without escapes of raw length
// n (its quotes included) whose first byte (the one after its opening
// quote) is first: equal names have the same bit, and names of one length
// that begin differently ("method" and "params") mostly do not.
func nameBit(n int, first byte) uint64 {
	return 1 << (uint(n+int(first)) % 64)
}

// repeated reports whether name node name, the count-th member name of
// the open object obj, repeats an earlier name of obj (compared as
// unescaped text, as Tree compares), checked as soon as it is read, as
// Tree does.
func (p *tapeParser) repeated(obj, name, count int) bool {
	if count <= smallTapeObject {
		nm := p.nodes[name].meta
		for m := obj + 2; m < name; m = nodeNext(p.nodes, m+1) {
			// sameName's first test, without the call.
			if rawNamesDiffer(p.nodes[m].meta, nm) {
				continue
			}
			if p.sameName(m, name) {
				return true
			}
		}
		return false
	}
	if count == smallTapeObject+1 {
		for m := obj + 2; m < name; m = nodeNext(p.nodes, m+1) {
			p.insert(obj, m)
		}
	}
	return !p.insert(obj, name)
}

// hashName hashes name node n's text.
func (p *tapeParser) hashName(n int) uint64 {
	if p.nodes[n].meta&flagEscaped != 0 {
		return maphash.String(nameSeed, p.text(n))
	}
	return maphash.Bytes(nameSeed, p.contents(n))
}

// insert adds name node n of the open object obj to the table, or
// reports false when obj already has that name.
func (p *tapeParser) insert(obj, n int) bool {
	if 2*(p.live+1) > len(p.names) {
		p.growNames()
	}
	mask := uint64(len(p.names) - 1)
	for slot := p.hashName(n) & mask; ; slot = (slot + 1) & mask {
		e := int(p.names[slot]) - 1
		if e < 0 {
			p.names[slot] = uint32(n) + 1
			p.live++
			return true
		}
		// Entries after obj are its own (those of objects inside it left
		// when they closed).
		if e > obj && p.sameName(e, n) {
			return false
		}
	}
}

// growNames doubles the table and re-inserts its live entries in the order
// they came (node order), so that removing the newest entries still
// restores the table exactly.
func (p *tapeParser) growNames() {
	var entries []uint32
	for _, e := range p.names {
		if e != 0 {
			entries = append(entries, e)
		}
	}
	slices.Sort(entries)
	p.names = make([]uint32, max(64, 2*len(p.names)))
	mask := uint64(len(p.names) - 1)
	for _, e := range entries {
		slot := p.hashName(int(e)-1) & mask
		for p.names[slot] != 0 {
			slot = (slot + 1) & mask
		}
		p.names[slot] = e
	}
}

// forget removes the names of the closed object obj from the table.
func (p *tapeParser) forget(obj int) {
	mask := uint64(len(p.names) - 1)
	end := nodeNext(p.nodes, obj)
	for m := obj + 2; m < end; m = nodeNext(p.nodes, m+1) {
		for slot := p.hashName(m) & mask; ; slot = (slot + 1) & mask {
			if int(p.names[slot]) == m+1 {
				p.names[slot] = 0
				p.live--
				break
			}
		}
	}
}

func (p *tapeParser) contents(n int) []byte {
	return p.data[p.nodes[n].start+1 : nodeEnd(p.nodes, n)-1]
}

func (p *tapeParser) text(n int) string {
	if p.nodes[n].meta&flagEscaped == 0 {
		return string(p.contents(n))
	}
	s, _, _ := readString(p.data[:nodeEnd(p.nodes, n)], int(p.nodes[n].start)+1, true)
	return s
}

// sameName reports whether name nodes a and b have the same text.
func (p *tapeParser) sameName(a, b int) bool {
	ma, mb := p.nodes[a].meta, p.nodes[b].meta
	if (ma|mb)&flagEscaped == 0 {
		return !rawNamesDiffer(ma, mb) && bytes.Equal(p.contents(a), p.contents(b))
	}
	return p.text(a) == p.text(b)
}

// rawNamesDiffer reports, from their metas alone, that two name nodes
// without escapes have different texts: equal raw names have equal metas
// (kind, no flags, the same length), which settles most pairs without
// their bytes. false says nothing for names with escapes.
func rawNamesDiffer(ma, mb uint32) bool {
	return (ma|mb)&flagEscaped == 0 && ma != mb
}

// duplicate fails at name node m, a repeated member name, as Tree does.
func (p *tapeParser) duplicate(m int) {
	name := p.text(m)
	p.i = int(p.nodes[m].start)
	e := p.fail("duplicate member name " + strconv.Quote(name))
	e.Repeated, e.Duplicate = true, name
}

// scanString checks the contents of a JSON string starting at data[i],
// just past its opening quote, with readString's grammar, without decoding
// it: it returns the index of the closing quote and whether the text
// differs from the raw contents (an escape, or invalid UTF-8 that decodes
// to U+FFFD, which also sets badUTF8); on a fault, the offending index and
// why, as readString.
func scanString(data []byte, i int) (end int, escaped, badUTF8 bool, fault string) {
	// high is highBytes while the string is ASCII so far (skipPlain stops
	// at bytes >= 0x80 too), 0 once a byte >= 0x80 was seen.
	high := uint64(highBytes)
	j := i
	fast := i // from here on try eight bytes at a time
	for j < len(data) {
		if j >= fast {
			j = skipPlain(data, j, high)
			fast = j + 1 // data[j] stopped it (or the last partial block starts there)
			if j >= len(data) {
				break
			}
		}
		switch c := data[j]; {
		case c == '"':
			if high == 0 && !utf8.Valid(data[i:j]) {
				escaped, badUTF8 = true, true
			}
			return j, escaped, badUTF8, ""
		case c == '\\':
			if j+1 >= len(data) {
				return len(data), false, false, "unexpected end of input in a string escape"
			}
			switch data[j+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				j += 2
			case 'u':
				if hex4(data[j+2:]) < 0 {
					return j, false, false, "invalid \\u escape in a string"
				}
				j += 6
			default:
				return j, false, false, "invalid escape in a string"
			}
			escaped = true
			continue
		case c < 0x20:
			return j, false, false, "invalid control character in a string"
		case c >= utf8.RuneSelf:
			high = 0
		}
		j++
	}
	return len(data), false, false, "unexpected end of input in a string"
}

// highBytes is skipPlain's high for a string read as ASCII so far: it
// stops at bytes >= 0x80 too.
const highBytes = 0x8080808080808080

// skipPlain returns the index of the first byte from j that scanString
// must look at ('"', '\\', a control character, and the bytes >= 0x80 when
// high is highBytes rather than 0) when one is in a whole eight-byte
// block, else the start of the last partial block: the bytes it skips are
// plain string contents. The tests are exact for the lowest such byte of a
// block (a borrow only comes from a byte that is one, and only moves up):
// its bit is the lowest set. Small enough to be inlined.
func skipPlain(data []byte, j int, high uint64) int {
	const lsb, msb = 0x0101010101010101, 0x8080808080808080
	for ; j+8 <= len(data); j += 8 {
		x := binary.LittleEndian.Uint64(data[j:])
		q, b := x^(lsb*'"'), x^(lsb*'\\')
		if stop := ((q-lsb)&^q|(b-lsb)&^b|(x-lsb*0x20)&^x)&msb | x&high; stop != 0 {
			return j + bits.TrailingZeros64(stop)/8
		}
	}
	return j
}

// skipASCII is skipPlain(data, j, highBytes) with fewer operations a
// block: as the bytes >= 0x80 stop it anyway, the tests need no mask
// against them. For the lowest byte that stops it, the bytes below are
// 0x20 to 0x7f and neither a quote nor a backslash, so none of the three
// differences borrows from or sets the top bit of one of them, and that
// byte sets its own top bit (a byte >= 0x80 by itself, a quote, a
// backslash or a control character through a borrow from it alone).
// FuzzSkipASCII checks it against skipPlain.
//
// The blocks are read through a pointer, so that the loop checks no
// bounds: j+8 <= len(data) is all a block needs, and j >= 0 holds for
// every caller (an index just past a quote). A string's blocks are a tenth
// of a call's instructions. The pointer is made in the loop itself: a
// helper's inlined call there left a NOP of its own in every block.
func skipASCII(data []byte, j int) int {
	const lsb, msb = 0x0101010101010101, 0x8080808080808080
	for ; j+8 <= len(data); j += 8 {
		w := (*[8]byte)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(data)), j))
		x := binary.LittleEndian.Uint64(w[:])
		q, b := x^(lsb*'"'), x^(lsb*'\\')
		if stop := ((q - lsb) | (b - lsb) | (x - lsb*0x20) | x) & msb; stop != 0 {
			return j + bits.TrailingZeros64(stop)/8
		}
	}
	return j
}
