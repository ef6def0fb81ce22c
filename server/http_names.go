package server

import (
	"errors"
	"fmt"
	"net/url"
	"strings"
)

// checkNames refuses the internationalized names of o's Origin and Host
// lists (AllowedOrigins, AllowedHosts, CORS.AllowedOrigins). A browser
// sends a name such as bücher.example in its ASCII form, the IDNA "A-label"
// xn--bcher-kva.example, in Origin and in Host alike (WHATWG URL: domain
// to ASCII), so a Unicode entry would never match and its pages would get
// 403. The conversion needs the IDNA mapping and normalization tables
// (golang.org/x/net/idna and golang.org/x/text, kept out of the server
// binary; net/http's own copy cannot be imported), so the entry is refused
// with the form to write instead of being converted here.
func (o HTTPOptions) checkNames() error {
	var errs []error
	check := func(field string, names []string) {
		for _, n := range names {
			if isASCIIName(n) {
				continue
			}
			errs = append(errs, fmt.Errorf("server: HTTPOptions.%s entry %q is not ASCII: list an internationalized name in the ASCII (IDNA, \"xn--\") form browsers send in Origin and Host, e.g. xn--bcher-kva.example for bücher.example", field, n))
		}
	}
	check("AllowedOrigins", o.AllowedOrigins)
	check("AllowedHosts", o.AllowedHosts)
	check("CORS.AllowedOrigins", o.CORS.AllowedOrigins)
	return errors.Join(errs...)
}

// isASCIIName reports whether a Host or Origin entry is ASCII, its host
// %-escapes decoded too.
func isASCIIName(s string) bool {
	if !isASCII(s) {
		return false
	}
	if strings.Contains(s, "://") && strings.Contains(s, "%") {
		if u, err := url.Parse(s); err == nil {
			return isASCII(u.Hostname())
		}
	}
	return true
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}
