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
// rejecting repeated names. ParseTape reads a document with Tree's rules
// into a Tape, a flat array of 8-byte nodes over the document's bytes (no
// copy of strings, no maps): the one parse a tool's arguments are
// validated on, decoded from and identified by. ParseKept is the tape of
// a whole message (jsonrpc.Decode's), never pooled; Sub is a node's
// subtree as a tape of its own without copying (the arguments' node).
// ParseLazy keeps arrays of 64 KiB or more off the tape, one node each,
// whose elements Windows parses a few thousand nodes at a time onto a tape
// it reuses (a large argument array validated and decoded without a tape
// of it all); ParseEnvelope's check of an Opaque with Spans records those
// arrays, for ParseLazySpans, as it reads them. One number reader
// (numberEnd) and one string decoder (readString) serve Valid, Tree,
// ParseTape, String and Unquote (ParseTape checks strings with scanString,
// readString's grammar without the copy, and decodes them with readString
// when asked for their text).
//
// Everything here is fuzzed against encoding/json (FuzzValid, FuzzMembers,
// FuzzString, FuzzTree; FuzzTape against Tree; FuzzLazy and FuzzLazyWrapped,
// the lazy parse read through its windows, against ParseTape) and never
// panics on any input.
package jsonscan
