package client

import (
	"net/http"
	"strings"
)

// challenge is the parsed WWW-Authenticate challenge of the schemes asked
// for: their auth-params merged.
type challenge struct {
	scheme string            // the most preferred scheme present, as sent
	params map[string]string // auth-param names lower-cased
}

// maxChallengeBytes bounds the WWW-Authenticate text parsed per response:
// field lines are joined in order while their total stays within it, and
// the rest are ignored (a sane challenge list is a few hundred bytes; a
// hostile one can fill the 10 MiB of headers net/http accepts).
const maxChallengeBytes = 64 << 10

// challengeOf reads the Bearer (RFC 6750 §3) and DPoP (RFC 9449 §7.1)
// challenges of resp, preferring the scheme of the token its request
// presented (Bearer when it presented none).
func challengeOf(resp *http.Response) challenge {
	values := resp.Header.Values("WWW-Authenticate")
	if resp.Request != nil {
		if scheme, _, _ := strings.Cut(resp.Request.Header.Get("Authorization"), " "); strings.EqualFold(scheme, "DPoP") {
			return parseChallengeOf(values, "DPoP", "Bearer")
		}
	}
	return parseChallenge(values)
}

// parseChallenge reads the Bearer and DPoP challenges, Bearer preferred.
func parseChallenge(values []string) challenge {
	return parseChallengeOf(values, "Bearer", "DPoP")
}

// parseChallengeOf reads the challenges of schemes in the WWW-Authenticate
// field lines, each a list of challenges (RFC 9110 §11.6.1: `Basic
// realm="x", Bearer scope="y"` is two), and merges their parameters: a
// server that accepts both bearer and DPoP tokens sends a challenge of
// each (RFC 9449 §7.2), and resource_metadata may be in either (RFC 9728
// §5.1). The lines are read as one list, joined by ", " (RFC 9110 §5.3):
// a challenge's parameters may continue on the next line. A parameter
// takes its value from the challenge of the earliest scheme in schemes
// that has it, the first such challenge in field order. Only challenges
// of schemes get a parameter map; the text parsed is bounded by
// maxChallengeBytes.
func parseChallengeOf(values []string, schemes ...string) challenge {
	found := make([]map[string]string, len(schemes)) // per scheme, first value of each parameter
	sent := make([]string, len(schemes))
	current := -1 // the index in schemes of the challenge being read
	scanChallenges(joinFieldLines(values, maxChallengeBytes), func(scheme string) {
		current = -1
		for i, s := range schemes {
			if strings.EqualFold(s, scheme) {
				current = i
				if found[i] == nil {
					found[i], sent[i] = map[string]string{}, scheme
				}
				return
			}
		}
	}, func(name, raw string) {
		if current < 0 {
			return
		}
		name = strings.ToLower(name)
		if _, ok := found[current][name]; !ok {
			found[current][name] = unquote(raw)
		}
	})
	out := challenge{params: map[string]string{}}
	for i := len(schemes) - 1; i >= 0; i-- { // the preferred last, overwriting
		if found[i] == nil {
			continue
		}
		out.scheme = sent[i]
		for name, value := range found[i] {
			out.params[name] = value
		}
	}
	return out
}

// joinFieldLines is the field value of a list-based field sent as the
// field lines values: their values joined by ", " (RFC 9110 §5.3), the
// lines taken in order while their total length stays within limit (a
// line that does not fit, and those after it, are left out).
func joinFieldLines(values []string, limit int) string {
	n := 0
	for n < len(values) && len(values[n]) <= limit {
		limit -= len(values[n])
		n++
	}
	return strings.Join(values[:n], ", ")
}

// scanChallenges walks the challenges of a WWW-Authenticate field value
// (RFC 9110 §11.6.1): challenge = auth-scheme [ 1*SP ( token68 /
// #auth-param ) ], auth-param = token BWS "=" BWS ( token /
// quoted-string ). It calls scheme for each challenge and param for each
// of its auth-params, with the value as sent (a quoted-string still
// quoted: unquote). A word not followed by "=" starts a new challenge,
// unless it directly follows a scheme (a token68, skipped, as is one
// ending in "="). It is lenient: a malformed part is skipped, not fatal.
// It allocates nothing itself.
func scanChallenges(v string, scheme func(scheme string), param func(name, raw string)) {
	afterScheme := false // the last thing read was a scheme, with no comma since
	inChallenge := false // a scheme has been read
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
			next := valueEnd(v, k)
			if inChallenge && word != "" {
				param(word, v[k:next])
			}
			i, afterScheme = next, false
			continue
		}
		if afterScheme { // a token68 credential
			afterScheme = false
			continue
		}
		scheme(word)
		inChallenge, afterScheme = true, true
	}
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

// valueEnd returns where the quoted-string (an unclosed one runs to the
// end) or token at v[i:] ends.
func valueEnd(v string, i int) int {
	if v[i] != '"' {
		return skipValue(v, i)
	}
	for i++; i < len(v) && v[i] != '"'; i++ {
		if v[i] == '\\' && i+1 < len(v) {
			i++
		}
	}
	return min(i+1, len(v))
}

// unquote returns the value of an auth-param as sent: a token as it is,
// a quoted-string's content with its quoted-pairs unescaped.
func unquote(raw string) string {
	if raw == "" || raw[0] != '"' {
		return raw
	}
	var b strings.Builder
	for i := 1; i < len(raw) && raw[i] != '"'; i++ {
		if raw[i] == '\\' && i+1 < len(raw) {
			i++
		}
		b.WriteByte(raw[i])
	}
	return b.String()
}
