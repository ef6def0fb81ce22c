package httpwire

import (
	"encoding/base64"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"
)

// The Base64 sentinel wrapper of header values ("Value Encoding" section):
// "=?base64?" + base64(UTF-8 bytes) + "?=". The markers are case-sensitive.
const (
	sentinelPrefix = "=?base64?"
	sentinelSuffix = "?="
)

// ErrInvalidHeaderChars reports a header value with a byte outside visible
// ASCII (0x21-0x7E), space and horizontal tab (RFC 9110 field values).
var ErrInvalidHeaderChars = errors.New("header value contains characters outside visible ASCII, space and tab")

// ErrInvalidBase64 reports a sentinel-wrapped header value whose payload is
// not canonical padded Base64 of valid UTF-8.
var ErrInvalidBase64 = errors.New("header value has an invalid =?base64?…?= payload")

// strictBase64 is the standard alphabet with padding that also rejects
// non-zero trailing bits, so each value has exactly one encoding.
var strictBase64 = base64.StdEncoding.Strict()

// isSentinel reports whether s has the sentinel form "=?base64?…?=" (the
// markers may not overlap).
func isSentinel(s string) bool {
	return len(s) >= len(sentinelPrefix)+len(sentinelSuffix) &&
		strings.HasPrefix(s, sentinelPrefix) && strings.HasSuffix(s, sentinelSuffix)
}

// isPlainHeaderValue reports whether s may be sent as a plain header value:
// only 0x20-0x7E, no leading or trailing space, and not itself of the
// sentinel form ("Value Encoding": values with non-ASCII or control
// characters, leading/trailing whitespace, or matching the sentinel pattern
// MUST be Base64-encoded).
func isPlainHeaderValue(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c > 0x7e {
			return false
		}
	}
	if strings.HasPrefix(s, " ") || strings.HasSuffix(s, " ") {
		return false
	}
	return !isSentinel(s)
}

// EncodeHeaderValue returns s as an Mcp-Name or Mcp-Param-{Name} header
// value: s itself when isPlainHeaderValue(s), else the sentinel form
// "=?base64?" + base64(s) + "?=". Invalid UTF-8 bytes in s are encoded as
// they are.
func EncodeHeaderValue(s string) string {
	if isPlainHeaderValue(s) {
		return s
	}
	return sentinelPrefix + base64.StdEncoding.EncodeToString([]byte(s)) + sentinelSuffix
}

// DecodeHeaderValue returns the value an Mcp-Name or Mcp-Param-{Name} field
// value stands for. v is the field value with optional whitespace already
// trimmed (net/http trims it when parsing). A value of the sentinel form is
// Base64-decoded; anything else is taken literally ("Value Encoding": servers
// MUST decode before comparing; a value without both markers is literal).
// It fails with ErrInvalidHeaderChars when v holds bytes that are not
// allowed in a field value, and with ErrInvalidBase64 when the payload is not
// canonical padded standard Base64 or does not decode to valid UTF-8.
func DecodeHeaderValue(v string) (string, error) {
	for i := 0; i < len(v); i++ {
		if c := v[i]; (c < 0x20 || c > 0x7e) && c != '\t' {
			return "", fmt.Errorf("%w (byte 0x%02x at offset %d)", ErrInvalidHeaderChars, c, i)
		}
	}
	if !isSentinel(v) {
		return v, nil
	}
	payload := v[len(sentinelPrefix) : len(v)-len(sentinelSuffix)]
	// base64's decoder skips CR and LF; they cannot reach here (checked
	// above), so any non-alphabet byte is an error.
	b, err := strictBase64.DecodeString(payload)
	if err != nil {
		return "", fmt.Errorf("%w: %v", ErrInvalidBase64, err)
	}
	if !utf8.Valid(b) {
		return "", fmt.Errorf("%w: decoded bytes are not valid UTF-8", ErrInvalidBase64)
	}
	return string(b), nil
}
