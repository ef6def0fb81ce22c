package support

import (
	"encoding/json"
	"errors"
	"testing"
)

// notUTF8Marshaler writes JSON that is not UTF-8.
type notUTF8Marshaler struct{}

func (notUTF8Marshaler) MarshalJSON() ([]byte, error) { return []byte("\"Z\xfcrich\""), nil }

// Raw JSON that is not UTF-8 — a json.RawMessage anywhere in a value, an
// extra member, a MarshalJSON method's output — is refused, where
// encoding/json copies it into output no JSON-RPC message may carry.
func TestAppendJSONRefusesRawNotUTF8(t *testing.T) {
	for _, v := range []any{
		json.RawMessage("\"Z\xfcrich\""),
		map[string]any{"city": json.RawMessage("{\"n\":\"\xff\"}")},
		struct {
			City json.RawMessage `json:"city"`
		}{City: json.RawMessage("\"\xfc\"")},
		[]any{notUTF8Marshaler{}},
	} {
		if b, err := appendJSONAt(nil, v, encodeDepth{}); !errors.Is(err, errInvalidUTF8) {
			t.Errorf("appendJSONAt(%#v) = %q, %v; want errInvalidUTF8", v, b, err)
		}
	}
	extra := map[string]json.RawMessage{"x-city": json.RawMessage("\"Z\xfcrich\"")}
	if b, err := appendExtraAt([]byte("{}"), 0, extra); !errors.Is(err, errInvalidUTF8) {
		t.Errorf("appendExtraAt = %q, %v; want errInvalidUTF8", b, err)
	}
}
