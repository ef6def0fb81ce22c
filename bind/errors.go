package bind

import (
	"cmp"
	"fmt"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Error is one problem found in the bound package, at a source position.
type Error struct {
	Pos token.Position
	Msg string
}

// Error formats the problem as "file:line:col: message". The file name is
// relative to the working directory when it lies below it.
func (e *Error) Error() string {
	return formatPos(e.Pos) + ": " + e.Msg
}

// formatPos renders a position like the Go compiler does.
func formatPos(p token.Position) string {
	if p.Filename != "" && filepath.IsAbs(p.Filename) {
		if wd, err := os.Getwd(); err == nil {
			if rel, err := filepath.Rel(wd, p.Filename); err == nil && !strings.HasPrefix(rel, "..") {
				p.Filename = rel
			}
		}
	}
	if !p.IsValid() && p.Filename == "" {
		return "-"
	}
	return p.String()
}

// ErrorList is every problem found by [Load], sorted by position.
type ErrorList []*Error

// Error returns one problem per line.
func (l ErrorList) Error() string {
	var b strings.Builder
	for i, e := range l {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(e.Error())
	}
	return b.String()
}

// Err returns l as an error, or nil when l is empty.
func (l ErrorList) Err() error {
	if len(l) == 0 {
		return nil
	}
	return l
}

func (l *ErrorList) add(pos token.Position, format string, args ...any) {
	*l = append(*l, &Error{Pos: pos, Msg: fmt.Sprintf(format, args...)})
}

func (l ErrorList) sort() {
	slices.SortStableFunc(l, func(a, b *Error) int {
		return cmp.Or(
			strings.Compare(a.Pos.Filename, b.Pos.Filename),
			cmp.Compare(a.Pos.Line, b.Pos.Line),
			cmp.Compare(a.Pos.Column, b.Pos.Column),
		)
	})
}
