// Package jsonscan is the runtime's one JSON scanner: every reader of a
// message's bytes (jsonrpc.Decode, the server core's params and _meta scan,
// the Streamable HTTP header rules, argschema's validation input) goes
// through it, so no two of them can read one message differently.
//
// Valid checks the grammar exactly as json.Valid does. Members walks an
// object's members without decoding them, with exact, case-sensitive,
// unescaped names, and reports the first duplicate name; callers reject it
// (encoding/json would keep the last value, and matches struct fields
// case-insensitively). String, IsInteger and Kind read one raw value.
//
// Everything here is fuzzed against encoding/json (FuzzValid, FuzzMembers,
// FuzzString) and never panics on any input.
package jsonscan
