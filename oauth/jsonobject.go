package oauth

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/mcpgen/mcpgen/internal/jsonscan"
)

// decodeObject decodes a JSON object an authorization server sent
// (metadata, an introspection response) into a map read by exact member
// name, numbers as float64 as encoding/json decodes them. A document in
// which a member name is repeated in any object is refused: encoding/json
// keeps the last value, another reader the first, and the project's rule
// is that such a document is read by none (jsonscan.Tree, the core's
// parser). JSON member names are case-sensitive (RFC 8259 §8.3), so
// "Issuer" is another member than "issuer".
func decodeObject(body []byte) (map[string]any, error) {
	if _, perr := jsonscan.Tree(body, jsonscan.MaxNesting); perr != nil {
		if perr.Repeated {
			return nil, fmt.Errorf("the member %q is repeated", perr.Duplicate)
		}
		return nil, fmt.Errorf("not JSON: %w", perr)
	}
	var obj map[string]any
	if err := json.Unmarshal(body, &obj); err != nil {
		return nil, fmt.Errorf("not a JSON object: %w", err)
	}
	if obj == nil {
		return nil, errors.New("null, not a JSON object")
	}
	return obj, nil
}

// stringMember reads the member name of obj as a string: "" when it is
// absent or null, an error when it is another type.
func stringMember(obj map[string]any, name string) (string, error) {
	switch v := obj[name].(type) {
	case nil:
		return "", nil
	case string:
		return v, nil
	default:
		return "", fmt.Errorf("the member %q is not a string", name)
	}
}
