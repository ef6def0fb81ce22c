package schema

import (
	"regexp"
	"strings"
)

// deprecation returns the deprecation notice of a schema node: its
// `deprecated` keyword, or a paragraph of its description that starts with
// "Deprecated" or "@deprecated".
func deprecation(n *node) string {
	for _, para := range strings.Split(n.Description, "\n\n") {
		para = strings.TrimSpace(para)
		if rest, ok := strings.CutPrefix(para, "@deprecated"); ok {
			return strings.TrimSpace(rest)
		}
		if strings.HasPrefix(para, "Deprecated") {
			return para
		}
	}
	if n.Deprecated {
		return "Deprecated by the schema."
	}
	return ""
}

var (
	tsDecl      = regexp.MustCompile(`^export\s+(?:interface|type)\s+(\w+)`)
	tsMember    = regexp.MustCompile(`^\s+(\w+)\??\s*:`)
	tsDeprecate = regexp.MustCompile(`@deprecated\s*(.*)$`)
)

// applyTypeScriptDeprecations marks the types and fields that schema.ts
// tags with @deprecated; schema.json does not carry these markers.
func applyTypeScriptDeprecations(m *Model, ts []byte) {
	if len(ts) == 0 {
		return
	}
	var iface, pending string
	inDoc, havePending, collecting := false, false, false
	for _, line := range strings.Split(string(ts), "\n") {
		trimmed := strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(trimmed, "/**"):
			inDoc = true
		}
		if inDoc {
			if d := tsDeprecate.FindStringSubmatch(trimmed); d != nil {
				pending = strings.TrimSuffix(strings.TrimSpace(d[1]), "*/")
				havePending, collecting = true, true
			} else if collecting && !strings.HasSuffix(trimmed, "*/") {
				// The notice is the rest of its paragraph: a blank line
				// or the next tag (@example …) ends it.
				if more := strings.TrimSpace(strings.TrimPrefix(trimmed, "*")); more != "" && !strings.HasPrefix(more, "@") {
					pending += " " + more
				} else {
					collecting = false
				}
			}
			if strings.HasSuffix(trimmed, "*/") {
				inDoc = false
			}
			continue
		}
		if d := tsDecl.FindStringSubmatch(line); d != nil {
			if strings.Contains(line, "interface") {
				iface = d[1]
			}
			if havePending {
				if t := m.Type(d[1]); t != nil && t.Deprecated == "" {
					t.Deprecated = notice(pending)
				}
			}
			havePending = false
			continue
		}
		if trimmed == "}" {
			iface = ""
		}
		if d := tsMember.FindStringSubmatch(line); d != nil && havePending && iface != "" {
			if t := m.Type(iface); t != nil {
				for _, f := range t.Fields {
					if f.Name == d[1] && f.Deprecated == "" {
						f.Deprecated = notice(pending)
					}
				}
			}
		}
		if trimmed != "" {
			havePending = false
		}
	}
}

func notice(text string) string {
	text = strings.TrimSpace(text)
	if text == "" {
		return "Deprecated by the schema."
	}
	return text
}
