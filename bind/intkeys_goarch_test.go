package bind

import (
	"path/filepath"
	"testing"
)

// TestIntegerKeyBindingsDoNotDependOnGOARCH: mcp_gen.go carries no build
// constraint and a tool's inputSchema is what clients see, so the bindings
// `mcpgen tools` writes are the same whatever GOARCH the go command has:
// int and uint keys take the 64-bit pattern on every target (a 32-bit
// server's decoder still refuses a key beyond its int's range, naming it).
func TestIntegerKeyBindingsDoNotDependOnGOARCH(t *testing.T) {
	dir := filepath.Join("testdata", "fixture", "intkeys")
	var keys []any
	for _, arch := range []string{"amd64", "386"} {
		pkg, err := Load(dir, LoadOptions{Env: append(testEnv(), "GOARCH="+arch)})
		if err != nil {
			t.Fatal(err)
		}
		keys = append(keys, at(decodeSchema(t, pkg.Tools[0].InputSchema), "properties", "i", "propertyNames", "pattern"))
	}
	if keys[0] != keys[1] {
		t.Errorf("the map[int] key pattern of the intkeys fixture depends on GOARCH:\namd64: %v\n386:   %v", keys[0], keys[1])
	}
}
