package server

import (
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"
)

// The regexp of a template (templateRegexp) matches exactly the URIs RFC
// 6570 §3.2 expands it to, but for the agreement of a variable's places
// (uriMatcher.agree), and captures every place of a variable in groups of
// its own. Values are matched lazily, so that the first of two adjacent
// variables takes the least ({a},{b} against "1,2,3" is a = "1",
// b = "2,3"); Go's regexp runs in time linear in the URI whatever the
// template.

const (
	// unreservedChars is RFC 3986 unreserved as a character class body.
	unreservedChars = `A-Za-z0-9\-._~`
	// reservedChars is RFC 3986 reserved (gen-delims and sub-delims).
	reservedChars = `:/?#\[\]@!$&'()*+,;=`
	// pctChar is one character, UTF-8 encoded and percent-encoded (one to
	// four triplets): a prefix counts characters, not octets (RFC 6570
	// §2.4.1). Overlong forms and surrogates pass here and are refused
	// when the value is decoded.
	pctChar = `%[0-7][0-9A-Fa-f]` +
		`|%[C-Dc-d][0-9A-Fa-f]%[89ABab][0-9A-Fa-f]` +
		`|%[Ee][0-9A-Fa-f](?:%[89ABab][0-9A-Fa-f]){2}` +
		`|%[Ff][0-7](?:%[89ABab][0-9A-Fa-f]){3}`
	// maxCountedPrefix is the longest prefix the regexp counts itself;
	// a longer one (RFC 6570 allows up to 9999) is counted after the
	// match (Go's regexp refuses counts above 1000).
	maxCountedPrefix = 100
)

// charClass is the regexp of one character of a value that operator op
// leaves as is, besides pctChar, less the characters in except.
func charClass(op byte, except string) string {
	chars := unreservedChars
	if op == '+' || op == '#' {
		chars += reservedChars
	}
	for _, c := range except {
		chars = strings.ReplaceAll(chars, regexp.QuoteMeta(string(c)), "")
		chars = strings.ReplaceAll(chars, string(c), "")
	}
	return `(?:[` + chars + `]|` + pctChar + `)`
}

// valueRegexp is the regexp of the value of place p, without its name;
// nonEmpty leaves out the empty string.
//
//   - A prefix {var:3} is a string of at most 3 characters, of the
//     operator's class: a "," stays literal in a {+var:3} or {#var:3}
//     (RFC 6570 §3.2.3, §3.2.4) and is encoded in any other.
//   - An exploded list is its items joined with the operator's separator
//     (a named one: name=item).
//   - Any other value is a string or a list joined with ",".
//
// Characters are matched greedily and further items lazily, as the
// library's Match did: {name}{.ext} against "readme.md" is name =
// "readme.md", and {a},{b} against "1,2,3" is a = "1", b = "2,3".
func valueRegexp(p templatePlace, nonEmpty bool) string {
	least, many := "0", `*`
	if nonEmpty {
		least, many = "1", `+`
	}
	sep := ","
	switch p.op {
	case '/', '.', ';', '&':
		sep = string(p.op)
	case '?':
		sep = "&"
	}
	switch {
	case p.prefix > 0:
		c := charClass(p.op, "")
		if p.prefix > maxCountedPrefix {
			return c + many
		}
		return c + `{` + least + `,` + strconv.Itoa(p.prefix) + `}`
	case p.explode:
		item := charClass(p.op, ","+sep) + `*`
		if isNamedOp(p.op) {
			name := regexp.QuoteMeta(p.name)
			if p.op == ';' {
				item = name + `(?:=` + charClass(p.op, ",;") + `+)?`
			} else {
				item = name + `=` + item
			}
		}
		return item + `(?:` + regexp.QuoteMeta(sep) + item + `)*?`
	default:
		item := charClass(p.op, ",")
		if nonEmpty {
			return item + `+(?:,` + item + `*)*?|,` + item + `*(?:,` + item + `*)*?`
		}
		return item + `*(?:,` + item + `*)*?`
	}
}

