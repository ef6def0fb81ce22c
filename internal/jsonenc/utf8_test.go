package jsonenc

import (
	"encoding/json"
	"errors"
	"testing"
)

// Raw JSON that is not UTF-8 (a json.RawMessage, or any MarshalJSON
// output) is refused, not copied into the output as encoding/json does:
// no JSON-RPC message may carry it.
func TestRawJSONNotUTF8IsRefused(t *testing.T) {
	type out struct {
		City json.RawMessage `json:"city"`
	}
	for _, v := range []any{
		json.RawMessage("\"Z\xfcrich\""),
		out{City: json.RawMessage("\"Z\xfcrich\"")},
		map[string]any{"city": json.RawMessage("{\"n\":\"\xff\"}")},
	} {
		b, err := Marshal(v)
		if !errors.Is(err, ErrInvalidUTF8) {
			t.Errorf("Marshal(%#v) = %q, %v; want ErrInvalidUTF8", v, b, err)
		}
		var me *json.MarshalerError
		if !errors.As(err, &me) {
			t.Errorf("Marshal(%#v): %T, want a *json.MarshalerError", v, err)
		}
	}
	if b, err := Marshal(json.RawMessage(`"Zürich"`)); err != nil || string(b) != `"Zürich"` {
		t.Errorf("valid UTF-8: %q, %v", b, err)
	}
}
