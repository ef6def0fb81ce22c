package main

import (
	"errors"
	"fmt"
	"go/build/constraint"
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
// (named _x.go or .x.go, or under a build constraint no platform meets
// without -tags: //go:build ignore); a test file may be of
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
// constraint (a //go:build line, else its legacy // +build lines, which
// go/build still honours) holds on no platform without -tags: //go:build
// ignore or tools, the conventions for a file never built.
func packageClause(name string, src []byte) (pkg string, ignored, ok bool) {
	f, err := parser.ParseFile(token.NewFileSet(), name, src, parser.PackageClauseOnly|parser.ParseComments)
	if err != nil {
		return "", false, false
	}
	var goBuild constraint.Expr
	var plusBuild []constraint.Expr
	for _, g := range f.Comments {
		if g.Pos() > f.Package {
			break
		}
		for _, c := range g.List {
			switch x, err := constraint.Parse(c.Text); {
			case err != nil:
			case constraint.IsGoBuild(c.Text):
				goBuild = x
			default:
				plusBuild = append(plusBuild, x)
			}
		}
	}
	if goBuild == nil {
		for _, x := range plusBuild {
			if goBuild == nil {
				goBuild = x
			} else {
				goBuild = &constraint.AndExpr{X: goBuild, Y: x}
			}
		}
	}
	return f.Name.Name, goBuild != nil && !buildsSomewhere(goBuild), true
}

// buildsSomewhere reports whether constraint x holds for some setting of
// its platform tags (GOOS, GOARCH, unix, cgo, the compilers, go1.N), every
// other tag (ignore, tools: set only by -tags) being false.
func buildsSomewhere(x constraint.Expr) bool {
	var tags []string
	x.Eval(func(tag string) bool {
		if isPlatformTag(tag) && !slices.Contains(tags, tag) {
			tags = append(tags, tag)
		}
		return false
	})
	if len(tags) > 12 {
		return true // too many to try: taken to build
	}
	for set := 0; set < 1<<len(tags); set++ {
		if x.Eval(func(tag string) bool {
			i := slices.Index(tags, tag)
			return i >= 0 && set&(1<<i) != 0
		}) {
			return true
		}
	}
	return false
}

// isPlatformTag reports whether the go command may set tag without -tags:
// a GOOS or GOARCH (as go/build knows them from file name suffixes), unix,
// cgo, a compiler, a release or an experiment.
func isPlatformTag(tag string) bool {
	switch {
	case tag == "unix" || tag == "cgo" || tag == "gc" || tag == "gccgo",
		strings.HasPrefix(tag, "go1."), strings.HasPrefix(tag, "goexperiment."):
		return true
	}
	return !onEveryPlatform("x_" + tag + ".go")
}
