package bind

import (
	"bytes"
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"maps"
	"os"
	"path/filepath"
	"slices"

	"golang.org/x/tools/go/packages"
)

// bindingMarker starts every file [Emit] writes: the generated header and
// the line naming it a binding file (files of `mcpgen generate` share only
// the header and stay loaded).
var bindingMarker = []byte(GeneratedHeader + "\n//\n// This file binds the //mcp: directives of package ")

// IsBindingFile reports whether src is a file [Emit] wrote (`mcpgen tools`
// output): it starts with the generated header and the comment naming the
// package whose directives it binds. Files of `mcpgen generate` carry the
// same header but not that comment.
func IsBindingFile(src []byte) bool {
	return bytes.HasPrefix(src, bindingMarker)
}

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
		if err != nil || !IsBindingFile(src) {
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

// useOverlay makes cfg load the files of overlay with its contents, and
// returns the function that removes the temporary files it needs.
//
// It does not set cfg.Overlay: go/packages then type-checks every
// dependency from source, since an overlay might invalidate their export
// data (golang.org/x/tools/go/packages, refine: "Overlays can invalidate
// export data"), which costs a re-run seconds and hundreds of megabytes
// that a first run does not pay. Only the loaded package's own files are
// overlaid here, so its dependencies' export data stays valid: the go
// command gets the overlay through -overlay (it compiles the package for
// its export data), and the parser through cfg.ParseFile.
func useOverlay(cfg *packages.Config, overlay map[string][]byte) (cleanup func(), err error) {
	if len(overlay) == 0 {
		return func() {}, nil
	}
	dir, err := os.MkdirTemp("", "mcpgen-overlay-")
	if err != nil {
		return nil, err
	}
	cleanup = func() { os.RemoveAll(dir) }
	replace := map[string]string{}
	byFile := map[string][]byte{}
	i := 0
	for _, path := range slices.Sorted(maps.Keys(overlay)) {
		i++
		tmp := filepath.Join(dir, itoa(i)+"-"+filepath.Base(path))
		if err := os.WriteFile(tmp, overlay[path], 0o644); err != nil {
			cleanup()
			return nil, err
		}
		replace[path] = tmp
		byFile[path] = overlay[path]
		if real, err := filepath.EvalSymlinks(path); err == nil {
			byFile[real] = overlay[path] // go list may name the file through its real folder
		}
	}
	spec, err := json.Marshal(struct{ Replace map[string]string }{replace})
	if err == nil {
		err = os.WriteFile(filepath.Join(dir, "overlay.json"), spec, 0o644)
	}
	if err != nil {
		cleanup()
		return nil, err
	}
	cfg.BuildFlags = append(slices.Clip(cfg.BuildFlags), "-overlay="+filepath.Join(dir, "overlay.json"))
	cfg.ParseFile = func(fset *token.FileSet, filename string, src []byte) (*ast.File, error) {
		if stub, ok := byFile[filename]; ok {
			src = stub
		}
		// go/packages' own default mode.
		return parser.ParseFile(fset, filename, src, parser.AllErrors|parser.ParseComments)
	}
	return cleanup, nil
}
