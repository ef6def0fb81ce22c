package server

import (
	"encoding/json"
	"strconv"

	"github.com/mcpgen/mcpgen/internal/jsonscan"
	"github.com/mcpgen/mcpgen/jsonrpc"
)

// The legacy layer reads and rewrites members the way the core does (one
// parse rule): exact, case-sensitive names (jsonscan.Members), a repeated
// name rejected, never encoding/json's case-insensitive struct matching or
// its last-duplicate-wins map decoding.

// exactObject returns the members of the JSON object raw by exact name;
// the values alias raw. It fails with -32602 naming what (e.g. "params",
// "params._meta") when raw is not an object, is malformed or repeats a
// name.
func exactObject(raw []byte, what string) (map[string]json.RawMessage, *jsonrpc.Error) {
	obj := map[string]json.RawMessage{}
	dup, repeated, ok := jsonscan.Members(raw, func(key, value []byte) {
		obj[string(key)] = value
	})
	switch {
	case repeated:
		return nil, invalidParams(what + ": duplicate member " + strconv.Quote(dup))
	case !ok:
		return nil, invalidParams(what + " must be an object")
	}
	return obj, nil
}

// exactObjects returns the elements of a JSON array of objects (exactObject
// each); ok is false when raw is not such an array.
func exactObjects(raw []byte) ([]map[string]json.RawMessage, bool) {
	var elems []json.RawMessage
	if jsonscan.Kind(raw) != '[' || json.Unmarshal(raw, &elems) != nil {
		return nil, false
	}
	out := make([]map[string]json.RawMessage, len(elems))
	for i, e := range elems {
		obj, err := exactObject(e, "")
		if err != nil {
			return nil, false
		}
		out[i] = obj
	}
	return out, true
}

// repeatedName finds a member name repeated in some object of the JSON
// value raw, at any depth: the legacy conversion rewrites a result only
// when every reader would see the same members in it.
func repeatedName(raw []byte) (string, bool) {
	switch jsonscan.Kind(raw) {
	case '{':
		var inner string
		var found bool
		dup, repeated, _ := jsonscan.Members(raw, func(_, value []byte) {
			if !found {
				inner, found = repeatedName(value)
			}
		})
		if repeated {
			return dup, true
		}
		return inner, found
	case '[':
		var elems []json.RawMessage
		if json.Unmarshal(raw, &elems) != nil {
			return "", false
		}
		for _, e := range elems {
			if name, ok := repeatedName(e); ok {
				return name, true
			}
		}
	}
	return "", false
}
