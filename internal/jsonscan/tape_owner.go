package jsonscan

import "unsafe"

// SetOwner records that Data is part of a buffer of n bytes that belongs
// to the parsed message alone: nothing writes to it or reuses it after the
// parse, for as long as anything read from the tape lives (a transport's
// own copy of one message, such as an HTTP request body or a stdio line
// too long for the read buffer). Text may then return a large string as a
// view of Data instead of a copy (see Aliasable). n <= 0 takes it back.
func (t *Tape) SetOwner(n int) { t.owner = max(n, 0) }

// Owner is the owned buffer's length SetOwner recorded (0: none); Sub
// views keep it.
func (t *Tape) Owner() int { return t.owner }

// Aliasable reports whether string node i's text may be a view of the
// message's bytes instead of a copy: the tape's buffer is the message's own
// (SetOwner), the string has no escapes (its text is its bytes), and it is
// at least half of that buffer. A value that keeps such a string keeps the
// whole buffer, so the rule bounds what it keeps to twice the string; a
// large argument is then held once, in the message, not twice.
func (t *Tape) Aliasable(i int) bool {
	return t.Kind(i) == KindString && !t.Escaped(i) && t.aliasable(i)
}

// aliasable is Aliasable's size and ownership test, for an unescaped
// string node.
func (t *Tape) aliasable(i int) bool {
	return t.owner > 0 && 2*(int(t.nodes[i].meta>>metaShift)-2) >= t.owner // the length less the quotes
}

// AliasString is b as a string without copying it, for a caller that
// checked Aliasable on the node b is the contents of; b must never change.
func AliasString(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(unsafe.SliceData(b), len(b))
}