// placeRegexp is the regexp of place p in its expression, capturing its
// value (with its name and "=" for a named operator that is not
// exploded) in a new group, numbered from *groups.
func placeRegexp(p *templatePlace, groups *int) string {
	*groups++
	p.groups = append(p.groups, *groups)
	switch {
	case !isNamedOp(p.op) || p.explode:
		return `(` + valueRegexp(*p, false) + `)`
	case p.op == ';':
		// ";a" is a = "" (RFC 6570 §3.2.7: no "=" for an empty value).
		return regexp.QuoteMeta(p.name) + `((?:=(?:` + valueRegexp(*p, true) + `))?)`
	default:
		return regexp.QuoteMeta(p.name) + `(=` + valueRegexp(*p, false) + `)`
	}
}

// templateRegexp compiles the regexp of a template: its literals, and
// per expression (RFC 6570 §3.2.1) nothing when every variable is left
// out, else the operator's first character and the variables that are
// set, in their order, joined by its separator. It records the groups of
// each place in places, which are exprs' in order.
func templateRegexp(exprs []templateExpr, tail string, places []templatePlace) (*regexp.Regexp, error) {
	var b strings.Builder
	b.WriteString(`^`)
	groups, next := 0, 0
	for _, e := range exprs {
		b.WriteString(regexp.QuoteMeta(e.before))
		first, sep := "", ","
		switch e.op {
		case '#':
			first = "#"
		case '.', '/', ';':
			first, sep = string(e.op), string(e.op)
		case '?':
			first, sep = "?", "&"
		case '&':
			first, sep = "&", "&"
		}
		vars := places[next : next+len(e.specs)]
		next += len(e.specs)
		// One alternative per variable that may come first.
		var alts []string
		for i := range vars {
			alt := placeRegexp(&vars[i], &groups)
			for j := i + 1; j < len(vars); j++ {
				alt += `(?:` + regexp.QuoteMeta(sep) + placeRegexp(&vars[j], &groups) + `)?`
			}
			alts = append(alts, alt)
		}
		b.WriteString(`(?:` + regexp.QuoteMeta(first) + `(?:` + strings.Join(alts, `|`) + `))?`)
	}
	b.WriteString(regexp.QuoteMeta(tail))
	b.WriteString(`$`)
	return regexp.Compile(b.String())
}

// value decodes the captured text of place p: its name and "=" are
// dropped, the items of a named exploded list are joined with ",", and
// the value is percent-decoded; false when the octets are not UTF-8 (no
// Unicode value expands to them) or a long prefix holds too many
// characters.
func (p templatePlace) value(text string) (string, bool) {
	if isNamedOp(p.op) {
		if p.explode {
			sep := string(p.op)
			if p.op == '?' {
				sep = "&"
			}
			items := strings.Split(text, sep)
			for i, it := range items {
				it = strings.TrimPrefix(it, p.name)
				items[i] = strings.TrimPrefix(it, "=")
			}
			text = strings.Join(items, ",")
		} else {
			text = strings.TrimPrefix(text, "=")
		}
	}
	v, ok := percentDecode(text)
	if !ok || (p.prefix > maxCountedPrefix && utf8.RuneCountInString(v) > p.prefix) {
		return "", false
	}
	return v, true
}

// percentDecode decodes the %XX triplets of s, which the regexp has
// checked, and reports whether the result is UTF-8.
func percentDecode(s string) (string, bool) {
	if strings.IndexByte(s, '%') < 0 {
		return s, true // the regexp took ASCII characters only
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); i++ {
		if s[i] == '%' && i+2 < len(s) {
			n, err := strconv.ParseUint(s[i+1:i+3], 16, 8)
			if err != nil {
				return "", false
			}
			b.WriteByte(byte(n))
			i += 2
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String(), utf8.ValidString(b.String())
}
