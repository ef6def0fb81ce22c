package main

import (
	"strconv"
	"strings"
)

// plural writes "1 file", "3 files", "2 entries".
func plural(n int, noun string) string {
	return strconv.Itoa(n) + " " + pluralize(n, noun)
}

// pluralize is noun for one and its English plural otherwise: "entry"
// becomes "entries" (a consonant before the y), "error" "errors".
func pluralize(n int, noun string) string {
	switch {
	case n == 1:
		return noun
	case strings.HasSuffix(noun, "y") && len(noun) > 1 && !strings.ContainsAny(noun[len(noun)-2:len(noun)-1], "aeiou"):
		return noun[:len(noun)-1] + "ies"
	}
	return noun + "s"
}
