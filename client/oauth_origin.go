package client

import (
	"net/url"
	"strings"

	"golang.org/x/net/idna"
)

// sameOrigin reports whether a and b are of one origin (RFC 6454 §4):
// scheme, host and port (the scheme's default when absent) all equal.
// Hosts compare as the network sees them (sameHost), not by Unicode case
// folding: σ.example and ς.example fold together but are two DNS names.
func sameOrigin(a, b *url.URL) bool {
	return asciiEqualFold(a.Scheme, b.Scheme) && sameHost(a.Hostname(), b.Hostname()) &&
		effectivePort(a) == effectivePort(b)
}

// sameHost reports whether net/http dials hosts a and b as one name: it
// sends an ASCII host as it is and converts any other with the IDNA
// Lookup profile (UTS #46 non-transitional, STD3 rules), so hosts compare
// in that ASCII form, case-insensitively. A host the profile refuses
// matches nothing.
func sameHost(a, b string) bool {
	a, okA := lookupHost(a)
	b, okB := lookupHost(b)
	return okA && okB && asciiEqualFold(a, b)
}

// lookupHost is host as net/http names it on the wire (its idnaASCII).
func lookupHost(host string) (string, bool) {
	if isASCII(host) {
		return host, true
	}
	ascii, err := idna.Lookup.ToASCII(host)
	return ascii, err == nil
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// asciiEqualFold reports whether a and b are equal under ASCII case
// folding only (strings.EqualFold also folds non-ASCII letters, e.g. the
// Kelvin sign K to k).
func asciiEqualFold(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := 0; i < len(a); i++ {
		if lowerASCII(a[i]) != lowerASCII(b[i]) {
			return false
		}
	}
	return true
}

func lowerASCII(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
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
