package argcheck

import (
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// nativeFormat asserts one "format" on strings, accepting exactly what
// santhosh-tekuri/jsonschema's format of that name accepts (the same
// standard-library parsers, the same rules; FuzzNativeAgreesWithSanthosh
// checks it).
type nativeFormat struct {
	name  string
	valid func(string) bool
}

// santhoshFormats are the formats santhosh-tekuri asserts; any other name
// is an annotation.
var santhoshFormats = map[string]bool{
	"json-pointer": true, "relative-json-pointer": true, "uuid": true, "duration": true, "period": true,
	"ipv4": true, "ipv6": true, "hostname": true, "email": true, "date": true, "time": true,
	"date-time": true, "uri": true, "iri": true, "uri-reference": true, "iri-reference": true,
	"uri-template": true, "semver": true, "regex": true,
}

var nativeFormats = map[string]*nativeFormat{
	"date-time":     {"date-time", validDateTime},
	"date":          {"date", validDate},
	"time":          {"time", validTime},
	"uuid":          {"uuid", validUUID},
	"ipv4":          {"ipv4", validIPv4},
	"ipv6":          {"ipv6", validIPv6},
	"hostname":      {"hostname", validHostname},
	"email":         {"email", validEmail},
	"uri":           {"uri", validURI},
	"iri":           {"iri", validURI},
	"uri-reference": {"uri-reference", validURIReference},
	"iri-reference": {"iri-reference", validURIReference},
}

// formatByName returns the format's checker; known is false for a name
// santhosh-tekuri ignores, ok false for one it asserts and this does not.
func formatByName(name string) (f *nativeFormat, known, ok bool) {
	if !santhoshFormats[name] {
		return nil, false, true
	}
	f, ok = nativeFormats[name]
	return f, true, ok
}

func validDate(s string) bool {
	_, err := time.Parse("2006-01-02", s)
	return err == nil
}

// validDateTime is RFC 3339 section 5.6's date-time: a date, "T" or "t", a time.
func validDateTime(s string) bool {
	return len(s) >= 20 && (s[10] == 't' || s[10] == 'T') && validDate(s[:10]) && validTime(s[11:])
}

// validTime is RFC 3339's full-time: hh:mm:ss, an optional fraction, then
// "Z", "z" or ±hh:mm; a leap second only at 23:59 UTC.
func validTime(str string) bool {
	if len(str) < 9 || str[2] != ':' || str[5] != ':' {
		return false
	}
	var hms [3]int
	for i, tok := range strings.SplitN(str[:8], ":", 3) {
		n, err := strconv.Atoi(tok)
		if err != nil || n < 0 {
			return false
		}
		hms[i] = n
	}
	h, m, sec := hms[0], hms[1], hms[2]
	if h > 23 || m > 59 || sec > 60 {
		return false
	}
	str = str[8:]
	if rem, ok := strings.CutPrefix(str, "."); ok {
		digits := 0
		for digits < len(rem) && rem[digits] >= '0' && rem[digits] <= '9' {
			digits++
		}
		if digits == 0 {
			return false
		}
		str = rem[digits:]
	}
	if str != "z" && str != "Z" {
		if len(str) != 6 {
			return false
		}
		sign := 0
		switch str[0] {
		case '+':
			sign = -1
		case '-':
			sign = 1
		default:
			return false
		}
		str = str[1:]
		if str[2] != ':' {
			return false
		}
		var zhm [2]int
		for i, tok := range strings.SplitN(str, ":", 2) {
			n, err := strconv.Atoi(tok)
			if err != nil || n < 0 {
				return false
			}
			zhm[i] = n
		}
		if zhm[0] > 23 || zhm[1] > 59 {
			return false
		}
		hm := h*60 + m + sign*(zhm[0]*60+zhm[1])
		if hm < 0 {
			hm += 24 * 60
		}
		h, m = hm/60, hm%60
	}
	return sec < 60 || h == 23 && m == 59
}

// validUUID is five groups of 8, 4, 4, 4 and 12 hex digits.
func validUUID(s string) bool {
	groups := strings.Split(s, "-")
	if len(groups) != 5 {
		return false
	}
	for i, g := range groups {
		if len(g) != [5]int{8, 4, 4, 4, 12}[i] {
			return false
		}
		for _, c := range g {
			if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
				return false
			}
		}
	}
	return true
}

