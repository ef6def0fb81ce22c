package client

import (
	"slices"
	"strings"
)

// challenge is a parsed WWW-Authenticate challenge.
type challenge struct {
	scheme string            // as sent
	params map[string]string // auth-param names lower-cased
}

// parseChallenge reads the parameters of the first Bearer (RFC 6750 §3)
// or DPoP (RFC 9449 §7.1) challenge.
func parseChallenge(values []string) challenge {
	return parseChallengeOf(values, "Bearer", "DPoP")
}

// parseChallengeOf reads the first challenge of one of schemes in the
// WWW-Authenticate field values, each a list of challenges (RFC 9110
// §11.6.1: `Basic realm="x", Bearer scope="y"` is two).
func parseChallengeOf(values []string, schemes ...string) challenge {
	for _, v := range values {
		for _, ch := range parseChallenges(v) {
			if slices.ContainsFunc(schemes, func(s string) bool { return strings.EqualFold(s, ch.scheme) }) {
				return ch
			}
		}
	}
	return challenge{params: map[string]string{}}
}

// parseChallenges splits a WWW-Authenticate field value into its
// challenges (RFC 9110 §11.6.1): challenge = auth-scheme [ 1*SP ( token68
// / #auth-param ) ], auth-param = token BWS "=" BWS ( token /
// quoted-string ). A word not followed by "=" starts a new challenge,
// unless it directly follows a scheme (a token68, skipped, as is one
// ending in "="). It is lenient: a malformed part is skipped, not fatal.
func parseChallenges(v string) []challenge {
	var out []challenge
	afterScheme := false // the last thing read was a scheme, with no comma since
	for i := 0; i < len(v); {
		switch v[i] {
		case ' ', '\t':
			i++
			continue
		case ',':
			afterScheme = false
			i++
			continue
		}
		start := i
		for i < len(v) && !strings.ContainsRune(" \t,=\"", rune(v[i])) {
			i++
		}
		word := v[start:i]
		j := skipSpace(v, i)
		if j == i && word == "" { // a stray '"' (or '=' with no name)
			i = skipValue(v, i+1)
			continue
		}
		if j < len(v) && v[j] == '=' {
			k := skipSpace(v, j+1)
			if k == len(v) || v[k] == ',' || v[k] == '=' { // token68 padding
				for k < len(v) && v[k] == '=' {
					k++
				}
				i, afterScheme = k, false
				continue
			}
			value, next := readValue(v, k)
			if len(out) > 0 && word != "" {
				out[len(out)-1].params[strings.ToLower(word)] = value
			}
			i, afterScheme = next, false
			continue
		}
		if afterScheme { // a token68 credential
			afterScheme = false
			continue
		}
		out = append(out, challenge{scheme: word, params: map[string]string{}})
		afterScheme = true
	}
	return out
}

func skipSpace(v string, i int) int {
	for i < len(v) && (v[i] == ' ' || v[i] == '\t') {
		i++
	}
	return i
}

// skipValue skips to the next comma or space.
func skipValue(v string, i int) int {
	for i < len(v) && !strings.ContainsRune(" \t,", rune(v[i])) {
		i++
	}
	return i
}

// readValue reads a quoted-string (quoted-pairs unescaped; an unclosed
// one runs to the end) or a token at v[i:] and returns it and where the
// rest begins.
func readValue(v string, i int) (string, int) {
	if v[i] != '"' {
		end := skipValue(v, i)
		return v[i:end], end
	}
	var b strings.Builder
	i++
	for ; i < len(v) && v[i] != '"'; i++ {
		if v[i] == '\\' && i+1 < len(v) {
			i++
		}
		b.WriteByte(v[i])
	}
	return b.String(), min(i+1, len(v))
}
