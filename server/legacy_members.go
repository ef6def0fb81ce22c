package server

import (
	"encoding/json"
	"slices"

	"github.com/mcpgen/mcpgen/jsonrpc"
)

// appendMembers appends obj as a JSON object, its members in name order
// (as encoding/json writes a map) and each value as is (nil as null). The
// values are raw members of a message already read, so they are not
// checked again: encoding/json would re-validate them and refuse one
// nested past its limit of 10 000 levels, which the core answers (an
// isError result for tool arguments) rather than an internal error.
func appendMembers(dst []byte, obj map[string]json.RawMessage) []byte {
	names := make([]string, 0, len(obj))
	for name := range obj {
		names = append(names, name)
	}
	slices.Sort(names)
	dst = append(dst, '{')
	for i, name := range names {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = append(jsonrpc.AppendString(dst, name), ':')
		if v := obj[name]; v != nil {
			dst = append(dst, v...)
		} else {
			dst = append(dst, "null"...)
		}
	}
	return append(dst, '}')
}
