package jsonscan

import (
	"fmt"
	"sort"
)

// LazyArrayMin is the size in bytes from which ParseLazy keeps an array's
// elements off the tape (LazyMin, unless a test lowered it).
const LazyArrayMin = 64 << 10

// tapeExt is what a Tape holds beyond its nodes (Tape.ext).
type tapeExt struct {
	lazy     *lazyInfo // a tape of ParseLazy's lazy arrays
	spans    Spans     // the large arrays of node spanNode (an index on the parsed tape), an Opaque value checked with Spans
	spanNode int
}

// lazyOf is t's lazy arrays, nil for a tape not of ParseLazy. A Sub view
// shares its tape's ext, whose lazy arrays are known by their indices on
// that tape: a view of a subtree (base > 0) has none.
func (t *Tape) lazyOf() *lazyInfo {
	if t.ext == nil || t.base != 0 {
		return nil
	}
	return t.ext.lazy
}

// lazyInfo is what a tape of ParseLazy knows of its lazy arrays.
type lazyInfo struct {
	nodes    []lazyNode // in document order
	maxDepth int
}

// lazyNode is a lazy array on a tape: its node and its nesting depth.
type lazyNode struct {
	node, depth int
}

// span is a large array lazySpans found: its bytes are data[start:end]
// (from '[' to just past ']'), count its elements.
type span struct{ start, end, count uint32 }

// ParseLazy is ParseTape, except that an array of at least LazyMin()
// bytes that is not the root and not inside another such array is kept
// on the tape as one node, without its elements: Lazy reports it, Len is
// its element count, Raw its bytes, and Windows parses its elements, a
// few at a time, onto a tape of their own. A tool's large arguments are
// so validated and decoded an element at a time, without a tape of the
// whole document beside the message.
//
// The arrays are found by a first pass that does not check the grammar
// (lazySpans); the tape's own parse checks everything else, and Windows
// the elements: a document ParseTape refuses is refused by ParseLazy or
// by the Windows of one of its lazy arrays, which also fail when the
// elements do not end where the first pass said. A caller that must
// refuse what ParseTape refuses reads every lazy array's windows.
func ParseLazy(data []byte, maxDepth int) (*Tape, *SyntaxError) {
	return parseLazy(data, maxDepth, lazyArrayMin)
}

// ParseLazyMin is ParseLazy with arrays of at least min bytes kept off
// the tape, for the tests of its users (a small min makes most arrays
// lazy).
func ParseLazyMin(data []byte, maxDepth, min int) (*Tape, *SyntaxError) {
	return parseLazy(data, maxDepth, min)
}

// Spans are the large arrays of one value, which ParseEnvelope's check of
// an Opaque with Spans found (Tape.Spans): ParseLazySpans takes them
// instead of looking for them again. The zero Spans is unknown.
type Spans struct {
	list  []span // offsets from the value's first byte
	known bool
}

// Spans returns the large arrays of opaque node i, when ParseEnvelope's
// check of it recorded them (Opaque.Spans); else the zero Spans.
func (t *Tape) Spans(i int) Spans {
	if t.noSpans && t.Opaque(i) {
		// The one opaque value checked with Spans (a message has no
		// other: its result is a response's, its arguments a request's).
		return Spans{known: true}
	}
	if t.ext == nil || !t.ext.spans.known || i+int(t.base) != t.ext.spanNode {
		return Spans{}
	}
	return t.ext.spans
}

// ParseLazySpans is ParseLazy for data, a value whose large arrays spans
// are (from Tape.Spans on the tape of the message it is part of): they are
// not looked for again. Unknown spans are looked for, as ParseLazy does.
// Spans that do not match data make the windows of their arrays fail
// (Windows), never a different document.
func ParseLazySpans(data []byte, maxDepth int, spans Spans) (*Tape, *SyntaxError) {
	if !spans.known {
		return ParseLazy(data, maxDepth)
	}
	if len(spans.list) == 0 {
		return ParseTape(data, maxDepth)
	}
	return parseSpans(data, maxDepth, spans.list)
}

