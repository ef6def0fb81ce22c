package version

import "testing"

func TestString(t *testing.T) {
	// Test binaries carry no module version, so String falls back to Version.
	if got := String(); got != Version {
		t.Errorf("String() = %q, want %q", got, Version)
	}
	if Version == "" {
		t.Error("Version is empty")
	}
}
