package generator

import (
	"errors"
	"fmt"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"sort"
	"strings"
	"sync"
)

// Error is a generator bug: the package it would write does not parse or
// type-check. Pointer is the JSON pointer of the schema definition whose Go
// code is at fault ("" when no definition can be blamed), so the report
// names what in the schema provoked it.
type Error struct {
	Schema  string // the schema file
	Pointer string
	File    string // the generated file
	Msg     string
}

func (e *Error) Error() string {
	where := e.Pointer
	if where == "" {
		where = "#"
	}
	return fmt.Sprintf("%s: %s: generator bug: the Go it would write does not compile: %s:%s", e.Schema, where, e.File, e.Msg)
}

// stdImporter imports the real standard library for type-checking, when
// the stubs (stdstub.go) do not suffice: export data (the go command's build
// cache) when it is available, else the sources in GOROOT. The generated
// package imports nothing else. Importers are not safe for concurrent use
// and cache what they load, hence one per process behind a mutex.
var stdImporter = struct {
	sync.Mutex
	gc, src types.Importer
}{}

type lockedImporter struct{}

func (lockedImporter) Import(path string) (*types.Package, error) {
	stdImporter.Lock()
	defer stdImporter.Unlock()
	if stdImporter.gc == nil {
		stdImporter.gc = importer.ForCompiler(token.NewFileSet(), "gc", nil)
	}
	p, err := stdImporter.gc.Import(path)
	if err == nil {
		return p, nil
	}
	if stdImporter.src == nil {
		stdImporter.src = importer.ForCompiler(token.NewFileSet(), "source", nil)
	}
	if p, err2 := stdImporter.src.Import(path); err2 == nil {
		return p, nil
	}
	return nil, fmt.Errorf("importing %s to type-check the output: %w", path, err)
}

// typeCheck parses and type-checks the files of the package in memory,
// against the standard library stubs and, when that fails, against the real
// standard library. The first errors (at most five) are reported, each
// blamed on the schema definition that owns the declaration it is in.
func (g *gen) typeCheck(files []File) error {
	if g.check(files, stubImporter()) == nil {
		return nil
	}
	return g.check(files, lockedImporter{})
}

func (g *gen) check(files []File, imp types.Importer) error {
	files = withAppendStub(files, g.opts.Package)
	fset := token.NewFileSet()
	var parsed []*ast.File
	var errs []error
	for _, f := range files {
		af, err := parser.ParseFile(fset, f.Name, f.Content, parser.SkipObjectResolution)
		if err != nil {
			var list []error
			var el interface{ Unwrap() []error }
			if errors.As(err, &el) {
				list = el.Unwrap()
			}
			msg := err.Error()
			if len(list) > 0 {
				msg = list[0].Error()
			}
			return &Error{Schema: g.m.Source, File: f.Name, Msg: " " + msg}
		}
		parsed = append(parsed, af)
	}
	conf := types.Config{
		Importer: imp,
		Error: func(err error) {
			if len(errs) < 5 {
				errs = append(errs, err)
			}
		},
	}
	if _, err := conf.Check(g.opts.Package, fset, parsed, nil); err == nil {
		return nil
	}
	var out []error
	for _, err := range errs {
		e := &Error{Schema: g.m.Source, Msg: err.Error()}
		var te types.Error
		if errors.As(err, &te) {
			pos := fset.Position(te.Pos)
			e.File, e.Msg = pos.Filename, fmt.Sprintf("%d:%d: %s", pos.Line, pos.Column, te.Msg)
			e.Pointer = g.id.owner[declAt(parsed, fset, te.Pos)]
		}
		out = append(out, e)
	}
	if len(out) == 1 {
		return out[0]
	}
	return errors.Join(out...)
}

// declAt names the package-level declaration containing pos: a type, var,
// const or func name, or a method's receiver type.
func declAt(files []*ast.File, fset *token.FileSet, pos token.Pos) string {
	for _, f := range files {
		if fset.File(f.Pos()) != fset.File(pos) {
			continue
		}
		decls := f.Decls
		i := sort.Search(len(decls), func(i int) bool { return decls[i].End() >= pos })
		if i == len(decls) || decls[i].Pos() > pos {
			return ""
		}
		switch d := decls[i].(type) {
		case *ast.FuncDecl:
			if d.Recv != nil && len(d.Recv.List) == 1 {
				return receiverName(d.Recv.List[0].Type)
			}
			return d.Name.Name
		case *ast.GenDecl:
			for _, s := range d.Specs {
				if s.Pos() > pos || s.End() < pos {
					continue
				}
				switch s := s.(type) {
				case *ast.TypeSpec:
					return s.Name.Name
				case *ast.ValueSpec:
					if len(s.Names) > 0 {
						return s.Names[0].Name
					}
				}
			}
		}
	}
	return ""
}

func receiverName(e ast.Expr) string {
	for {
		switch x := e.(type) {
		case *ast.StarExpr:
			e = x.X
		case *ast.IndexExpr:
			e = x.X
		case *ast.Ident:
			return x.Name
		default:
			return strings.TrimSpace(fmt.Sprint(x))
		}
	}
}