// spanRecorder collects the large arrays of a value while Valid's reader
// checks it (validator.rec): the outermost arrays of at least min bytes
// but the value itself, whose first byte is at root.
type spanRecorder struct {
	root, min int
	list      []span // absolute offsets while recording
}

// add records the array from start to end (past its ']') of count
// elements, dropping the ones recorded inside it (they close first).
func (r *spanRecorder) add(start, end, count int) {
	if start == r.root || end-start < r.min || count > MaxTapeElements {
		return
	}
	for len(r.list) > 0 && int(r.list[len(r.list)-1].start) > start {
		r.list = r.list[:len(r.list)-1]
	}
	r.list = append(r.list, span{start: uint32(start), end: uint32(end), count: uint32(count)})
}

// spans is what r recorded, relative to the value.
func (r *spanRecorder) spans() Spans {
	for k := range r.list {
		r.list[k].start -= uint32(r.root)
		r.list[k].end -= uint32(r.root)
	}
	return Spans{list: r.list, known: true}
}

// parseLazy is ParseLazyMin.
func parseLazy(data []byte, maxDepth, min int) (*Tape, *SyntaxError) {
	if uint64(len(data)) > MaxTapeSize {
		return nil, &SyntaxError{Offset: 0, msg: fmt.Sprintf("document of %d bytes is longer than %d", len(data), uint64(MaxTapeSize))}
	}
	spans := lazySpans(data, min, maxDepth)
	if len(spans) == 0 {
		return ParseTape(data, maxDepth)
	}
	return parseSpans(data, maxDepth, spans)
}

// parseSpans parses data with spans (in document order) lazy.
func parseSpans(data []byte, maxDepth int, spans []span) (*Tape, *SyntaxError) {
	if uint64(len(data)) > MaxTapeSize {
		return nil, &SyntaxError{Offset: 0, msg: fmt.Sprintf("document of %d bytes is longer than %d", len(data), uint64(MaxTapeSize))}
	}
	t := tapePool.Get().(*Tape)
	if err := parseWith(t, data, maxDepth, nil, false, spans); err != nil {
		t.Release()
		return nil, err
	}
	return t, nil
}

// lazySpans returns the arrays of data of at least min bytes that are
// neither its root nor inside another such array, in document order, with
// their element counts; nil when there are none, or when data's brackets
// do not balance or nest deeper than maxDepth (the parse then fails on
// its own). It reads strings only to their end and checks nothing else.
func lazySpans(data []byte, min, maxDepth int) []span {
	if len(data) < min {
		return nil
	}
	type frame struct {
		start, commas int
		array, filled bool
	}
	var stack []frame
	var spans []span
	n := len(data)
	for i := 0; i < n; i++ {
		c := data[i]
		switch c {
		case ' ', '\t', '\r', '\n':
			continue
		case ',':
			if k := len(stack) - 1; k >= 0 && stack[k].array {
				stack[k].commas++
			}
			continue
		case ':':
			continue
		}
		if k := len(stack) - 1; k >= 0 && c != ']' && c != '}' {
			stack[k].filled = true
		}
		switch c {
		case '"':
			j := i + 1
			for {
				j = skipASCII(data, j)
				if j >= n {
					return nil
				}
				if data[j] == '"' {
					break
				}
				if data[j] == '\\' {
					j++
				}
				j++
			}
			i = j
		case '[', '{':
			if len(stack) > maxDepth {
				return nil
			}
			stack = append(stack, frame{start: i, array: c == '['})
		case ']', '}':
			k := len(stack) - 1
			if k < 0 || stack[k].array != (c == ']') {
				return nil
			}
			f := stack[k]
			stack = stack[:k]
			if f.array && k > 0 && i+1-f.start >= min {
				count := 0
				if f.filled {
					count = f.commas + 1
				}
				if count > MaxTapeElements {
					return nil
				}
				// Spans found earlier inside this one are not outermost.
				for len(spans) > 0 && int(spans[len(spans)-1].start) > f.start {
					spans = spans[:len(spans)-1]
				}
				spans = append(spans, span{start: uint32(f.start), end: uint32(i + 1), count: uint32(count)})
			}
		}
	}
	if len(stack) != 0 {
		return nil
	}
	return spans
}

