package client

import (
	"net/url"
	"strings"
)

// sameOrigin reports whether a and b are of one origin (RFC 6454 §4):
// scheme, host (case-insensitive) and port (the scheme's default when
// absent) all equal.
func sameOrigin(a, b *url.URL) bool {
	return strings.EqualFold(a.Scheme, b.Scheme) && strings.EqualFold(a.Hostname(), b.Hostname()) &&
		effectivePort(a) == effectivePort(b)
}

func effectivePort(u *url.URL) string {
	if p := u.Port(); p != "" {
		return p
	}
	switch strings.ToLower(u.Scheme) {
	case "https":
		return "443"
	case "http":
		return "80"
	}
	return ""
}
