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
	elems, ok := elements(raw)
	if !ok {
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

// elements returns the raw elements of the JSON array raw (aliasing it),
// split by jsonscan as every other reading of the message is; ok is false
// when raw is not an array or is malformed.
func elements(raw []byte) ([]json.RawMessage, bool) {
	if jsonscan.Kind(raw) != '[' {
		return nil, false
	}
	var elems []json.RawMessage
	ok := jsonscan.EachElement(raw, func(value []byte) bool {
		elems = append(elems, value)
		return true
	})
	return elems, ok
}

// appendObjects appends objs as a JSON array of objects (appendMembers
// each).
func appendObjects(dst []byte, objs []map[string]json.RawMessage) []byte {
	dst = append(dst, '[')
	for i, obj := range objs {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = appendMembers(dst, obj)
	}
	return append(dst, ']')
}

// repeatedName finds a member name repeated in some object of the JSON
// value raw, at any depth: the legacy conversion rewrites a result only
// when every reader would see the same members in it. One pass over raw
// (jsonscan.RepeatedName): a result nested deep is read in linear time.
func repeatedName(raw []byte) (string, bool) {
	return jsonscan.RepeatedName(raw)
}
