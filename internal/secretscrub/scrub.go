// Package secretscrub takes secrets (passwords, tokens) out of error texts
// before they reach logs: what the cluster backends' Connect does with the
// errors of the client libraries, which may quote the URL they were given.
package secretscrub

import (
	"errors"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Error is err's text with each secret replaced by "xxxxx" (see Replace),
// the longest first so that a text holding another is replaced whole; err
// itself when no secret appears in it.
func Error(err error, secrets []string) error {
	secrets = slices.Clone(secrets)
	slices.SortFunc(secrets, func(a, b string) int { return len(b) - len(a) })
	text := err.Error()
	for _, s := range secrets {
		text = Replace(text, s, "xxxxx")
	}
	if text == err.Error() {
		return err
	}
	return errors.New(text)
}

// Replace is text with each occurrence of secret replaced by with; one
// shorter than shortSecret only where no letter or digit adjoins it, so
// that a short password, token or query value ("b", "1") does not mangle
// the words around it.
func Replace(text, secret, with string) string {
	if secret == "" {
		return text
	}
	short := len(secret) < shortSecret
	var b strings.Builder
	for {
		i := strings.Index(text, secret)
		if i < 0 {
			break
		}
		end := i + len(secret)
		if short && (wordChar(text[:i], true) || wordChar(text[end:], false)) {
			b.WriteString(text[:i+1])
			text = text[i+1:]
			continue
		}
		b.WriteString(text[:i])
		b.WriteString(with)
		text = text[end:]
	}
	b.WriteString(text)
	return b.String()
}

// shortSecret is the length from which a secret is scrubbed wherever it
// appears.
const shortSecret = 4

// wordChar reports whether the last (or first) rune of s is a letter or
// a digit.
func wordChar(s string, last bool) bool {
	if s == "" {
		return false
	}
	r, _ := utf8.DecodeRuneInString(s)
	if last {
		r, _ = utf8.DecodeLastRuneInString(s)
	}
	return unicode.IsLetter(r) || unicode.IsDigit(r)
}
