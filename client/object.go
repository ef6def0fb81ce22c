package client

import (
	"encoding/json"
	"errors"
	"fmt"
	"sort"

	"github.com/mcpgen/mcpgen/internal/jsonscan"
	"github.com/mcpgen/mcpgen/jsonrpc"
)

// splitObject splits a JSON object into its members with the runtime's
// scanner (exact names; a repeated name is an error, as the server would
// reject it). Values alias data.
func splitObject(data []byte) (map[string]json.RawMessage, error) {
	members := map[string]json.RawMessage{}
	dup, ok := jsonscan.Members(data, func(k, v []byte) { members[string(k)] = v })
	switch {
	case !ok:
		return nil, errors.New("not a JSON object")
	case dup != "":
		return nil, fmt.Errorf("member %q appears twice", dup)
	}
	return members, nil
}

// joinObject encodes members as a JSON object, keys sorted; the values
// must be valid JSON (they come from splitObject or json.Marshal).
func joinObject(members map[string]json.RawMessage) []byte {
	keys := make([]string, 0, len(members))
	size := 2
	for k, v := range members {
		keys = append(keys, k)
		size += len(k) + len(v) + 4
	}
	sort.Strings(keys)
	b := make([]byte, 0, size)
	b = append(b, '{')
	for i, k := range keys {
		if i > 0 {
			b = append(b, ',')
		}
		b = jsonrpc.AppendString(b, k)
		b = append(b, ':')
		b = append(b, members[k]...)
	}
	return append(b, '}')
}

// memberValue returns the raw value of one member of a JSON object, or nil.
func memberValue(data []byte, name string) []byte {
	var out []byte
	jsonscan.EachMember(data, func(k, v []byte) {
		if out == nil && jsonscan.KeyEquals(k, name) {
			out = v
		}
	})
	return out
}
