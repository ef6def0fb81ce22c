package oauth

import (
	"encoding/base64"
	"fmt"
	"strings"

	"github.com/mcpgen/mcpgen/internal/jsonscan"
)

// refuseRepeatedMembers refuses a compact JWS whose JOSE header or claims
// set is not JSON, or names a member twice in any object, before any of
// it is trusted: the "kid" and "alg" that pick a key, the claims. A reader
// keeping a repeated member's first value and one keeping its last would
// see two tokens (another audience, another expiry): one message, one
// parse, by the core's parser (jsonscan.ParseTape, Tree's grammar), as for the authorization
// server's documents (decodeObject). go-jose's JSON reader refuses repeats
// too, but only once the key set is fetched and, in the claims, as a bad
// signature. A token that is not three base64url segments is left to
// go-jose to refuse.
func refuseRepeatedMembers(token string) error {
	segments := strings.SplitN(token, ".", 4)
	if len(segments) != 3 {
		return nil
	}
	for i, part := range []string{"JOSE header", "claims set"} {
		doc, err := base64.RawURLEncoding.DecodeString(segments[i])
		if err != nil {
			return nil
		}
		tape, perr := jsonscan.ParseTape(doc, jsonscan.MaxNesting)
		if perr != nil {
			if perr.Repeated {
				return fmt.Errorf("%w: the %s's member %s is repeated", errInvalid, part, quoteShort(perr.Duplicate))
			}
			return fmt.Errorf("%w: the %s is not JSON: %v", errInvalid, part, perr)
		}
		tape.Release()
	}
	return nil
}

// quoteShort quotes s, cut to 64 bytes: a name from an untrusted token
// goes into an error message.
func quoteShort(s string) string {
	if len(s) > 64 {
		return fmt.Sprintf("%q...", s[:64])
	}
	return fmt.Sprintf("%q", s)
}
