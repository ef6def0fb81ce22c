package schemadiff

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
)

// WriteText writes the report for people: a heading per section, one line
// per change. A detail that wraps over several lines (a deprecation
// notice) is joined into one, and characters that do not print as
// themselves in a name (a line break, a tab) are escaped as in Go (\n).
//
//	Changes from 2025-11-25 to 2026-07-28: 3 methods, 12 types, …
//
//	methods
//	  - initialize (request InitializeRequest, …)
//	  + server/discover (request DiscoverRequest, …)
//	  ~ tools/call: result CallToolResult → CallToolOutcome
func (r *Report) WriteText(w io.Writer) error {
	var sb strings.Builder
	fmt.Fprintf(&sb, "Changes from %s to %s: %s\n", escapeUnprintable(r.Old), escapeUnprintable(r.New), r.summary())
	var last Section
	for _, c := range r.Changes {
		if c.Section != last {
			fmt.Fprintf(&sb, "\n%s\n", c.Section)
			last = c.Section
		}
		mark := map[Op]string{Added: "+", Removed: "-", Changed: "~"}[c.Op]
		subject, detail := escapeUnprintable(c.Subject), paragraph(c.Detail)
		switch {
		case detail == "":
			fmt.Fprintf(&sb, "  %s %s\n", mark, subject)
		case c.Op == Changed:
			fmt.Fprintf(&sb, "  %s %s: %s\n", mark, subject, detail)
		default:
			fmt.Fprintf(&sb, "  %s %s (%s)\n", mark, subject, detail)
		}
	}
	_, err := io.WriteString(w, sb.String())
	return err
}

// summary counts the changes per section.
func (r *Report) summary() string {
	if len(r.Changes) == 0 {
		return "none"
	}
	var parts []string
	var last Section
	n := 0
	flush := func() {
		if n > 0 {
			parts = append(parts, fmt.Sprintf("%s %d", last, n))
		}
	}
	for _, c := range r.Changes {
		if c.Section != last {
			flush()
			last, n = c.Section, 0
		}
		n++
	}
	flush()
	return strings.Join(parts, ", ")
}

// WriteJSON writes the report as indented JSON.
func (r *Report) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}
