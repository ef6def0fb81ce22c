package jsonrpc

import "github.com/mcpgen/mcpgen/internal/jsonscan"

// The scanning helpers moved to internal/jsonscan, the runtime's one JSON
// scanner. These forwarders keep callers on other branches building while
// they move over; they go once nothing uses them.

// EachMember is jsonscan.EachMember.
//
// Deprecated: use internal/jsonscan.Members, which also rejects duplicates.
func EachMember(data []byte, fn func(key, value []byte)) bool { return jsonscan.EachMember(data, fn) }

// KeyEquals is jsonscan.KeyEquals.
//
// Deprecated: use internal/jsonscan.
func KeyEquals(raw []byte, name string) bool { return jsonscan.KeyEquals(raw, name) }

// StringValue is jsonscan.String.
//
// Deprecated: use internal/jsonscan.
func StringValue(raw []byte) (string, bool) { return jsonscan.String(raw) }

// IsInteger is jsonscan.IsInteger.
//
// Deprecated: use internal/jsonscan.
func IsInteger(raw []byte) bool { return jsonscan.IsInteger(raw) }
