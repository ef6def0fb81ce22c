package fullcheck

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestPanicsBecomeErrors: santhosh-tekuri panics on numbers beyond
// big.Rat's range, in Compile and in Validate; both return an error
// instead.
func TestPanicsBecomeErrors(t *testing.T) {
	if _, err := Compile(map[string]any{"multipleOf": json.Number("1e-10000000")}); err == nil || !strings.Contains(err.Error(), "the validator failed") {
		t.Errorf("Compile: %v, want the validator's failure as an error", err)
	}
	s, err := Compile(map[string]any{"maximum": json.Number("10")})
	if err != nil {
		t.Fatal(err)
	}
	probs := s.Validate(json.Number("1e10000000"))
	if len(probs) != 1 || !strings.Contains(probs[0].Message, "the validator failed") {
		t.Errorf("Validate: %v, want the validator's failure as a problem", probs)
	}
	if probs := s.Validate(json.Number("5")); probs != nil {
		t.Errorf("Validate(5): %v", probs)
	}
}
