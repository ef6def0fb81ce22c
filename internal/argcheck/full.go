package argcheck

import (
	"errors"
	"sync/atomic"
)

// FullImport is the package that links the full JSON Schema validator.
const FullImport = "github.com/mcpgen/mcpgen/fullschema"

// FullSchema is a schema compiled by the full JSON Schema validator: every
// schema outside the native subset.
type FullSchema interface {
	// Validate checks a tree (map[string]any, []any, string, json.Number,
	// bool, nil) and returns its problems sorted by pointer; nil when it
	// conforms.
	Validate(doc any) []Problem
}

// fullCompiler compiles a schema document outside the native subset; nil
// until package fullschema registers it.
var fullCompiler atomic.Pointer[func(doc any) (FullSchema, error)]

// RegisterFull installs the full validator's compiler (package fullschema
// calls it from its init, as a database/sql driver registers itself). A
// second registration is an error.
func RegisterFull(compile func(doc any) (FullSchema, error)) error {
	if compile == nil {
		return errors.New("argcheck: RegisterFull of nil")
	}
	if !fullCompiler.CompareAndSwap(nil, &compile) {
		return errors.New("argcheck: the full validator is registered twice")
	}
	return nil
}

// InNativeSubset reports why a schema is outside the native subset (the
// keyword and its pointer), or nil when the native checker validates it
// and the full validator is not needed. The generator asks it to decide
// whether generated bindings import package fullschema.
func InNativeSubset(schema []byte) error {
	doc, err := parseSchema(schema)
	if err != nil {
		return err
	}
	_, err = compileNative(doc)
	return err
}

// Native reports whether v checks with the native checker.
func (v *Validator) Native() bool { return v.native != nil }
