package generator

import (
	"regexp"
	"sort"
	"strings"
)

// docs turns schema descriptions into Go doc comments.
type docs struct {
	typeNames []string          // schema names, longest first, to split "{@link CallToolRequesttools/call}"
	goNames   map[string]string // schema name → Go identifier
}

func newDocs(links map[string]string) *docs {
	d := &docs{goNames: links}
	for n := range links {
		d.typeNames = append(d.typeNames, n)
	}
	sort.Slice(d.typeNames, func(i, j int) bool {
		a, b := d.typeNames[i], d.typeNames[j]
		if len(a) != len(b) {
			return len(a) > len(b)
		}
		return a < b
	})
	return d
}

var (
	linkPattern    = regexp.MustCompile(`\{@link\s+([^}]*)\}`)
	includePattern = regexp.MustCompile(`\s*\{@includeCode\s+[^}]*\}`)
)

// text rewrites a description for Go doc: {@link X} becomes a doc link
// [X], and {@link CallToolRequesttools/call} (a TypeScript link whose label
// the JSON export glued on) becomes "tools/call ([CallToolRequest])".
func (d *docs) text(desc string) string {
	desc = includePattern.ReplaceAllString(desc, "")
	return linkPattern.ReplaceAllStringFunc(desc, func(m string) string {
		target := strings.TrimSpace(linkPattern.FindStringSubmatch(m)[1])
		if sp := strings.IndexAny(target, " |"); sp > 0 {
			name, label := target[:sp], strings.TrimSpace(strings.TrimLeft(target[sp:], " |"))
			return label + " (" + d.link(name) + ")"
		}
		for _, n := range d.typeNames {
			rest, ok := strings.CutPrefix(target, n)
			switch {
			case !ok || rest == "":
			case rest[0] == '.':
				return "[" + d.goNames[n] + "]" + rest
			default:
				return rest + " (" + d.link(n) + ")"
			}
		}
		return d.link(target)
	})
}

func (d *docs) link(name string) string {
	if goName, ok := d.goNames[name]; ok {
		return "[" + goName + "]"
	}
	return "`" + name + "`"
}

// comment builds the doc comment of a declaration: the subject sentence,
// the schema's description and a Deprecated paragraph.
func (d *docs) comment(subject, desc, deprecated string) string {
	var parts []string
	body := strings.TrimSpace(d.text(desc))
	switch {
	case subject != "" && body != "":
		parts = append(parts, lead(subject, body))
	case body != "":
		parts = append(parts, body)
	}
	if deprecated != "" {
		notice := strings.TrimSpace(d.text(deprecated))
		notice = strings.TrimPrefix(strings.TrimPrefix(notice, "Deprecated:"), "Deprecated")
		notice = strings.TrimSpace(strings.TrimLeft(notice, ":"))
		if notice == "" {
			notice = "deprecated by the schema."
		}
		parts = append(parts, "Deprecated: "+notice)
	}
	return strings.Join(parts, "\n\n")
}

// lead starts a doc comment with the declared name, as Go doc expects:
// "A uniquely identifying ID" becomes "RequestId is a uniquely identifying
// ID"; a description that does not read as a noun phrase follows a colon.
func lead(name, body string) string {
	word, _, _ := strings.Cut(body, " ")
	switch word {
	case "A", "An", "The", "Used", "Sent", "Returned", "Common", "Describes", "Represents", "Identifies", "Indicates":
		switch word {
		case "A", "An", "The", "Common":
			return name + " is " + strings.ToLower(body[:1]) + body[1:]
		case "Used", "Sent", "Returned":
			return name + " is " + strings.ToLower(body[:1]) + body[1:]
		}
		return name + " " + strings.ToLower(body[:1]) + body[1:]
	}
	if word == name || strings.HasPrefix(body, name+" ") {
		return body
	}
	return name + ": " + body
}
