package client

import (
	"strings"
	"testing"
)

// quote is an RFC 9110 §5.6.4 quoted-string for v.
func quote(v string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(v) + `"`
}

// quotable reports whether v can be a quoted-string's content: qdtext and
// quoted-pair allow HTAB, SP and visible ASCII (obs-text aside).
func quotable(v string) bool {
	for i := 0; i < len(v); i++ {
		if c := v[i]; c != '\t' && (c < 0x20 || c > 0x7e) {
			return false
		}
	}
	return true
}

// FuzzParseChallenge: any WWW-Authenticate value parses without a panic;
// a challenge built from parameters (as a server writes one: Bearer or
// DPoP, quoted values) parses back to exactly those parameters.
func FuzzParseChallenge(f *testing.F) {
	f.Add(`Bearer resource_metadata="http://x/.well-known/oauth-protected-resource/mcp", scope="a b"`, "Bearer", "insufficient_scope", "files:write mcp", `say "hi" \ there`)
	f.Add(`DPoP error="use_dpop_nonce", resource_metadata="http://x"`, "DPoP", "use_dpop_nonce", "", "")
	f.Add(`Bearer error=invalid_token, error_description="a\"b"`, "bearer", "invalid_token", "", "expired")
	f.Add(`Basic realm="x", Bearer`, "DPOP", "", "=", ",")
	f.Fuzz(func(t *testing.T, raw, scheme, code, scope, desc string) {
		_ = parseChallenge([]string{raw})
		_ = parseChallenge(strings.Split(raw, "\n"))
		if !strings.EqualFold(scheme, "Bearer") && !strings.EqualFold(scheme, "DPoP") {
			return
		}
		if !quotable(code) || !quotable(scope) || !quotable(desc) {
			return
		}
		header := scheme + " error=" + quote(code) + ", scope=" + quote(scope) + ", error_description=" + quote(desc) +
			`, resource_metadata="https://example.com/.well-known/oauth-protected-resource"`
		ch := parseChallenge([]string{`Basic realm="other"`, header})
		if ch.scheme != scheme {
			t.Fatalf("%q: scheme %q", header, ch.scheme)
		}
		for name, want := range map[string]string{"error": code, "scope": scope, "error_description": desc,
			"resource_metadata": "https://example.com/.well-known/oauth-protected-resource"} {
			if got := ch.params[name]; got != want {
				t.Fatalf("%q: %s = %q, want %q", header, name, got, want)
			}
		}
	})
}
