package bind

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// staleBindings is an earlier mcp_gen.go that no longer compiles: it binds
// a deleted func on a deleted receiver type.
const staleBindings = GeneratedHeader + `
//
// This file binds the //mcp: directives of package many to the mcpgen runtime.
// Regenerate it with ` + "`mcpgen tools`" + ` (usually through go generate).

package many

import "github.com/mcpgen/mcpgen/server"

func (o *OldService) MCPTools() []server.Tool {
	return []server.Tool{server.NewTool(server.ToolInfo{Name: "gone"}, o.Gone)}
}

type Args0 struct{ Gone Missing }
`

// TestLoadStaleBindings regenerates a package whose mcp_gen.go references
// things that no longer exist and redeclares a bound argument type with a
// missing field type (which alone would fail the bind): the load sees
// the old bindings as just a package clause, so the result is the same as
// without them.
func TestLoadStaleBindings(t *testing.T) {
	dir := t.TempDir()
	writeManyTools(t, dir, 3)
	pkg, err := Load(dir, LoadOptions{Env: testEnv()})
	if err != nil {
		t.Fatal(err)
	}
	fresh, err := Emit(pkg, EmitOptions{})
	if err != nil {
		t.Fatal(err)
	}

	out := filepath.Join(dir, OutputFile)
	mustWriteFile(t, out, staleBindings)
	// Not a binding file: loaded as is, though generated.
	mustWriteFile(t, filepath.Join(dir, "types_gen.go"), GeneratedHeader+"\n\npackage many\n\ntype Extra struct{}\n")
	overlay := bindingOverlay(dir)
	if len(overlay) != 1 || string(overlay[out]) != GeneratedHeader+"\n\npackage many\n" {
		t.Fatalf("overlay = %q", overlay)
	}
	if _, err := Load(dir, LoadOptions{Env: testEnv()}); err == nil {
		t.Error("without the overlay, the stale bindings loaded (the test no longer shows what the overlay does)")
	}
	pkg, err = Load(dir, LoadOptions{Env: testEnv(), OverlayEarlierBindings: true})
	if err != nil {
		t.Fatalf("stale bindings broke the load: %v", err)
	}
	if pkg.Types.Scope().Lookup("Extra") == nil {
		t.Error("a generated file that is not a binding file was not loaded")
	}
	again, err := Emit(pkg, EmitOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(fresh, again) {
		t.Errorf("bindings regenerated next to stale ones differ:\n%s", again)
	}
	if _, err := os.Stat(out); err != nil {
		t.Fatal(err)
	}
}
