package schema

import (
	"strings"
	"unicode"
)

// goCase turns a property name into the part of a type name it contributes:
// "inputSchema" → "InputSchema", "io.modelcontextprotocol/clientInfo" →
// "ClientInfo", "$schema" → "Schema".
func goCase(name string) string {
	if i := strings.LastIndexByte(name, '/'); i >= 0 {
		name = name[i+1:]
	}
	var sb strings.Builder
	upper := true
	for _, r := range name {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			upper = true
			continue
		}
		if upper {
			r = unicode.ToUpper(r)
			upper = false
		}
		sb.WriteRune(r)
	}
	return sb.String()
}