// parseExtras is a parser's state for ParseLazy's lazy arrays and an
// Opaque's recorded spans (tapeParser.x).
type parseExtras struct {
	used bool // set by extras: reset after the parse
	// spans are the large arrays ParseLazy keeps off the tape (lazySpans),
	// in document order; spanAt the next one to meet; lazyNodes the nodes
	// made for them.
	spans     []span
	spanAt    int
	lazyNodes []lazyNode
	// rec records the large arrays of the Opaque value being checked
	// (skipInner, into recorder); spanned are those of the one so checked,
	// node spanNode.
	rec      *spanRecorder
	recorder spanRecorder
	spanned  Spans
	spanNode int
}

// extras is p.x, made if need be and marked used.
func (p *tapeParser) extras() *parseExtras {
	if p.x == nil {
		p.x = new(parseExtras)
	}
	p.x.used = true
	return p.x
}

// result gives t what the parse recorded: the lazy arrays of a ParseLazy
// (lazy), or the spans an Opaque with Spans recorded.
func (x *parseExtras) result(t *Tape, lazy bool, maxDepth int) {
	switch {
	case lazy:
		t.ext = &tapeExt{lazy: &lazyInfo{nodes: x.lazyNodes, maxDepth: maxDepth}}
	case len(x.spanned.list) > 0:
		t.ext = &tapeExt{spans: x.spanned, spanNode: x.spanNode}
	case x.spanned.known:
		t.noSpans = true // recorded, none: no allocation for that
	}
}

// lazyArray adds the node of the lazy array at p.i (the next span), at
// depth, and moves past it.
func (p *tapeParser) lazyArray(depth int) {
	x := p.x
	s := x.spans[x.spanAt]
	x.spanAt++
	n := p.open(KindArray)
	p.nodes[n].meta |= flagEscaped // on a container: opaque
	p.i = int(s.end)
	p.close(n, int(s.count))
	x.lazyNodes = append(x.lazyNodes, lazyNode{node: n, depth: depth})
}

// Lazy reports whether node i is a lazy array of a tape of ParseLazy: an
// array whose elements are not on the tape (see Windows).
func (t *Tape) Lazy(i int) bool { return t.lazyOf() != nil && t.Opaque(i) }

// LazyArrays is the nodes of t's lazy arrays, in document order (nil for a
// tape with none).
func (t *Tape) LazyArrays() []int {
	lz := t.lazyOf()
	if lz == nil {
		return nil
	}
	nodes := make([]int, len(lz.nodes))
	for k, l := range lz.nodes {
		nodes[k] = l.node
	}
	return nodes
}

// LazyWithin reports whether node i's subtree holds a lazy array (i
// itself included).
func (t *Tape) LazyWithin(i int) bool {
	lz := t.lazyOf()
	if lz == nil || !isContainer(t.nodes, i) {
		return false
	}
	end := t.next(i)
	k := sort.Search(len(lz.nodes), func(k int) bool { return lz.nodes[k].node >= i })
	return k < len(lz.nodes) && lz.nodes[k].node < end
}

// Windows is an iterator over a lazy array's elements, a window of them at
// a time: Next parses the next few elements onto the window's own tape
// (Tape: its node 0 is an array holding them, Len of them), which the next
// call reuses. Data and offsets are the whole document's. A window's
// elements are parsed as ParseTape parses them (the nesting counted from
// the lazy array's depth); a syntax error, or elements that do not end
// where the lazy array does, or not as many as Len said, end the
// iteration with Err set. Release hands the iterator's memory back.
type Windows struct {
	data            []byte
	pos, end        int // the next element's offset; the array's ']'
	left            int // elements not read yet
	depth, maxDepth int
	owner           int
	first, next     int // the current window's first element; the next window's
	w               Tape
	p               *tapeParser
	err             *SyntaxError
	done            bool
}

