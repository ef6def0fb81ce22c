package bind

import (
	"path/filepath"
	"testing"
)

// TestIntegerKeyBindingsDoNotDependOnGOARCH: mcp_gen.go carries no build
// constraint, so the bindings `mcpgen tools` writes must be the same
// whatever GOARCH the go command has when it runs. Since the int and uint
// key patterns follow the target's sizes (bind/schema.go
// integerKeyPattern), bindings generated with GOARCH=386 refuse the map[int]
// key "2147483648" that the same code built for amd64 reads, and
// CheckUpToDate (or `mcpgen tools --check`) under `GOARCH=386 go test`
// calls bindings generated on a 64-bit machine stale.
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
