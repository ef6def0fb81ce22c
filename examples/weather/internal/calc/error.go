package calc

import "fmt"

// Error is a positioned evaluation error. Pos is the 0-based byte offset
// into the expression where the problem was detected.
type Error struct {
	Pos int
	Msg string
}

// Error implements the error interface, e.g. `at position 5: unexpected ")"`.
func (e *Error) Error() string {
	return fmt.Sprintf("at position %d: %s", e.Pos, e.Msg)
}

func errorf(pos int, format string, args ...any) *Error {
	return &Error{Pos: pos, Msg: fmt.Sprintf(format, args...)}
}
