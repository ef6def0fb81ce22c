package templates

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
)

// ociComponent makes s a path component of an OCI repository name, as the
// distribution spec's grammar wants: [a-z0-9]+((\.|_|__|-+)[a-z0-9]+)*.
// Letters are lowered and other characters dropped; a run of separators
// that the grammar does not allow between two alphanumerics (a._b, a___b,
// x.-y) becomes one '-', and separators at either end go. It returns ""
// when s has no letter or digit.
func ociComponent(s string) string {
	s = strings.ToLower(registryPart(s, "._-"))
	var b strings.Builder
	for i := 0; i < len(s); {
		j := i
		for j < len(s) && isOCISeparator(s[j]) {
			j++
		}
		if j == i {
			b.WriteByte(s[i])
			i++
			continue
		}
		if i > 0 && j < len(s) { // a separator between alphanumerics
			b.WriteString(ociSeparator(s[i:j]))
		}
		i = j
	}
	return b.String()
}

func isOCISeparator(c byte) bool { return c == '.' || c == '_' || c == '-' }

// ociSeparator is run when the grammar allows it between two components'
// alphanumerics (".", "_", "__", or dashes), else "-".
func ociSeparator(run string) string {
	if run == "." || run == "_" || run == "__" || strings.Trim(run, "-") == "" {
		return run
	}
	return "-"
}

// shorten returns s when it has at most max bytes, else a prefix of s and
// a hash of the whole of s joined by '-', at most max bytes in all:
// deterministic, and distinct for distinct long strings. Separators ('.',
// '_', '-') at the end of the prefix go, so that the result stays a valid
// OCI path component when s is one. s is ASCII; max is at least 18.
func shorten(s string, max int) string {
	if len(s) <= max {
		return s
	}
	sum := sha256.Sum256([]byte(s))
	tag := hex.EncodeToString(sum[:])[:16]
	prefix := strings.TrimRight(s[:max-len(tag)-1], "._-")
	return prefix + "-" + tag
}
