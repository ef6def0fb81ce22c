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
	var schemas []string
	for _, arch := range []string{"amd64", "386"} {
		pkg, err := Load(dir, LoadOptions{Env: append(testEnv(), "GOARCH="+arch)})
		if err != nil {
			t.Fatal(err)
		}
		schemas = append(schemas, string(pkg.Tools[0].InputSchema.JSON))
	}
	if schemas[0] != schemas[1] {
		t.Errorf("the inputSchema of the intkeys fixture depends on GOARCH:\namd64: %s\n386:   %s", schemas[0], schemas[1])
	}
}
