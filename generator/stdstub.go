package generator

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"sync"
)

// stdStubs declare the part of the standard library that generated code
// uses, with the exact signatures of the real packages, so that the
// in-memory type-check of the output needs neither the go command nor
// export data: importing the real packages costs 0.5 s per run with a warm
// build cache and over 10 s with a cold one, checking against these costs
// nothing. TestStdStubsMatchTheStandardLibrary compares every declaration
// here with the real package; TestStdStubsCoverTheOutput type-checks the
// output for every shipped revision and construct schema against them.
//
// Stubs are conservative: a concrete type may lack methods and unexported
// fields (code using them fails the stub check), an interface with
// unexported methods (reflect.Type, which nothing outside reflect can
// implement) may lack exported ones, and any other declaration is exactly
// the real one. A check that fails against the stubs is repeated against
// the real standard library before it is reported, so a stub that lacks
// something costs time, never a wrong verdict.
var stdStubs = map[string]string{
	"bytes": `package bytes
type Buffer struct{ buf []byte; off int }
func (b *Buffer) String() string { return "" }
func Equal(a []byte, b []byte) bool { return false }
func HasPrefix(s []byte, prefix []byte) bool { return false }
func IndexByte(b []byte, c byte) int { return 0 }
func TrimLeft(s []byte, cutset string) []byte { return nil }
func TrimRight(s []byte, cutset string) []byte { return nil }
`,
	"cmp": `package cmp
type Ordered interface {
	~int | ~int8 | ~int16 | ~int32 | ~int64 |
		~uint | ~uint8 | ~uint16 | ~uint32 | ~uint64 | ~uintptr |
		~float32 | ~float64 |
		~string
}
`,
	"context": `package context
import "time"
type Context interface {
	Deadline() (deadline time.Time, ok bool)
	Done() <-chan struct{}
	Err() error
	Value(key any) any
}
`,
	"encoding/json": `package json
import (
	"bytes"
	"reflect"
)
type RawMessage []byte
func (m RawMessage) MarshalJSON() ([]byte, error) { return nil, nil }
func (m *RawMessage) UnmarshalJSON(data []byte) error { return nil }
type Marshaler interface{ MarshalJSON() ([]byte, error) }
type Unmarshaler interface{ UnmarshalJSON([]byte) error }
type SyntaxError struct{ msg string; Offset int64 }
func (e *SyntaxError) Error() string { return "" }
type UnmarshalTypeError struct {
	Value  string
	Type   reflect.Type
	Offset int64
	Struct string
	Field  string
}
func (e *UnmarshalTypeError) Error() string { return "" }
func Compact(dst *bytes.Buffer, src []byte) error { return nil }
func Marshal(v any) ([]byte, error) { return nil, nil }
func Unmarshal(data []byte, v any) error { return nil }
func Valid(data []byte) bool { return false }
`,
	"errors": `package errors
func As(err error, target any) bool { return false }
func Is(err error, target error) bool { return false }
func New(text string) error { return nil }
`,
	"fmt": `package fmt
func Errorf(format string, a ...any) (err error) { return nil }
func Sprint(a ...any) string { return "" }
func Sprintf(format string, a ...any) string { return "" }
`,
	"math": `package math
func Ceil(x float64) float64 { return 0 }
func Floor(x float64) float64 { return 0 }
func Trunc(x float64) float64 { return 0 }
`,
	"reflect": `package reflect
type Type interface {
	String() string
	common()
}
type Kind uint
const Map Kind = 21
const Pointer Kind = 22
const Slice Kind = 23
type Value struct{ ptr *int }
func (v Value) IsNil() bool { return false }
func (v Value) IsZero() bool { return false }
func (v Value) Kind() Kind { return 0 }
func DeepEqual(x any, y any) bool { return false }
func TypeFor[T any]() Type { return nil }
func ValueOf(i any) Value { return Value{} }
`,
	"slices": `package slices
import "cmp"
func Contains[S ~[]E, E comparable](s S, v E) bool { return false }
func ContainsFunc[S ~[]E, E any](s S, f func(E) bool) bool { return false }
func Sort[S ~[]E, E cmp.Ordered](x S) {}
func SortStableFunc[S ~[]E, E any](x S, cmp func(a E, b E) int) {}
`,
	"strconv": `package strconv
func Itoa(i int) string { return "" }
func ParseFloat(s string, bitSize int) (float64, error) { return 0, nil }
func ParseInt(s string, base int, bitSize int) (i int64, err error) { return 0, nil }
func Quote(s string) string { return "" }
`,
	"strings": `package strings
func Contains(s string, substr string) bool { return false }
func Cut(s string, sep string) (before string, after string, found bool) { return "", "", false }
func HasPrefix(s string, prefix string) bool { return false }
func HasSuffix(s string, suffix string) bool { return false }
func Join(elems []string, sep string) string { return "" }
func Split(s string, sep string) []string { return nil }
func TrimSpace(s string) string { return "" }
`,
	"time": `package time
type Time struct{ wall uint64; ext int64 }
`,
	"unicode/utf8": `package utf8
func RuneStart(b byte) bool { return false }
func Valid(p []byte) bool { return false }
`,
}

// stubImporter imports the stub packages, type-checked once per process;
// go/types packages are safe for concurrent use once checked.
var stubImporter = sync.OnceValue(func() types.Importer {
	imp := &stubs{pkgs: map[string]*types.Package{}}
	for path := range stdStubs {
		if _, err := imp.Import(path); err != nil {
			panic("generator: " + err.Error())
		}
	}
	return imp
})

type stubs struct {
	pkgs map[string]*types.Package
}

func (s *stubs) Import(path string) (*types.Package, error) {
	if p := s.pkgs[path]; p != nil {
		return p, nil
	}
	src, ok := stdStubs[path]
	if !ok {
		return nil, fmt.Errorf("no stub of %s", path)
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path+".go", src, parser.SkipObjectResolution)
	if err != nil {
		return nil, fmt.Errorf("stub of %s: %w", path, err)
	}
	conf := types.Config{Importer: s}
	p, err := conf.Check(path, fset, []*ast.File{f}, nil)
	if err != nil {
		return nil, fmt.Errorf("stub of %s: %w", path, err)
	}
	s.pkgs[path] = p
	return p, nil
}
