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
// its own (consecutive whole values of a simple, + or # expression share
// one, runRegexp). Values are matched lazily, so that the first of two
// adjacent variables takes the least ({a},{b} against "1,2,3" is a = "1",
// b = "2,3"); Go's regexp runs in time linear in the URI whatever the
// template. Its NFA runs every place that may hold the current character
// side by side, copying the captures of each, so the regexp keeps both
// few: an expression whose operator starts it with its separator (. / ;
// &) has one optional place per variable, and another one alternative
// per variable that may come first (firstNeeded), with the whole values
// of a simple, + or # expression in one group.

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
	// maxCountedPrefix is the longest prefix the regexp counts itself. A
	// longer one (RFC 6570 allows up to 9999) is matched by an unbounded
	// class and counted after the match, which keeps the match linear
	// and small; the one split the regexp chose is then final.
	maxCountedPrefix = 100
)

// charClass is the regexp of one character of a value that operator op
// leaves as is, besides pctChar, less the characters in except.
func charClass(op byte, except string) string {
	return `(?:[` + opChars(op, except) + `]|` + pctChar + `)`
}

// opChars is the class body of the characters operator op leaves as is,
// less the characters in except.
func opChars(op byte, except string) string {
	chars := unreservedChars
	if op == '+' || op == '#' {
		chars += reservedChars
	}
	for _, c := range except {
		chars = strings.ReplaceAll(chars, regexp.QuoteMeta(string(c)), "")
		chars = strings.ReplaceAll(chars, string(c), "")
	}
	return chars
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
	least := "0"
	if nonEmpty {
		least = "1"
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
		if p.prefix > maxCountedPrefix {
			// Counted after the match (uriMatcher.agree): a counted
			// repeat this long is a regexp state per count, thousands
			// of NFA threads at each character and megabytes per match.
			if nonEmpty {
				return charClass(p.op, "") + `+`
			}
			return charClass(p.op, "") + `*`
		}
		return charClass(p.op, "") + `{` + least + `,` + strconv.Itoa(p.prefix) + `}`
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
	p.groups = append(p.groups, placeGroup{group: *groups, of: 1})
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

// runRegexp is the regexp of consecutive whole values of a simple, + or #
// expression (run), captured in one new group numbered from *groups: each
// is items joined with ",", exploded or not, so together they are too. As
// apart, the run takes as many items as it has places before it takes
// more, and the places before the last take one item each
// (placeGroup.text): {a,b,c} against "1,2,3,4" is a = "1", b = "2",
// c = "3,4". One group and one loop instead of one per place keeps the
// cost of a character the same for {v0,…,v9} as for {v}.
func runRegexp(run []templatePlace, groups *int) string {
	*groups++
	for i := range run {
		run[i].groups = append(run[i].groups, placeGroup{group: *groups, nth: i, of: len(run)})
	}
	if len(run) == 1 {
		return `(` + valueRegexp(run[0], false) + `)`
	}
	item := charClass(run[0].op, ",") + `*`
	more := `(?:,` + item + `)`
	// A counted repeat of more is within RE2's limit of 1000 copies of
	// pctChar's innermost {3}; beyond, optional copies of it.
	firstItems := more + `{0,` + strconv.Itoa(len(run)-1) + `}`
	if 3*(len(run)-1) > 1000 {
		firstItems = strings.Repeat(more+`?`, len(run)-1)
	}
	return `(` + item + firstItems + more + `*?)`
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
		if first == sep {
			// Every variable set is preceded by the separator: one
			// optional place per variable.
			for i := range vars {
				b.WriteString(`(?:` + regexp.QuoteMeta(sep) + placeRegexp(&vars[i], &groups) + `)?`)
			}
			continue
		}
		// One alternative per variable that may come first, but for one
		// whose values an earlier variable takes too (firstNeeded).
		var alts []string
		for i := range vars {
			if !firstNeeded(vars, i) {
				continue
			}
			alt := ""
			for j := i; j < len(vars); {
				k := j + 1
				var place string
				if isNamedOp(e.op) || vars[j].prefix > 0 {
					place = placeRegexp(&vars[j], &groups)
				} else {
					for k < len(vars) && vars[k].prefix == 0 {
						k++
					}
					place = runRegexp(vars[j:k], &groups)
				}
				if j == i {
					alt = place
				} else {
					alt += `(?:` + regexp.QuoteMeta(sep) + place + `)?`
				}
				j = k
			}
			alts = append(alts, alt)
		}
		b.WriteString(`(?:` + regexp.QuoteMeta(first) + `(?:` + strings.Join(alts, `|`) + `))?`)
	}
	b.WriteString(regexp.QuoteMeta(tail))
	b.WriteString(`$`)
	return regexp.Compile(b.String())
}

// firstNeeded reports whether the alternative of an expression in which
// vars[i] comes first matches a URI that no earlier alternative matches.
// It does not when an earlier variable of an unnamed operator takes every
// value vars[i] takes (a whole value takes what a prefix does, a longer
// prefix what a shorter one does): whatever follows vars[i] in its
// alternative may follow that variable in the earlier one, which the
// regexp prefers anyway. Leaving these alternatives out keeps
// {v0,…,v9} at one alternative of ten places instead of ten of 55, which
// the regexp would run side by side at every character.
func firstNeeded(vars []templatePlace, i int) bool {
	if isNamedOp(vars[i].op) {
		return true // an alternative starts with its own name
	}
	for j := range i {
		if takesAll(vars[j], vars[i]) {
			return false
		}
	}
	return true
}

// takesAll reports whether every value of place q is a value of place p
// of the same simple, + or # expression: a whole value, exploded or not,
// is strings of the operator's characters joined with ","; a prefix is
// one such string of at most its length.
func takesAll(p, q templatePlace) bool {
	switch {
	case p.prefix == 0:
		return true
	case q.prefix == 0:
		return false
	default:
		return q.prefix <= p.prefix
	}
}

// value decodes the captured text of place p: its name and "=" are
// dropped, the items of a named exploded list are joined with ",", and
// the value is percent-decoded; false when the octets are not UTF-8 (no
// Unicode value expands to them).
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
	if !ok {
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
