package templates

import (
	"fmt"
	"io/fs"
	"strings"
)

// sourceExtensions are the file name extensions the go command reads as
// part of a package (go help packages, "files"): a binary named like one
// breaks every later build of the folder it is built in.
var sourceExtensions = []string{
	".go", ".c", ".h", ".cc", ".cpp", ".cxx", ".hh", ".hpp", ".hxx",
	".m", ".s", ".S", ".sx", ".f", ".F", ".for", ".f90", ".swig", ".swigcxx", ".syso",
}

// goToolNames are the files and folders the go command creates or reads in
// a module's root beside the scaffold's own files: init writes go.sum, the
// go command writes go.mod and go.sum, and reads go.work (go work init
// writes it), go.work.sum and vendor (go mod vendor writes it).
var goToolNames = []string{"go.mod", "go.sum", "go.work", "go.work.sum", "vendor"}

// CheckBinaryName reports whether `go build` in the root of a project of
// modulePath can write its executable, BinaryName(modulePath), beside the
// scaffold: a name that ends like a Go or cgo source file (example.com/x.go)
// is refused by go build or read as source by the next build, and a name a
// scaffold file or folder already has (example.com/README.md) is refused
// by go build, and so is one the go command creates or reads there (go.sum,
// go.work, vendor).
func CheckBinaryName(modulePath string) error {
	bin := BinaryName(modulePath)
	for _, ext := range sourceExtensions {
		if strings.HasSuffix(bin, ext) {
			return fmt.Errorf("the executable `go build` would write, %q, is named like a source file (%s); choose a module path whose last element does not end in %s", bin, ext, ext)
		}
	}
	for _, name := range goToolNames {
		if strings.EqualFold(bin, name) {
			return fmt.Errorf("the executable `go build` would write, %q, has the name of the go command's %s; choose another module path", bin, name)
		}
	}
	names, err := fs.Glob(scaffoldFS, "scaffold/*.tmpl")
	if err != nil {
		return err
	}
	for _, src := range names {
		first, _, _ := strings.Cut(outputName(src), "/")
		if strings.EqualFold(bin, first) {
			return fmt.Errorf("the executable `go build` would write, %q, has the name of the scaffold's %s; choose another module path", bin, first)
		}
	}
	return nil
}
