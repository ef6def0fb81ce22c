package server

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/yosida95/uritemplate/v3"
)

// uriMatcher matches URIs against an RFC 6570 resource template and
// extracts its variables, for every level-4 expression: {var}, {+var},
// {#var}, {/var}, {.var}, {;var}, {?a,b}, {&a,b}, prefixes and explode.
//
// The template is parsed and validated by
// github.com/yosida95/uritemplate/v3, whose grammar is right; matching is
// a regexp of this file's own (uritemplate_regexp.go), run by Go's RE2
// engine in time linear in the URI. The library's Match, used before, is
// quadratic (it copies every capture of every thread at every character:
// seconds for a URI of a few tens of KiB), and its Regexp has one capture
// for a whole expression, counts a prefix in octets and accepts values
// that are not UTF-8.
//
// A URI matches only when the template can expand to it: the variables
// of an expression in their order ({?a,b} takes "?b=2", not "?b=1&a=2"),
// a prefix {var:3} holding at most 3 characters, values whose
// percent-decoded octets are UTF-8. A variable the template names more
// than once has one value (RFC 6570 §2.3): each place is captured under a
// name of its own (places) and the places must agree, a prefix {var:3}
// holding the first 3 characters of the value ({a}/{a} against "p/q" and
// {name:1}/{name} against "z/secret" are no expansions of their
// templates).
type uriMatcher struct {
	re *regexp.Regexp
	// places are the variable specifications of the template in order;
	// each holds the regexp groups that capture it.
	places []templatePlace
}

// templatePlace is one variable specification of a template.
type templatePlace struct {
	capture string // the name the place is captured under (renamed when the variable was named before)
	name    string // the variable's name, without ":3" or "*"
	prefix  int    // {var:3}: 3; 0 for the whole value
	sep     string // what the items of a list are joined with
	op      byte   // the expression's operator, 0 for a simple {var}
	explode bool
	groups  []placeGroup // the regexp groups capturing the place, one per alternative it is in
}

// placeGroup is a regexp group that captures a place: alone (of 1), or
// as the nth of a run of places of items that the group captures as one
// (runRegexp).
type placeGroup struct{ group, nth, of int }

// text returns the place's text in what its group captured, false when
// the place is left out (a run of fewer items than places).
func (g placeGroup) text(captured string) (string, bool) {
	if g.of == 1 {
		return captured, true
	}
	// The places before the last of a run hold one item each, the last
	// the rest.
	for range g.nth {
		i := strings.IndexByte(captured, ',')
		if i < 0 {
			return "", false
		}
		captured = captured[i+1:]
	}
	if g.nth < g.of-1 {
		if i := strings.IndexByte(captured, ','); i >= 0 {
			captured = captured[:i]
		}
	}
	return captured, true
}

func compileURITemplate(tmpl string) (*uriMatcher, error) {
	if _, err := uritemplate.New(tmpl); err != nil {
		return nil, fmt.Errorf("URI template %q: %w", tmpl, err)
	}
	exprs, tail := templateExprs(tmpl)
	places, err := templatePlaces(exprs)
	if err != nil {
		return nil, fmt.Errorf("URI template %q: %w", tmpl, err)
	}
	re, err := templateRegexp(exprs, tail, places)
	if err != nil {
		return nil, fmt.Errorf("URI template %q: %w", tmpl, err)
	}
	return &uriMatcher{re: re, places: places}, nil
}

// templatePlaces returns the places of exprs, which uritemplate.New has
// accepted, every place of a variable after its first captured under a
// name of its own (placeName). The items of a list are joined with the
// separator the URI held between them: "," for a variable that is not
// exploded ({a} against "a,b" is "a,b") and for an exploded named one
// ({?x*} against "?x=1&x=2" is "1,2", as {?x} against "?x=1,2"); the
// operator's separator for an exploded path or label ({/path*} against
// "/a/b" is "a/b").
//
// A variable named more than once may not be in a ;, ? or & expression:
// the URI holds its name there, so its places cannot be told apart.
func templatePlaces(exprs []templateExpr) ([]templatePlace, error) {
	seen := map[string]int{}   // places of each name so far
	taken := map[string]bool{} // names a later place may not be captured under
	for _, e := range exprs {
		for _, spec := range e.specs {
			taken[specName(spec)] = true
		}
	}
	named := map[string]bool{} // names with a place in a ;, ? or & expression
	var places []templatePlace
	for _, e := range exprs {
		for _, spec := range e.specs {
			p := templatePlace{name: specName(spec), sep: ",", op: e.op, explode: strings.HasSuffix(spec, "*")}
			if p.explode && (e.op == '/' || e.op == '.') {
				p.sep = string(e.op)
			}
			if _, n, ok := strings.Cut(strings.TrimSuffix(spec, "*"), ":"); ok {
				p.prefix, _ = strconv.Atoi(n)
			}
			if isNamedOp(e.op) {
				named[p.name] = true
			}
			p.capture = p.name
			if seen[p.name] > 0 {
				p.capture = placeName(p.name, seen[p.name], taken)
			}
			seen[p.name]++
			places = append(places, p)
		}
	}
	for name, n := range seen {
		if n > 1 && named[name] {
			return nil, fmt.Errorf("variable %q is named more than once, in a ;, ? or & expression among them, where the URI cannot tell its places apart", name)
		}
	}
	return places, nil
}

// isNamedOp reports whether an expression of operator op names its
// variables in the URI (name=value).
func isNamedOp(op byte) bool { return op == ';' || op == '?' || op == '&' }

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
// is captured under: a variable name (RFC 6570 varname) that neither the
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
	loc := m.re.FindStringSubmatchIndex(uri)
	if loc == nil {
		return nil, false
	}
	values := make(map[string]string, len(m.places))
	for _, p := range m.places {
		for _, g := range p.groups {
			if loc[2*g.group] < 0 {
				continue
			}
			text, here := g.text(uri[loc[2*g.group]:loc[2*g.group+1]])
			if !here {
				break
			}
			v, ok := p.value(text)
			if !ok {
				return nil, false
			}
			values[p.capture] = v
			break
		}
	}
	return m.agree(values)
}

// agree merges the values of the places (by capture name) into the
// template's variables, or reports false when the places of a variable
// disagree.
func (m *uriMatcher) agree(values map[string]string) (map[string]string, bool) {
	vars := make(map[string]string, len(values))
	full := map[string]bool{} // names a whole-value place set
	for _, p := range m.places {
		value, ok := values[p.capture]
		if !ok || p.prefix > 0 {
			continue
		}
		if old, ok := vars[p.name]; ok && old != value {
			return nil, false // two places of one variable disagree
		}
		vars[p.name], full[p.name] = value, true
	}
	for _, p := range m.places {
		value, ok := values[p.capture]
		if !ok || p.prefix == 0 || full[p.name] {
			continue
		}
		// Prefixes only: the longest stands for the value.
		if old, ok := vars[p.name]; !ok || utf8.RuneCountInString(value) > utf8.RuneCountInString(old) {
			vars[p.name] = value
		}
	}
	for _, p := range m.places {
		value, here := values[p.capture]
		whole, set := vars[p.name]
		if here != set { // a name set at one place is set at all
			return nil, false
		}
		if here && p.prefix > 0 && firstRunes(whole, p.prefix) != value {
			return nil, false
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
