package main

import (
	"errors"
	"fmt"
	"go/parser"
	"go/token"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/mcpgen/mcpgen/writeout"
)

// checkOutFolder refuses an output folder that holds Go files of another
// package than pkg: the generated files beside them would leave a folder
// the go command refuses ("found packages main (main.go) and mcp
// (client.go)"). Files generate wrote before are not counted (a run
// replaces or removes them), nor files the go command never compiles
// (named _x.go or .x.go, or //go:build ignore); a test file may be of
// package pkg or pkg_test. A folder that does not exist holds nothing.
func checkOutFolder(out, pkg string) error {
	entries, err := os.ReadDir(out)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	} else if err != nil {
		return err
	}
	others := map[string][]string{} // package name → its files
	for _, ent := range entries {
		name := ent.Name()
		if ent.IsDir() || !strings.HasSuffix(name, ".go") || strings.HasPrefix(name, "_") || strings.HasPrefix(name, ".") {
			continue
		}
		src, err := os.ReadFile(filepath.Join(out, name))
		if err != nil {
			return err
		}
		if writeout.IsGenerated(src, writeout.DefaultHeader) && generatedByGenerate(name, src) {
			continue
		}
		clause, ignored, ok := packageClause(name, src)
		if !ok || ignored || clause == pkg || strings.HasSuffix(name, "_test.go") && clause == pkg+"_test" {
			continue // a file that does not parse is the go command's to report
		}
		others[clause] = append(others[clause], name)
	}
	if len(others) == 0 {
		return nil
	}
	var held []string
	for _, name := range slices.Sorted(maps.Keys(others)) {
		held = append(held, fmt.Sprintf("package %s (%s)", name, strings.Join(others[name], ", ")))
	}
	return fmt.Errorf("%s holds %s: the generated package %s beside it would not build; choose another --out folder", out, strings.Join(held, " and "), pkg)
}

// packageClause is the package name of a Go file and whether its build
// constraint is //go:build ignore (the convention for a file never built).
func packageClause(name string, src []byte) (pkg string, ignored, ok bool) {
	f, err := parser.ParseFile(token.NewFileSet(), name, src, parser.PackageClauseOnly|parser.ParseComments)
	if err != nil {
		return "", false, false
	}
	for _, g := range f.Comments {
		if g.Pos() > f.Package {
			break
		}
		for _, c := range g.List {
			if strings.TrimSpace(c.Text) == "//go:build ignore" {
				ignored = true
			}
		}
	}
	return f.Name.Name, ignored, true
}
