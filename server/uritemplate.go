package server

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/yosida95/uritemplate/v3"
)

// uriMatcher matches URIs against an RFC 6570 resource template and
// extracts its variables. Matching is github.com/yosida95/uritemplate/v3's
// (every level-4 expression: {var}, {+var}, {#var}, {/var}, {.var},
// {;var}, {?a,b}, {&a,b}, prefixes and explode), replacing a hand-written
// regexp translation that missed {/name} against "/readme.md" and never
// matched {/path*} or {.ext}.
//
// A URI matches only when the template can expand to it: the library's
// Regexp is a looser prefilter (it takes "?b=1&a=2" for {?a,b}, "?a=1&a=2",
// and "abcdef" for {var:3}), so its Match, which returns nil for such a
// URI, decides. A variable the template names more than once has one
// value (RFC 6570 §2.3): the library merges the captures of one name, so
// each later place is matched under a name of its own (places) and the
// places must agree, a prefix {var:3} holding the first 3 characters of
// the value ({a}/{a} against "p/q" and {name:1}/{name} against "z/secret"
// are no expansions of their templates).
type uriMatcher struct {
	t *uritemplate.Template
	// places maps the name Match reports a place under ("var:3" for a
	// prefix {var:3}; a renamed one for a later place of a name) to the
	// variable it holds and how its value is read.
	places map[string]templatePlace
}

// templatePlace is one variable specification of a template.
type templatePlace struct {
	name   string // the variable's name, without ":3" or "*"
	prefix int    // {var:3}: 3; 0 for the whole value
	sep    string // what the items of a list are joined with
}

func compileURITemplate(tmpl string) (*uriMatcher, error) {
	if _, err := uritemplate.New(tmpl); err != nil {
		return nil, fmt.Errorf("URI template %q: %w", tmpl, err)
	}
	matchTmpl, places, err := templatePlaces(tmpl)
	if err != nil {
		return nil, fmt.Errorf("URI template %q: %w", tmpl, err)
	}
	t, err := uritemplate.New(matchTmpl)
	if err != nil {
		return nil, fmt.Errorf("URI template %q: %w", tmpl, err)
	}
	return &uriMatcher{t: t, places: places}, nil
}

// templatePlaces returns tmpl, which uritemplate.New has accepted, with
// every place of a variable after its first renamed (placeName), and its
// places by the name Match reports each under. The items of a list are
// joined with the separator the URI held between them: "," for a variable
// that is not exploded ({a} against "a,b" is "a,b") and for an exploded
// named one ({?x*} against "?x=1&x=2" is "1,2", as {?x} against
// "?x=1,2"); the operator's separator for an exploded path or label
// ({/path*} against "/a/b" is "a/b").
//
// A variable named more than once may not be in a ;, ? or & expression:
// the URI holds its name there, so its places cannot be told apart.
func templatePlaces(tmpl string) (string, map[string]templatePlace, error) {
	exprs, tail := templateExprs(tmpl)
	places := map[string]templatePlace{}
	seen := map[string]int{}   // places of each name so far
	taken := map[string]bool{} // names a later place may not be matched under
	for _, e := range exprs {
		for _, spec := range e.specs {
			taken[specName(spec)] = true
		}
	}
	named := map[string]bool{} // names with a place in a ;, ? or & expression
	var out strings.Builder
	for _, e := range exprs {
		out.WriteString(e.before + "{")
		if e.op != 0 {
			out.WriteByte(e.op)
		}
		for k, spec := range e.specs {
			v := templatePlace{name: specName(spec), sep: ","}
			explode, suffix := "", ""
			if strings.HasSuffix(spec, "*") {
				explode = "*"
				if e.op == '/' || e.op == '.' {
					v.sep = string(e.op)
				}
			}
			if _, n, ok := strings.Cut(strings.TrimSuffix(spec, "*"), ":"); ok {
				suffix = ":" + n
				v.prefix, _ = strconv.Atoi(n)
			}
			if e.op == ';' || e.op == '?' || e.op == '&' {
				named[v.name] = true
			}
			capture := v.name
			if seen[v.name] > 0 {
				capture = placeName(v.name, seen[v.name], taken)
			}
			seen[v.name]++
			if k > 0 {
				out.WriteByte(',')
			}
			out.WriteString(capture + suffix + explode)
			places[capture+suffix] = v
		}
		out.WriteByte('}')
	}
	out.WriteString(tail)
	for name, n := range seen {
		if n > 1 && named[name] {
			return "", nil, fmt.Errorf("variable %q is named more than once, in a ;, ? or & expression among them, where the URI cannot tell its places apart", name)
		}
	}
	return out.String(), places, nil
}

