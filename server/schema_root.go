package server

import (
	"encoding/json"

	"github.com/mcpgen/mcpgen/internal/jsonscan"
)

// rootTypeIsObject reports, without decoding the schema, that it is a JSON
// object whose "type" (the last one, as encoding/json keeps) is the string
// "object": checkObjectSchema's common case. False means "decode it to
// find out".
func rootTypeIsObject(schema json.RawMessage) bool {
	if !jsonscan.Valid(schema) {
		return false
	}
	var typ []byte
	_, _, ok := jsonscan.Members(jsonscan.TrimSpace(schema), func(key, value []byte) {
		if string(key) == "type" {
			typ = value
		}
	})
	if !ok || typ == nil {
		return false
	}
	s, ok := jsonscan.String(typ)
	return ok && s == "object"
}
