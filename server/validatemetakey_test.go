package server

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/mcpgen/mcpgen/generated/mcp"
)

// TestValidateMetaKeyIsTheGeneratedOne: the server's copy of
// mcp.ValidateMetaKey gives the same verdict and the same error for every
// string of up to five characters over an alphabet of each kind of byte
// the rules tell apart, and for random longer ones.
func TestValidateMetaKeyIsTheGeneratedOne(t *testing.T) {
	const alphabet = "aZ5./-_ é"
	same := func(key string) {
		t.Helper()
		want, got := fmt.Sprint(mcp.ValidateMetaKey(key)), fmt.Sprint(validateMetaKey(key))
		if got != want {
			t.Fatalf("validateMetaKey(%q) = %s, mcp.ValidateMetaKey: %s", key, got, want)
		}
	}
	var walk func(prefix string, n int)
	walk = func(prefix string, n int) {
		same(prefix)
		if n == 0 {
			return
		}
		for _, c := range alphabet {
			walk(prefix+string(c), n-1)
		}
	}
	walk("", 5)
	r := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		b := make([]byte, 6+r.IntN(30))
		const bytes = "abcXYZ019.-_/ \xff"
		for i := range b {
			b[i] = bytes[r.IntN(len(bytes))]
		}
		same(string(b))
	}
	for _, key := range []string{"io.modelcontextprotocol/tasks", "com.example/notes", "com.example.mcp/x", "a/b/c", "/x", "x/", "1a/x"} {
		same(key)
	}
}
