package oauth

import (
	"fmt"
	"strings"
)

// grantedScopes reads the scopes a token grants: "scope", a list of scope
// tokens separated by spaces (RFC 6749 §3.3, RFC 7662 §2.2, RFC 9068
// §2.2.3), or else "scp" (Azure-style: such a string, or an array of scope
// tokens). Only %x20 separates (repeated, leading and trailing spaces are
// tolerated); a scope token is 1*( %x21 / %x23-5B / %x5D-7E ), so a scope
// holding a tab, a non-breaking space, any other whitespace or control
// character, a quote, a backslash or a non-ASCII byte is malformed, and the
// token is refused (wrapping server.ErrInvalidToken) rather than read one
// way here and another at the authorization server.
func grantedScopes(claims map[string]any) ([]string, error) {
	if raw, ok := claims["scope"]; ok && raw != nil {
		s, isString := raw.(string)
		if !isString {
			return nil, fmt.Errorf("%w: the scope claim is not a string", errInvalid)
		}
		return scopeList("scope", s)
	}
	switch x := claims["scp"].(type) {
	case nil:
		return nil, nil
	case string:
		return scopeList("scp", x)
	case []any:
		out := make([]string, 0, len(x))
		for _, e := range x {
			s, isString := e.(string)
			if !isString || !validScopeToken(s) {
				return nil, fmt.Errorf("%w: the scp claim holds %q, not a scope token (RFC 6749 §3.3)", errInvalid, fmt.Sprint(e))
			}
			out = append(out, s)
		}
		return out, nil
	}
	return nil, fmt.Errorf("%w: the scp claim is neither a string nor an array", errInvalid)
}

// scopeList splits a space-delimited scope string of the claim name.
func scopeList(name, s string) ([]string, error) {
	var out []string
	for tok := range strings.SplitSeq(s, " ") {
		if tok == "" {
			continue
		}
		if !validScopeToken(tok) {
			return nil, fmt.Errorf("%w: the %s claim %q is not a list of scope tokens separated by spaces (RFC 6749 §3.3)", errInvalid, name, s)
		}
		out = append(out, tok)
	}
	return out, nil
}

// validScopeToken reports whether s is an RFC 6749 scope-token: one or
// more of %x21 / %x23-5B / %x5D-7E.
func validScopeToken(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x21 || c > 0x7e || c == '"' || c == '\\' {
			return false
		}
	}
	return true
}
