package argcheck

import (
	"errors"
	"strconv"
	"strings"

	"github.com/mcpgen/mcpgen/internal/jsonscan"
)

// fieldPath is where in the arguments the value being decoded is: the
// struct field names down to it, which a type error names (as
// encoding/json's Field: JSON names, and the Go names of the embedded
// structs on the way), and the array indexes and map member names
// between them, which its JSON pointer adds (leaving the embedded
// structs' names out: their fields are members of the object holding
// them). The usual depths fit in room, so decoding allocates nothing for
// it; a path kept in the decoder as a slice of itself made the decoder
// escape.
type fieldPath struct {
	room  [8]pathStep
	more  []pathStep // steps past len(room)
	depth int
}

// pathStep is one step of a fieldPath: a field (name), an embedded
// struct (name, embedded), an array element (index ≥ 0) or a map member
// (the name node of tape).
type pathStep struct {
	name     string
	tape     *jsonscan.Tape
	node     int
	index    int
	embedded bool
}

// push appends a field's JSON name; popping is setting depth back.
func (p *fieldPath) push(name string) { p.add(pathStep{name: name, index: -1}) }

// pushEmbedded appends the Go name of an embedded struct.
func (p *fieldPath) pushEmbedded(name string) {
	p.add(pathStep{name: name, index: -1, embedded: true})
}

// pushIndex appends an array element's index.
func (p *fieldPath) pushIndex(k int) { p.add(pathStep{index: k}) }

// pushMember appends the map member whose name is node m of t; t must
// hold it until the step is popped.
func (p *fieldPath) pushMember(t *jsonscan.Tape, m int) {
	p.add(pathStep{tape: t, node: m, index: -1})
}

func (p *fieldPath) add(s pathStep) {
	if p.depth < len(p.room) {
		p.room[p.depth] = s
	} else {
		p.more = append(p.more[:p.depth-len(p.room)], s)
	}
	p.depth++
}

// step is the path's step i, outermost first.
func (p *fieldPath) step(i int) pathStep {
	if i < len(p.room) {
		return p.room[i]
	}
	return p.more[i-len(p.room)]
}

// names is the path's field names, outermost first, in a slice of its
// own: encoding/json's Field.
func (p *fieldPath) names() []string {
	var out []string
	for i := range p.depth {
		if s := p.step(i); s.tape == nil && s.index < 0 {
			out = append(out, s.name)
		}
	}
	return out
}

// pointer is the JSON pointer of the value being decoded.
func (p *fieldPath) pointer() string {
	var b strings.Builder
	for i := range p.depth {
		switch s := p.step(i); {
		case s.embedded:
			continue
		case s.index >= 0:
			b.WriteByte('/')
			b.WriteString(strconv.Itoa(s.index))
		case s.tape != nil:
			b.WriteByte('/')
			b.WriteString(escape(s.tape.Text(s.node)))
		default:
			b.WriteByte('/')
			b.WriteString(escape(s.name))
		}
	}
	return b.String()
}

// pointedError is a decoding error and the JSON pointer of the value it
// is about.
type pointedError struct {
	err     error
	pointer string
}

func (e *pointedError) Error() string { return e.err.Error() }
func (e *pointedError) Unwrap() error { return e.err }

// pointed gives err, returned by the decoding of the value at the path's
// end, that value's pointer: the innermost one, so an error already
// pointed keeps its own. errLazyFallback is no error about a value.
func (d *tapeDecoder) pointed(err error) error {
	if err == nil || errors.Is(err, errLazyFallback) {
		return err
	}
	if pe := (*pointedError)(nil); errors.As(err, &pe) {
		return err
	}
	return &pointedError{err: err, pointer: d.path.pointer()}
}