// Windows returns the iterator over the elements of lazy array i.
func (t *Tape) Windows(i int) *Windows {
	lz := t.lazyOf()
	if lz == nil || !t.Opaque(i) {
		panic("jsonscan: Windows of a node that is not a lazy array")
	}
	k := sort.Search(len(lz.nodes), func(k int) bool { return lz.nodes[k].node >= i })
	if k == len(lz.nodes) || lz.nodes[k].node != i {
		panic("jsonscan: Windows of a node that is not a lazy array")
	}
	end := int(t.nodes[i+1].start) - 1 // ']'
	return &Windows{data: t.Data, pos: int(t.nodes[i].start) + 1, end: end, left: t.Len(i),
		depth: lz.nodes[k].depth, maxDepth: lz.maxDepth, owner: t.owner,
		w: Tape{kept: true}}
}

// Next parses the next window; false at the end or on an error (Err).
func (w *Windows) Next() bool {
	if w.done || w.err != nil {
		return false
	}
	if w.p == nil {
		w.p = tapeParsers.Get().(*tapeParser)
		if w.p.dirty {
			clear(w.p.names)
		}
		*w.p = tapeParser{names: w.p.names}
	}
	p := w.p
	p.data, p.maxDepth, p.nodes, p.i, p.err, p.badUTF8 = w.data, w.maxDepth, w.w.nodes[:0], SkipSpace(w.data, w.pos), nil, false
	if w.left == 0 {
		w.done = true
		if p.i != w.end {
			w.fail(p, "an element the first pass did not count")
		}
		return false
	}
	arr := p.open(KindArray)
	count, most := 0, windowNodes
	for {
		p.i = SkipSpace(w.data, p.i)
		p.value(w.depth + 1)
		if p.err != nil {
			w.err = p.err
			return false
		}
		count++
		w.left--
		if p.i = SkipSpace(w.data, p.i); p.i >= len(w.data) {
			w.fail(p, "unexpected end of input in an array")
			return false
		}
		if c := w.data[p.i]; c == ']' {
			if p.i != w.end || w.left != 0 {
				w.fail(p, "elements that do not end where the first pass said")
				return false
			}
			w.done = true
			break
		} else if c != ',' {
			p.failAt("invalid character %s after an array element; want ',' or ']'")
			w.err = p.err
			return false
		}
		p.i++
		if w.left == 0 {
			w.fail(p, "more elements than the first pass counted")
			return false
		}
		if len(p.nodes) >= most {
			break
		}
	}
	p.close(arr, count)
	w.w.Data, w.w.nodes, w.w.owner, w.w.badUTF8 = w.data, p.nodes, w.owner, p.badUTF8
	w.pos = p.i
	w.first, w.next = w.next, w.next+count
	return true
}

// fail ends the iteration with a syntax error at p.i.
func (w *Windows) fail(p *tapeParser, msg string) {
	p.fail(msg)
	w.err = p.err
}

// Tape is the current window: node 0 is an array of its elements (Raw(0)
// is not one JSON value); the next call to Next reuses it.
func (w *Windows) Tape() *Tape { return &w.w }

// First is the index in the lazy array of the current window's first
// element.
func (w *Windows) First() int { return w.first }

// Depth is the nesting depth of the lazy array's elements (the root's is
// 0).
func (w *Windows) Depth() int { return w.depth + 1 }

// Err is the error that ended the iteration, or nil.
func (w *Windows) Err() *SyntaxError { return w.err }

// Release hands the iterator's parser back; the window must not be used
// afterwards.
func (w *Windows) Release() {
	if w.p == nil {
		return
	}
	p := w.p
	w.p = nil
	dirty := p.live > 0
	if len(p.names) > 1<<16 {
		p.names, dirty = nil, false
	}
	*p = tapeParser{names: p.names, dirty: dirty}
	tapeParsers.Put(p)
	w.w.nodes = nil
}
