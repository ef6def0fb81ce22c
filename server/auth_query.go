package server

import "strings"

// queryNamesAccessToken reports whether the raw query of a request has an
// access_token parameter (RFC 6750 §2.3), the form the MCP authorization
// spec forbids ("Access tokens MUST NOT be included in the URI query
// string"). It reads the query leniently, the way the most forgiving
// parser a proxy or log reader might use would, rather than with
// url.ParseQuery, which drops every pair it cannot parse: pairs are split
// at '&' and ';', a name's '+' is a space and its valid %-escapes are
// decoded (an invalid one is kept as it is), and the name is compared
// without regard to case. A token such a query carries has already gone
// where query strings go (logs, Referer headers), so the request is
// refused whatever else the query holds.
func queryNamesAccessToken(rawQuery string) bool {
	const name = "access_token"
	for pair := range strings.FieldsFuncSeq(rawQuery, func(r rune) bool { return r == '&' || r == ';' }) {
		key, _, _ := strings.Cut(pair, "=")
		if strings.EqualFold(unescapeLenient(key), name) {
			return true
		}
	}
	return false
}

// unescapeLenient decodes a query name: '+' is a space, a valid %XX escape
// its byte, and anything else (an invalid escape included) itself.
func unescapeLenient(s string) string {
	if !strings.ContainsAny(s, "%+") {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '+':
			b.WriteByte(' ')
		case c == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]):
			b.WriteByte(unhex(s[i+1])<<4 | unhex(s[i+2]))
			i += 2
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

func unhex(c byte) byte {
	switch {
	case c >= 'a':
		return c - 'a' + 10
	case c >= 'A':
		return c - 'A' + 10
	}
	return c - '0'
}
