package support

import "testing"

// stringElement refuses null, where str reads it as "".
func TestStringElementRefusesNull(t *testing.T) {
	if _, err := stringElement([]byte("null")); err == nil || err.Error() != "expected a string, got null" {
		t.Errorf("null: %v", err)
	}
	if s, err := stringElement([]byte(`"a\u0062"`)); err != nil || s != "ab" {
		t.Errorf(`"a\u0062": %q %v`, s, err)
	}
	if _, err := stringElement([]byte("1")); err == nil {
		t.Error("1: no error")
	}
}
