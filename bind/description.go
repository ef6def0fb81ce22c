package bind

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// description turns a func's doc comment into the description a model
// reads: the Go convention of starting with the func's name is dropped
// ("CurrentWeather gets current weather…" → "Gets current weather…"), and
// the lines of each paragraph are joined, since the comment's line breaks
// are only there for the source. Lists and indented blocks keep their lines.
func description(doc, funcName string) string {
	doc = strings.TrimSpace(doc)
	if rest, ok := strings.CutPrefix(doc, funcName+" "); ok && rest != "" && startsWithVerb(rest) {
		for _, verb := range []string{"is ", "are "} { // "Config is the app…" → "The app…"
			if after, ok := strings.CutPrefix(rest, verb); ok && after != "" {
				rest = after
				break
			}
		}
		r, size := utf8.DecodeRuneInString(rest)
		doc = string(unicode.ToUpper(r)) + rest[size:]
	}
	var paras []string
	for _, para := range strings.Split(doc, "\n\n") {
		lines := strings.Split(strings.TrimSpace(para), "\n")
		var sb strings.Builder
		for i, line := range lines {
			if i > 0 {
				if keepBreak(line) {
					sb.WriteByte('\n')
				} else {
					sb.WriteByte(' ')
				}
			}
			if keepBreak(line) {
				sb.WriteString(line)
			} else {
				sb.WriteString(strings.TrimSpace(line))
			}
		}
		if sb.Len() > 0 {
			paras = append(paras, sb.String())
		}
	}
	return strings.Join(paras, "\n\n")
}

// startsWithVerb reports whether text starts with a verb in the third
// person ("gets", "returns", "is"), as a Go doc comment continues its
// subject. A comment in the imperative ("Greet someone by name" on func
// Greet) starts with the name as its verb and is kept whole.
func startsWithVerb(text string) bool {
	word, _, _ := strings.Cut(text, " ")
	if word == "is" || word == "are" {
		return true
	}
	return len(word) > 2 && strings.HasSuffix(word, "s") && !strings.HasSuffix(word, "ss") && unicode.IsLower(rune(word[0]))
}

// keepBreak reports whether a line starts a list item or an indented block.
func keepBreak(line string) bool {
	t := strings.TrimLeft(line, " \t")
	return t != line || strings.HasPrefix(t, "- ") || strings.HasPrefix(t, "* ") ||
		len(t) > 2 && t[0] >= '0' && t[0] <= '9' && (t[1] == '.' || t[1] == ')')
}
