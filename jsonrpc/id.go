package jsonrpc

import (
	"github.com/mcpgen/mcpgen/internal/jsonscan"

	"bytes"
	"errors"
	"strconv"
	"unicode/utf8"
)

// ID is a JSON-RPC request id: a JSON string or an integer that fits in an
// int64. The zero ID means "no id" (notifications, or error responses to
// messages whose id could not be read).
//
// ID stores the id's canonical JSON text, so IDs are comparable with == and
// usable as map keys: two ids are equal exactly when they denote the same
// JSON value. The canonical text is the received text, except that string
// ids containing escapes are re-encoded minimally ("\u0061" becomes "a",
// but a lone surrogate such as "\ud800" stays an escape, in lower case) and
// -0 becomes 0. Echoing an ID therefore sends back an equal JSON value,
// byte-identical in all common cases.
type ID struct {
	raw string
}

// StringID returns an ID for the string s.
func StringID(s string) ID {
	return ID{raw: string(AppendString(nil, s))}
}

// IntID returns an ID for the integer n.
func IntID(n int64) ID {
	return ID{raw: strconv.FormatInt(n, 10)}
}

// IsZero reports whether id is the zero (absent) ID.
func (id ID) IsZero() bool { return id.raw == "" }

// IsString reports whether id is a string id.
func (id ID) IsString() bool { return len(id.raw) > 0 && id.raw[0] == '"' }

// Int64 returns the value of an integer id. ok is false for string and zero
// ids.
func (id ID) Int64() (n int64, ok bool) {
	if id.raw == "" || id.raw[0] == '"' {
		return 0, false
	}
	n, err := strconv.ParseInt(id.raw, 10, 64)
	return n, err == nil
}

// Str returns the unescaped value of a string id. ok is false for integer
// and zero ids. A lone surrogate escape in the id becomes U+FFFD here (a Go
// string cannot hold one), so ids that differ only there have equal Str
// values; compare IDs, not their Str values.
func (id ID) Str() (s string, ok bool) {
	if !id.IsString() {
		return "", false
	}
	return jsonscan.String([]byte(id.raw))
}

// String returns the id's JSON text, e.g. `42` or `"abc"`, or "" for the
// zero ID.
func (id ID) String() string { return id.raw }

// MarshalJSON returns the id's JSON text, or null for the zero ID.
func (id ID) MarshalJSON() ([]byte, error) {
	if id.raw == "" {
		return []byte("null"), nil
	}
	return []byte(id.raw), nil
}

// errBadID is returned by UnmarshalJSON for values that are not ids.
var errBadID = errors.New("jsonrpc: id must be a string or an integer")

// UnmarshalJSON sets id from a JSON string or integer. JSON null leaves the
// zero ID (per encoding/json convention); numbers with a fraction or
// exponent, integers outside the int64 range, booleans, objects and arrays
// are rejected.
func (id *ID) UnmarshalJSON(data []byte) error {
	data = jsonscan.TrimSpace(data)
	if string(data) == "null" {
		*id = ID{}
		return nil
	}
	v, ok := parseID(data)
	if !ok {
		return errBadID
	}
	*id = v
	return nil
}

// parseID converts a raw JSON value (no surrounding whitespace) to an ID.
// ok is false if raw is not a string or an int64-range integer.
func parseID(raw []byte) (ID, bool) {
	if len(raw) == 0 {
		return ID{}, false
	}
	if raw[0] == '"' {
		if len(raw) < 2 || raw[len(raw)-1] != '"' {
			return ID{}, false
		}
		inner := raw[1 : len(raw)-1]
		if bytes.IndexByte(inner, '\\') < 0 && utf8.Valid(inner) && !hasControl(inner) && bytes.IndexByte(inner, '"') < 0 {
			return ID{raw: string(raw)}, true
		}
		return escapedStringID(inner)
	}
	if !jsonscan.IsInteger(raw) {
		return ID{}, false
	}
	if raw[0] != '-' && len(raw) <= maxShortID {
		// At most 18 digits without a sign and (IsInteger) without a
		// leading zero: an int64 already written as IntID writes it.
		return ID{raw: string(raw)}, true
	}
	n, err := strconv.ParseInt(string(raw), 10, 64)
	if err != nil {
		return ID{}, false
	}
	if raw[0] == '-' && n == 0 || (len(raw) > 1 && raw[0] == '0') || (len(raw) > 2 && raw[0] == '-' && raw[1] == '0') {
		// Non-canonical spellings (-0, leading zeros) are normalized.
		return IntID(n), true
	}
	return ID{raw: string(raw)}, true
}

// hasControl reports whether b contains an ASCII control character.
// maxShortID is the most digits an id can have that every int64 of that
// many digits holds (10^18 < 2^63): parseID needs no ParseInt for it.
const maxShortID = 18

func hasControl(b []byte) bool {
	for _, c := range b {
		if c < 0x20 {
			return true
		}
	}
	return false
}
