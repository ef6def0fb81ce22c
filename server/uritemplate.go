package server

import (
	"fmt"
	"net/url"
	"regexp"
	"strings"
)

// uriMatcher matches URIs against an RFC 6570 template and extracts its
// variables. It supports the expressions resource templates use: {var},
// {+var}, {#var}, {/var}, {.var}, {;var}, {?a,b} and {&a,b} (modifiers :N
// and * are accepted and ignored).
type uriMatcher struct {
	re   *regexp.Regexp
	vars []string
}

func compileURITemplate(tmpl string) (*uriMatcher, error) {
	var b strings.Builder
	m := &uriMatcher{}
	b.WriteString("^")
	rest := tmpl
	for rest != "" {
		i := strings.IndexByte(rest, '{')
		if i < 0 {
			if strings.IndexByte(rest, '}') >= 0 {
				return nil, fmt.Errorf("URI template %q: unmatched '}'", tmpl)
			}
			b.WriteString(regexp.QuoteMeta(rest))
			break
		}
		if strings.IndexByte(rest[:i], '}') >= 0 {
			return nil, fmt.Errorf("URI template %q: unmatched '}'", tmpl)
		}
		b.WriteString(regexp.QuoteMeta(rest[:i]))
		j := strings.IndexByte(rest[i:], '}')
		if j < 0 {
			return nil, fmt.Errorf("URI template %q: unclosed '{'", tmpl)
		}
		expr := rest[i+1 : i+j]
		rest = rest[i+j+1:]
		op := ""
		if expr != "" && strings.ContainsRune("+#/.;?&", rune(expr[0])) {
			op, expr = expr[:1], expr[1:]
		}
		if expr == "" {
			return nil, fmt.Errorf("URI template %q: empty expression", tmpl)
		}
		names := strings.Split(expr, ",")
		for k, name := range names {
			name = strings.TrimSuffix(name, "*")
			if c := strings.IndexByte(name, ':'); c >= 0 {
				name = name[:c]
			}
			if name == "" {
				return nil, fmt.Errorf("URI template %q: empty variable name", tmpl)
			}
			m.vars = append(m.vars, name)
			switch op {
			case "":
				if k > 0 {
					b.WriteString(",")
				}
				b.WriteString("([^/?#,]*)")
			case "+":
				if k > 0 {
					b.WriteString(",")
				}
				b.WriteString("([^?#]*)")
			case "#":
				if k == 0 {
					b.WriteString("#")
				} else {
					b.WriteString(",")
				}
				b.WriteString("(.*)")
			case "/", ".":
				b.WriteString(regexp.QuoteMeta(op) + "([^/?#.]*)")
			case ";":
				b.WriteString(";" + regexp.QuoteMeta(name) + "=?([^;/?#]*)")
			case "?", "&":
				sep := "[?&]"
				b.WriteString("(?:" + sep + regexp.QuoteMeta(name) + "=([^&#]*))?")
			}
		}
	}
	b.WriteString("$")
	re, err := regexp.Compile(b.String())
	if err != nil {
		return nil, fmt.Errorf("URI template %q: %w", tmpl, err)
	}
	m.re = re
	return m, nil
}

// match returns the template variables of uri, or false.
func (m *uriMatcher) match(uri string) (map[string]string, bool) {
	sub := m.re.FindStringSubmatch(uri)
	if sub == nil {
		return nil, false
	}
	vars := make(map[string]string, len(m.vars))
	for i, name := range m.vars {
		v := sub[i+1]
		if u, err := url.PathUnescape(v); err == nil {
			v = u
		}
		vars[name] = v
	}
	return vars, true
}
