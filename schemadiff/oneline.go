package schemadiff

import (
	"regexp"
	"strconv"
	"strings"
	"unicode"
)

// lineBreaks matches a line break with the blanks around it: the wrap of a
// paragraph (a deprecation notice) in a description.
var lineBreaks = regexp.MustCompile(`[ \t]*(?:\r\n|\r|\n|\x{85}|\x{2028}|\x{2029})[ \t]*`)

// paragraph returns text on one line: its line breaks become spaces, and
// what else does not print is escaped (see escapeUnprintable).
func paragraph(text string) string {
	return escapeUnprintable(lineBreaks.ReplaceAllString(text, " "))
}

// escapeUnprintable escapes what does not print as itself in a line of
// text (line breaks, tabs, other control and format characters) as a Go
// escape (\n, \t, \u2028), so that a name holding such characters stays on
// one line and reads as what it is.
func escapeUnprintable(s string) string {
	if strings.IndexFunc(s, notPrintable) < 0 {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if notPrintable(r) {
			q := strconv.QuoteRune(r)
			b.WriteString(q[1 : len(q)-1])
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

func notPrintable(r rune) bool { return r != ' ' && !unicode.IsPrint(r) }
