package argcheck

// fieldPath is the struct field names from the arguments down to the value
// being decoded, which a type error names (as encoding/json's Field). The
// usual depths fit in room, so decoding allocates nothing for it; a path
// kept in the decoder as a slice of itself made the decoder escape.
type fieldPath struct {
	room  [8]string
	more  []string // names past len(room)
	depth int
}

// push appends a name; popping is setting depth back.
func (p *fieldPath) push(name string) {
	if p.depth < len(p.room) {
		p.room[p.depth] = name
	} else {
		p.more = append(p.more[:p.depth-len(p.room)], name)
	}
	p.depth++
}

// names is the path, outermost first, in a slice of its own.
func (p *fieldPath) names() []string {
	out := make([]string, 0, p.depth)
	out = append(out, p.room[:min(p.depth, len(p.room))]...)
	if p.depth > len(p.room) {
		out = append(out, p.more[:p.depth-len(p.room)]...)
	}
	return out
}
