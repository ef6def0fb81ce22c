package bind

import (
	"bytes"
	"go/ast"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"
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

// TestOverlayKeepsExportData loads a package with stale bindings the way
// Load does: the go command compiles the package with the stub (its build
// succeeds), the parser sees the stub, and the dependencies come from
// export data, not from source (a go/packages Config.Overlay would
// type-check every dependency from source: seconds and hundreds of MB on
// every re-run that a first run does not pay).
func TestOverlayKeepsExportData(t *testing.T) {
	dir := t.TempDir()
	writeManyTools(t, dir, 3)
	out := filepath.Join(dir, OutputFile)
	mustWriteFile(t, out, staleBindings)
	cfg := &packages.Config{Mode: loadMode | packages.NeedImports, Dir: dir, Env: testEnv()}
	cleanup, err := useOverlay(cfg, bindingOverlay(dir))
	if err != nil {
		t.Fatal(err)
	}
	pkgs, err := packages.Load(cfg, ".")
	cleanup()
	if err != nil {
		t.Fatal(err)
	}
	p := pkgs[0]
	for _, e := range p.Errors {
		t.Errorf("load error (the stale bindings were seen): %v", e)
	}
	var gen *ast.File
	for _, f := range p.Syntax {
		if filepath.Base(p.Fset.Position(f.Package).Filename) == OutputFile {
			gen = f
		}
	}
	if gen == nil || len(gen.Decls) != 0 {
		t.Errorf("the parsed %s is not the stub: %v", OutputFile, gen)
	}
	dep := p.Imports["github.com/mcpgen/mcpgen/generated/mcp"]
	if dep == nil || dep.Types == nil {
		t.Fatalf("dependency not loaded: %v", dep)
	}
	if dep.Syntax != nil {
		t.Error("the dependency was type-checked from source, not loaded from export data")
	}
	flags := cfg.BuildFlags
	if len(flags) == 0 || !strings.HasPrefix(flags[len(flags)-1], "-overlay=") {
		t.Fatalf("build flags %q, want -overlay= last", flags)
	}
	flag := flags[len(flags)-1]
	if _, err := os.Stat(filepath.Dir(strings.TrimPrefix(flag, "-overlay="))); !os.IsNotExist(err) {
		t.Errorf("the overlay's temporary folder is left behind (%v)", err)
	}
}
