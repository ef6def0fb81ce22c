package natscluster

import (
	"strings"
	"testing"
)

func TestStoreKey(t *testing.T) {
	id := "0123456789abcdef0123456789abcdef"
	if got := storeKey(id); got != id {
		t.Errorf("storeKey(%q) = %q, want it kept", id, got)
	}
	seen := map[string]string{}
	for _, name := range []string{strings.Repeat("a", 65), "a.b", "a*", "a>", "a b", "é", "", "h=x", hashedKeyPrefix + strings.Repeat("0", 64)} {
		key := storeKey(name)
		if !strings.HasPrefix(key, hashedKeyPrefix) || len(key) != len(hashedKeyPrefix)+64 {
			t.Errorf("storeKey(%q) = %q, want it hashed", name, key)
		}
		if other, dup := seen[key]; dup {
			t.Errorf("storeKey(%q) = storeKey(%q)", name, other)
		}
		seen[key] = name
	}
}
