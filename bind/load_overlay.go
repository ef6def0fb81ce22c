package bind

import (
	"bytes"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
)

// bindingMarker starts every file [Emit] writes: the generated header and
// the line naming it a binding file (files of `mcpgen generate` share only
// the header and stay loaded).
var bindingMarker = []byte(GeneratedHeader + "\n//\n// This file binds the //mcp: directives of package ")

// bindingOverlay maps each earlier binding file in dir to just its header
// and package clause. Loading through it never compiles the old bindings:
// a re-run costs what a first run costs, and bindings that no longer
// compile (a deleted or renamed func) do not break the load.
func bindingOverlay(dir string) map[string][]byte {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil // packages.Load reports the directory
	}
	overlay := map[string][]byte{}
	for _, ent := range entries {
		if ent.IsDir() || filepath.Ext(ent.Name()) != ".go" {
			continue
		}
		path := filepath.Join(dir, ent.Name())
		src, err := os.ReadFile(path)
		if err != nil || !bytes.HasPrefix(src, bindingMarker) {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, src, parser.PackageClauseOnly)
		if err != nil {
			continue // loaded as is; its syntax error is reported
		}
		overlay[path] = []byte(GeneratedHeader + "\n\npackage " + f.Name.Name + "\n")
	}
	return overlay
}