// templateExpr is one expression of a template: its operator (0 for a
// simple {var}), its variable specifications as written ("path*",
// "var:3"), and the literal text before it.
type templateExpr struct {
	before string
	op     byte
	specs  []string
}

// templateExprs splits tmpl, which uritemplate.New has accepted, into its
// expressions and the literal text after the last.
func templateExprs(tmpl string) (exprs []templateExpr, tail string) {
	for rest := tmpl; ; {
		open := strings.IndexByte(rest, '{')
		if open < 0 {
			return exprs, rest
		}
		end := open + strings.IndexByte(rest[open:], '}')
		e := templateExpr{before: rest[:open]}
		body := rest[open+1 : end]
		if body != "" && strings.IndexByte("+#./;?&", body[0]) >= 0 {
			e.op, body = body[0], body[1:]
		}
		e.specs = strings.Split(body, ",")
		exprs = append(exprs, e)
		rest = rest[end+1:]
	}
}

// specName is the variable name of a specification ("var" of "var:3" or
// "var*").
func specName(spec string) string {
	name, _, _ := strings.Cut(strings.TrimSuffix(spec, "*"), ":")
	return name
}

// placeName is the name a later place (the n-th, from 1) of variable name
// is matched under: a variable name (RFC 6570 varname) that neither the
// template nor another place uses (taken holds both, and gets this one).
func placeName(name string, n int, taken map[string]bool) string {
	for ; ; n++ {
		alias := name + "._" + strconv.Itoa(n)
		if !taken[alias] {
			taken[alias] = true
			return alias
		}
	}
}

// match returns the template variables of uri (percent-decoded), or false
// when the template cannot expand to uri. A list is joined as
// templatePlaces says; a variable the URI leaves out (an optional {?q}) is
// absent from the map.
func (m *uriMatcher) match(uri string) (map[string]string, bool) {
	if !m.t.Regexp().MatchString(uri) {
		return nil, false
	}
	values := m.t.Match(uri)
	if values == nil {
		return nil, false
	}
	vars := make(map[string]string, len(values))
	full := map[string]bool{} // names a whole-value place set
	for capture, v := range values {
		p, ok := m.places[capture]
		if !ok {
			p = templatePlace{name: capture, sep: ","}
		}
		value := strings.Join(v.V, p.sep)
		if p.prefix == 0 {
			if old, ok := vars[p.name]; ok && full[p.name] && old != value {
				return nil, false // two places of one variable disagree
			}
			vars[p.name], full[p.name] = value, true
		}
	}
	for capture, v := range values {
		p, ok := m.places[capture]
		if !ok || p.prefix == 0 {
			continue
		}
		value := strings.Join(v.V, p.sep)
		if whole, ok := vars[p.name]; ok && full[p.name] {
			if firstRunes(whole, p.prefix) != value {
				return nil, false
			}
			continue
		}
		// Prefixes only: the longest stands for the value, the others
		// must be its beginning.
		if old, ok := vars[p.name]; !ok || len([]rune(value)) > len([]rune(old)) {
			vars[p.name] = value
		}
	}
	for capture, v := range values {
		if p, ok := m.places[capture]; ok && p.prefix > 0 && !full[p.name] {
			if value := strings.Join(v.V, p.sep); firstRunes(vars[p.name], p.prefix) != value {
				return nil, false
			}
		}
	}
	for capture, p := range m.places { // a name set at one place is set at all
		if _, set := vars[p.name]; set {
			if _, here := values[capture]; !here {
				return nil, false
			}
		}
	}
	return vars, true
}

// firstRunes is the first n characters of s (all of s when shorter).
func firstRunes(s string, n int) string {
	for i := range s {
		if n == 0 {
			return s[:i]
		}
		n--
	}
	return s
}
