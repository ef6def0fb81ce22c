package bind

import (
	"fmt"
	"strings"
)

// templateVars returns the variable names of an RFC 6570 URI template, in
// order of first appearance, or an error describing the first syntax error.
//
// Every expression is {[op]varspec,...} with op one of + # . / ; ? & and
// varspec = varname [":" max-length | "*"]; varname is letters, digits, '_',
// percent-encoded bytes and inner dots.
func templateVars(tmpl string) ([]string, error) {
	var vars []string
	seen := map[string]bool{}
	for i := 0; i < len(tmpl); i++ {
		switch tmpl[i] {
		case '}':
			return nil, fmt.Errorf("unmatched '}' at offset %d", i)
		case '{':
		default:
			continue
		}
		end := strings.IndexByte(tmpl[i:], '}')
		if end < 0 {
			return nil, fmt.Errorf("unterminated expression starting at offset %d", i)
		}
		expr := tmpl[i+1 : i+end]
		if strings.IndexByte(expr, '{') >= 0 {
			return nil, fmt.Errorf("nested '{' in expression at offset %d", i)
		}
		if expr != "" && strings.IndexByte("+#./;?&", expr[0]) >= 0 {
			expr = expr[1:]
		}
		if expr == "" {
			return nil, fmt.Errorf("empty expression at offset %d", i)
		}
		for _, spec := range strings.Split(expr, ",") {
			name := spec
			if n, mod, ok := strings.Cut(spec, ":"); ok {
				name = n
				if !validMaxLength(mod) {
					return nil, fmt.Errorf("invalid prefix modifier %q in {%s}", ":"+mod, tmpl[i+1:i+end])
				}
			} else {
				name = strings.TrimSuffix(spec, "*")
			}
			if !validVarName(name) {
				return nil, fmt.Errorf("invalid variable name %q in {%s}", name, tmpl[i+1:i+end])
			}
			if !seen[name] {
				seen[name] = true
				vars = append(vars, name)
			}
		}
		i += end
	}
	return vars, nil
}

func validMaxLength(s string) bool {
	if s == "" || len(s) > 4 || s[0] == '0' {
		return false
	}
	for _, c := range []byte(s) {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

func validVarName(s string) bool {
	if s == "" || s[0] == '.' || s[len(s)-1] == '.' {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9', c == '_', c == '.':
		case c == '%':
			if i+2 >= len(s) || !isHex(s[i+1]) || !isHex(s[i+2]) {
				return false
			}
			i += 2
		default:
			return false
		}
	}
	return true
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}
