package main

import (
	"bytes"
	"fmt"
	"go/build"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// checkNotStandard refuses a module path the go command cannot build as
// the root package of a main module: "go" and "toolchain", which it
// reserves, and, when the first element has no dot (the go command then
// looks the path up in the standard library first), the path of a
// standard-library package, which the go command finds twice ("ambiguous
// import: found package time in multiple modules").
func checkNotStandard(modulePath string) error {
	if modulePath == "go" || modulePath == "toolchain" {
		return fmt.Errorf("the go command reserves the module path %s", modulePath)
	}
	first, _, _ := strings.Cut(modulePath, "/")
	if strings.Contains(first, ".") {
		return nil
	}
	if isStandardPackage(goroot(), modulePath) {
		return fmt.Errorf("it is the path of the standard library's package %s, which the go command would find twice (ambiguous import); choose a module path with a dot in its first element (example.com/%s)", modulePath, modulePath)
	}
	return nil
}

// goroot is the GOROOT of the go command on PATH, which builds the
// project; that of this binary's build when there is no go command.
func goroot() string {
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if dir := string(bytes.TrimSpace(out)); err == nil && dir != "" {
		return dir
	}
	return build.Default.GOROOT
}

// isStandardPackage reports whether GOROOT/src holds a package at the
// import path: a folder with a Go source file, as the go command sees it.
func isStandardPackage(goroot, importPath string) bool {
	if goroot == "" {
		return false
	}
	entries, err := os.ReadDir(filepath.Join(goroot, "src", filepath.FromSlash(importPath)))
	if err != nil {
		return false
	}
	for _, e := range entries {
		if e.Type().IsRegular() && strings.HasSuffix(e.Name(), ".go") {
			return true
		}
	}
	return false
}
