package oauth

import (
	"net/url"
	"strings"

	"github.com/mcpgen/mcpgen/server"
)

// tokenInfo reads the standard claims of a JWT payload or introspection
// response into a server.TokenInfo. A malformed scope (grantedScopes) or
// exp (numericDate) refuses the token.
func tokenInfo(claims map[string]any) (*server.TokenInfo, error) {
	info := &server.TokenInfo{Claims: claims}
	info.Subject, _ = claims["sub"].(string)
	info.Issuer, _ = claims["iss"].(string)
	info.ClientID, _ = claims["client_id"].(string)
	if info.ClientID == "" {
		info.ClientID, _ = claims["azp"].(string)
	}
	info.Audience = stringList(claims["aud"])
	var err error
	if info.Scopes, err = grantedScopes(claims); err != nil {
		return nil, err
	}
	if info.Expiry, _, err = numericDate(claims, "exp"); err != nil {
		return nil, err
	}
	return info, nil
}

// stringList reads a string or an array of strings.
func stringList(v any) []string {
	switch x := v.(type) {
	case string:
		if x == "" {
			return nil
		}
		return []string{x}
	case []any:
		out := make([]string, 0, len(x))
		for _, e := range x {
			if s, ok := e.(string); ok {
				out = append(out, s)
			}
		}
		return out
	}
	return nil
}

// audienceMatches reports whether aud names resource. URIs compare after
// the normalisation basic/authorization/ allows ("implementations SHOULD
// accept uppercase scheme and host components"), and a trailing slash is
// not significant.
func audienceMatches(aud []string, resource string) bool {
	want := canonical(resource)
	for _, a := range aud {
		if canonical(a) == want {
			return true
		}
	}
	return false
}

func canonical(s string) string {
	u, err := url.Parse(s)
	if err != nil || !u.IsAbs() {
		return s
	}
	u.Scheme, u.Host = strings.ToLower(u.Scheme), strings.ToLower(u.Host)
	out := u.String()
	return strings.TrimSuffix(out, "/")
}
