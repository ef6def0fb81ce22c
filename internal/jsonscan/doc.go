// Package jsonscan is the runtime's one JSON scanner: every reader of a
// message's bytes (jsonrpc.Decode, the server core's params and _meta scan,
// the Streamable HTTP header rules, argcheck's tree of a tool's arguments)
// goes through it, so no two of them can read one message differently.
//
// Valid checks the grammar exactly as json.Valid does. Members walks an
// object's members without decoding them, with exact, case-sensitive,
// unescaped names, and reports the first duplicate name; callers reject it
// (encoding/json would keep the last value, and matches struct fields
// case-insensitively). String, IsInteger and Kind read one raw value. Tree
// decodes a whole document into map[string]any/[]any/json.Number values,
// rejecting repeated names. One number reader (numberEnd) and one string
// decoder (readString) serve Valid, Tree, String and Unquote.
//
// Everything here is fuzzed against encoding/json (FuzzValid, FuzzMembers,
// FuzzString, FuzzTree) and never panics on any input.
package jsonscan
