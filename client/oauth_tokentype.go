package client

import (
	"fmt"
	"strings"
)

// checkTokenType returns an error unless typ, the token_type of a token
// response from endpoint, is one this client can present: "Bearer"
// (RFC 6750), or "DPoP" (RFC 9449) when the request carried a DPoP
// proof; token type names compare case-insensitively (RFC 6749 §5.1).
// RFC 6749 §7.1: a client "MUST NOT use an access token if it does not
// understand the token type", and token_type is REQUIRED (§5.1): a token
// of another type, or of none, is not used.
func checkTokenType(endpoint, typ string, dpop bool) error {
	switch {
	case strings.EqualFold(typ, "Bearer"):
		return nil
	case strings.EqualFold(typ, "DPoP") && dpop:
		return nil
	case strings.EqualFold(typ, "DPoP"):
		return fmt.Errorf("client: the token endpoint at %s issued a DPoP token to a request without a proof", endpoint)
	case typ == "":
		return fmt.Errorf("client: the token endpoint at %s issued a token without a token_type; not used", endpoint)
	}
	return fmt.Errorf("client: the token endpoint at %s issued a token of type %q, which this client does not understand (it presents Bearer and DPoP tokens); not used",
		endpoint, clipURL(typ))
}
