package server

import (
	"fmt"
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
// URI, decides.
type uriMatcher struct {
	t *uritemplate.Template
	// vars maps the name Match reports a variable under ("var:3" for a
	// prefix {var:3}) to how its value is read.
	vars map[string]templateVar
}

// templateVar is one variable specification of a template.
type templateVar struct {
	name   string // the variable's name, without ":3" or "*"
	prefix bool   // {var:3}: a full {var} elsewhere in the template wins
	sep    string // what the items of a list are joined with
}

func compileURITemplate(tmpl string) (*uriMatcher, error) {
	t, err := uritemplate.New(tmpl)
	if err != nil {
		return nil, fmt.Errorf("URI template %q: %w", tmpl, err)
	}
	return &uriMatcher{t: t, vars: templateVars(tmpl)}, nil
}

// templateVars lists the variable specifications of tmpl, which
// uritemplate.New has accepted, by the name Match reports each under. The
// items of a list are joined with the separator the URI held between
// them: "," for a variable that is not exploded ({a} against "a,b" is
// "a,b") and for an exploded named one ({?x*} against "?x=1&x=2" is
// "1,2", as {?x} against "?x=1,2"); the operator's separator for an
// exploded path or label ({/path*} against "/a/b" is "a/b").
func templateVars(tmpl string) map[string]templateVar {
	vars := map[string]templateVar{}
	for rest := tmpl; ; {
		open := strings.IndexByte(rest, '{')
		if open < 0 {
			return vars
		}
		end := open + strings.IndexByte(rest[open:], '}')
		expr := rest[open+1 : end]
		rest = rest[end+1:]
		var op byte
		if expr != "" && strings.IndexByte("+#./;?&", expr[0]) >= 0 {
			op, expr = expr[0], expr[1:]
		}
		for _, spec := range strings.Split(expr, ",") {
			v := templateVar{name: spec, sep: ","}
			if name, ok := strings.CutSuffix(spec, "*"); ok {
				v.name, spec = name, name
				if op == '/' || op == '.' {
					v.sep = string(op)
				}
			}
			if name, _, ok := strings.Cut(spec, ":"); ok {
				v.name, v.prefix = name, true
			}
			vars[spec] = v
		}
	}
}

// match returns the template variables of uri (percent-decoded), or false
// when the template cannot expand to uri. A list is joined as templateVars
// says; a variable the URI leaves out (an optional {?q}) is absent from
// the map.
func (m *uriMatcher) match(uri string) (map[string]string, bool) {
	if !m.t.Regexp().MatchString(uri) {
		return nil, false
	}
	values := m.t.Match(uri)
	if values == nil {
		return nil, false
	}
	vars := make(map[string]string, len(values))
	for capture, v := range values {
		spec, ok := m.vars[capture]
		if !ok {
			spec = templateVar{name: capture, sep: ","}
		}
		if _, full := values[spec.name]; spec.prefix && full {
			continue
		}
		vars[spec.name] = strings.Join(v.V, spec.sep)
	}
	return vars, true
}
