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
type uriMatcher struct {
	t *uritemplate.Template
}

func compileURITemplate(tmpl string) (*uriMatcher, error) {
	t, err := uritemplate.New(tmpl)
	if err != nil {
		return nil, fmt.Errorf("URI template %q: %w", tmpl, err)
	}
	return &uriMatcher{t: t}, nil
}

// match returns the template variables of uri (percent-decoded), or false.
// An exploded list ({/path*}) is joined with "/", the separator it was
// matched on for path segments; a variable the URI leaves out (an optional
// {?q}) is absent from the map.
func (m *uriMatcher) match(uri string) (map[string]string, bool) {
	if !m.t.Regexp().MatchString(uri) {
		return nil, false
	}
	values := m.t.Match(uri)
	vars := make(map[string]string, len(values))
	for name, v := range values {
		switch v.T {
		case uritemplate.ValueTypeString:
			vars[name] = v.String()
		case uritemplate.ValueTypeList:
			vars[name] = strings.Join(v.List(), "/")
		case uritemplate.ValueTypeKV:
			vars[name] = strings.Join(v.KV(), ",")
		}
	}
	return vars, true
}
