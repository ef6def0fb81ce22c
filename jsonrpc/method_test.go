package jsonrpc

import (
	"strings"
	"testing"
)

// TestEnvelopeIndex keeps envelopeIndex's switch in step with
// envelopeMembers: each member's own index, -1 for other names (a case or
// a prefix differs).
func TestEnvelopeIndex(t *testing.T) {
	for i, name := range envelopeMembers {
		if got := envelopeIndex(name); got != i {
			t.Errorf("envelopeIndex(%q) = %d, want %d", name, got, i)
		}
		for _, other := range []string{strings.ToUpper(name), name[:len(name)-1], name + "s", ""} {
			if got := envelopeIndex(other); got != -1 {
				t.Errorf("envelopeIndex(%q) = %d, want -1", other, got)
			}
		}
	}
}

// TestKnownMethod keeps knownMethod's switch in step with knownMethods
// and checks that a decoded Method never aliases the message: a known
// name is the constant, another one a copy, escaped or not.
func TestKnownMethod(t *testing.T) {
	for _, m := range knownMethods {
		if got := knownMethod(m); got != m {
			t.Errorf("knownMethod(%q) = %q", m, got)
		}
		if got := knownMethod(m + "x"); got != "" {
			t.Errorf("knownMethod(%q) = %q, want none", m+"x", got)
		}
	}
	for _, method := range []string{"tools/call", `tools\/call`, "vendor/x", `vendor\/x`} {
		data := []byte(`{"jsonrpc":"2.0","id":1,"method":"` + method + `"}`)
		msg, err := Decode(data)
		if err != nil {
			t.Fatal(err)
		}
		want := msg.Method
		for i := range data {
			data[i] = 'z'
		}
		if msg.Method != want || want != strings.ReplaceAll(method, `\/`, "/") {
			t.Errorf("method %s: Method %q, %q after the message was overwritten", method, want, msg.Method)
		}
	}
}
