package generator

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// initialisms are the words Go spells in capitals (Effective Go, "MixedCaps").
var initialisms = map[string]string{
	"Id": "ID", "Url": "URL", "Uri": "URI", "Json": "JSON", "Http": "HTTP",
	"Https": "HTTPS", "Api": "API", "Mime": "MIME", "Ttl": "TTL", "Rpc": "RPC",
	"Html": "HTML", "Ip": "IP", "Sse": "SSE", "Utf8": "UTF8", "Ascii": "ASCII",
}

// fieldName turns a JSON member name into an exported Go field name:
// "mimeType" → "MIMEType", "_meta" → "Meta",
// "io.modelcontextprotocol/clientInfo" → "ClientInfo", "$schema" → "Schema".
func fieldName(json string) string {
	if i := strings.LastIndexByte(json, '/'); i >= 0 {
		json = json[i+1:]
	}
	return camel(json)
}

// camel splits s into words at non-alphanumerics and lower→upper case
// changes, capitalises each and applies Go initialisms.
func camel(s string) string {
	var words []string
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			words = append(words, string(cur))
			cur = cur[:0]
		}
	}
	runes := []rune(s)
	for i, r := range runes {
		switch {
		case !unicode.IsLetter(r) && !unicode.IsDigit(r), r == '_':
			flush()
		case unicode.IsUpper(r) && i > 0 && unicode.IsLower(runes[i-1]):
			flush()
			cur = append(cur, r)
		default:
			cur = append(cur, r)
		}
	}
	flush()
	var sb strings.Builder
	for _, w := range words {
		r := []rune(w) // upper-case the first rune, never a byte of it
		w = string(unicode.ToUpper(r[0])) + string(r[1:])
		if full, ok := initialisms[w]; ok {
			w = full
		}
		sb.WriteString(w)
	}
	out := sb.String()
	if first, _ := utf8.DecodeRuneInString(out); out == "" || !unicode.IsUpper(first) {
		// Empty, a leading digit, or a letter without case (名前): X makes
		// it an exported identifier.
		out = "X" + out
	}
	return out
}

// lowerFirst makes an unexported identifier from an exported one.
func lowerFirst(s string) string {
	if s == "" {
		return s
	}
	r := []rune(s)
	// Keep leading initialisms together: JSONValue → jsonValue.
	i := 0
	for i < len(r) && unicode.IsUpper(r[i]) {
		i++
	}
	switch {
	case i == 0:
		return s
	case i == 1 || i == len(r):
		return strings.ToLower(string(r[:i])) + string(r[i:])
	default:
		return strings.ToLower(string(r[:i-1])) + string(r[i-1:])
	}
}
