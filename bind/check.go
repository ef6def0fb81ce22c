package bind

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// CheckUpToDate loads the package in dir and reports an error unless its
// mcp_gen.go ([OutputFile]) is exactly what `mcpgen tools` would write now
// (or absent when nothing is bound). It runs in the calling process, so a
// test that calls it reads the package's sources itself and Go's test cache
// notices when they change (a `go run … --check` subprocess would not be
// seen, and a stale file could pass from the cache). The scaffold's
// TestBindingsUpToDate calls it.
func CheckUpToDate(dir string, opts LoadOptions) error {
	pkg, err := Load(dir, opts)
	if err != nil {
		return err
	}
	return checkUpToDate(pkg, dir)
}

// checkUpToDate is CheckUpToDate of the package loaded from dir.
func checkUpToDate(pkg *Package, dir string) error {
	target := filepath.Join(dir, OutputFile)
	have, err := os.ReadFile(target)
	if errors.Is(err, fs.ErrNotExist) {
		have = nil
	} else if err != nil {
		return err
	}
	if len(pkg.Tools)+len(pkg.Prompts)+len(pkg.Resources)+len(pkg.Templates) == 0 {
		if have != nil {
			return fmt.Errorf("%s binds nothing (no //mcp: directives left); delete it or run go generate", target)
		}
		return nil
	}
	want, err := Emit(pkg, EmitOptions{})
	if err != nil {
		return err
	}
	switch {
	case have == nil:
		return fmt.Errorf("%s is missing; run go generate ./... (mcpgen tools)", target)
	case !bytes.Equal(have, want):
		return fmt.Errorf("%s is stale: a //mcp: directive, a bound signature, an argument type or a doc comment changed; run go generate ./... (mcpgen tools)", target)
	}
	return nil
}
