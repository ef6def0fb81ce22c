package client

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/mcpgen/mcpgen/internal/jsonscan"
)

// exactMembers splits the JSON object data into its members in one parse,
// by their exact names, and refuses a name given twice with an error that
// names it — as the typed decoders do. encoding/json would keep the last
// value and fold case, so a result the client rewrites and passes on would
// say something else than the one the server sent. The values alias data.
func exactMembers(data []byte) (map[string]json.RawMessage, error) {
	members := map[string]json.RawMessage{}
	dup, repeated, ok := jsonscan.Members(data, func(k, v []byte) { members[string(k)] = v })
	if repeated {
		return nil, fmt.Errorf("duplicate member %q", dup)
	}
	if !ok {
		return nil, errors.New("not a valid JSON object")
	}
	return members, nil
}

// checkNames refuses a result that names a member twice in any object, at
// any depth — structuredContent, _meta and every other member the typed
// decoders hand to encoding/json, which would keep the last occurrence —
// with an error naming it. One parse of the result by the runtime's
// scanner (jsonscan.ParseTape, as the server reads a request's arguments),
// on a pooled tape released at once.
func checkNames(result []byte) error {
	tape, err := jsonscan.ParseTape(result, jsonscan.MaxNesting)
	if err != nil {
		if err.Repeated {
			return fmt.Errorf("duplicate member %q", err.Duplicate)
		}
		return err
	}
	tape.Release()
	return nil
}
