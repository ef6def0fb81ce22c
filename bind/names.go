package bind

import (
	"strconv"
	"strings"
	"unicode"
)

// snakeCase turns a Go identifier into snake_case: CurrentWeather →
// current_weather, GetHTTPStatus → get_http_status, getUser → get_user.
func snakeCase(s string) string {
	rs := []rune(s)
	var b strings.Builder
	for i, r := range rs {
		if unicode.IsUpper(r) {
			if i > 0 {
				prev := rs[i-1]
				nextLower := i+1 < len(rs) && unicode.IsLower(rs[i+1])
				if unicode.IsLower(prev) || unicode.IsDigit(prev) || (unicode.IsUpper(prev) && nextLower) {
					b.WriteByte('_')
				}
			}
			b.WriteRune(unicode.ToLower(r))
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// maxToolNameLen is the longest tool name the MCP specification allows.
const maxToolNameLen = 128

// checkToolName returns why name breaks the MCP tool-name rules, or "".
// Names are 1..128 characters of A-Z, a-z, 0-9, '_', '-' and '.'.
func checkToolName(name string) string {
	if name == "" {
		return "tool name is empty"
	}
	if len(name) > maxToolNameLen {
		return "tool name is " + strconv.Itoa(len(name)) + " characters long; MCP allows at most 128"
	}
	for _, r := range name {
		if !('a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9' || r == '_' || r == '-' || r == '.') {
			return "tool name " + strconv.Quote(name) + " contains " + strconv.Quote(string(r)) + "; MCP allows only A-Z, a-z, 0-9, '_', '-' and '.'"
		}
	}
	return ""
}

// suggest returns the candidate closest to s, or "" when none is close.
func suggest(s string, candidates []string) string {
	best, bestDist := "", len(s)/2+2
	if bestDist > 3 {
		bestDist = 3
	}
	for _, c := range candidates {
		if strings.EqualFold(c, s) {
			return c
		}
		if d := levenshtein(strings.ToLower(s), strings.ToLower(c)); d < bestDist {
			best, bestDist = c, d
		}
	}
	return best
}

func levenshtein(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
