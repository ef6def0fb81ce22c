// Package support is the decoding and encoding support every generated
// package carries as support.go: the member splitter that rejects
// duplicate keys, the JSON scanner, required/optional member decoding with
// error paths, literal and bound checks, union shape scoring and _meta key
// validation. The generator embeds support.go and copies it with only the
// package clause changed, so it is compiled and tested here, once.
//
// It is copied rather than imported so that a generated package depends
// on the standard library only, and stays one folder a user can vendor or
// read on its own. Most of its names are used only by generated code.
package support