// validIPv4 is four decimals 0–255 without leading zeros (strconv.Atoi's
// grammar otherwise, as santhosh-tekuri: "+1" is a decimal).
func validIPv4(s string) bool {
	groups := strings.Split(s, ".")
	if len(groups) != 4 {
		return false
	}
	for _, g := range groups {
		if len(g) > 1 && g[0] == '0' {
			return false
		}
		n, err := strconv.Atoi(g)
		if err != nil || n < 0 || n > 255 {
			return false
		}
	}
	return true
}

// validIPv6 is what netip.ParseAddr takes, with a colon and no zone.
func validIPv6(s string) bool {
	if !strings.Contains(s, ":") {
		return false
	}
	addr, err := netip.ParseAddr(s)
	return err == nil && addr.Zone() == ""
}

// validHostname is at most 253 characters (a trailing dot aside) of
// dot-separated labels of 1–63 letters, digits and inner hyphens.
func validHostname(s string) bool {
	s = strings.TrimSuffix(s, ".")
	if len(s) > 253 {
		return false
	}
	for _, label := range strings.Split(s, ".") {
		if len(label) < 1 || len(label) > 63 || label[0] == '-' || label[len(label)-1] == '-' {
			return false
		}
		for _, c := range label {
			if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-') {
				return false
			}
		}
	}
	return true
}

// validEmail is local@domain, at most 254 characters: the local part (at
// most 64) quoted without backslashes or quotes inside, or dot-atoms of
// RFC 5322's atext; the domain a hostname or a bracketed IPv4 or
// "IPv6:" address. The last @ separates them.
func validEmail(s string) bool {
	if len(s) > 254 {
		return false
	}
	at := strings.LastIndexByte(s, '@')
	if at == -1 {
		return false
	}
	local, domain := s[:at], s[at+1:]
	if len(local) > 64 {
		return false
	}
	if len(local) > 1 && strings.HasPrefix(local, `"`) && strings.HasSuffix(local, `"`) {
		if strings.ContainsAny(local[1:len(local)-1], `\"`) {
			return false
		}
	} else {
		if strings.HasPrefix(local, ".") || strings.HasSuffix(local, ".") || strings.Contains(local, "..") {
			return false
		}
		for _, c := range local {
			if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.ContainsRune(".!#$%&'*+-/=?^_`{|}~", c)) {
				return false
			}
		}
	}
	if strings.HasPrefix(domain, "[") && strings.HasSuffix(domain, "]") {
		domain = domain[1 : len(domain)-1]
		if rem, ok := strings.CutPrefix(domain, "IPv6:"); ok {
			return validIPv6(rem)
		}
		return validIPv4(domain)
	}
	return validHostname(domain)
}

// parseURI is url.Parse, and an IPv6 host must be bracketed and valid.
func parseURI(s string) (*url.URL, bool) {
	u, err := url.Parse(s)
	if err != nil {
		return nil, false
	}
	if host := u.Hostname(); strings.Contains(host, ":") {
		if !strings.Contains(u.Host, "[") || !strings.Contains(u.Host, "]") || !validIPv6(host) {
			return nil, false
		}
	}
	return u, true
}

func validURI(s string) bool {
	u, ok := parseURI(s)
	return ok && u.IsAbs()
}

func validURIReference(s string) bool {
	if strings.Contains(s, `\`) {
		return false
	}
	_, ok := parseURI(s)
	return ok
}
