package generator

import (
	"go/token"
	"go/types"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/internal/specdir"
	"github.com/mcpgen/mcpgen/schema"
)

// TestStdStubsMatchTheStandardLibrary: every stub declaration exists in the
// real package with the same signature, under the rules stdStubs states
// (concrete types may lack methods and unexported fields, sealed
// interfaces may lack exported methods, everything else is exact), so
// output that type-checks against the stubs type-checks for real.
func TestStdStubsMatchTheStandardLibrary(t *testing.T) {
	stub := stubImporter()
	for _, path := range slices.Sorted(maps.Keys(stdStubs)) {
		sp, err := stub.Import(path)
		if err != nil {
			t.Fatal(err)
		}
		rp, err := lockedImporter{}.Import(path)
		if err != nil {
			t.Fatalf("importing the real %s: %v", path, err)
		}
		for _, name := range sp.Scope().Names() {
			s, r := sp.Scope().Lookup(name), rp.Scope().Lookup(name)
			where := path + "." + name
			if r == nil {
				t.Errorf("%s: not in the standard library", where)
				continue
			}
			switch s := s.(type) {
			case *types.TypeName:
				r, ok := r.(*types.TypeName)
				if !ok {
					t.Errorf("%s: a type in the stub, a %T for real", where, r)
					continue
				}
				compareTypes(t, where, s.Type(), r.Type())
			default:
				if ts, tr := typeString(s.Type()), typeString(r.Type()); ts != tr {
					t.Errorf("%s: stub %s, real %s", where, ts, tr)
				}
			}
		}
	}
}

func compareTypes(t *testing.T, where string, s, r types.Type) {
	t.Helper()
	sn, rn := s.(*types.Named), r.(*types.Named)
	if tps, tpr := typeParams(sn), typeParams(rn); tps != tpr {
		t.Errorf("%s: type parameters %s, real %s", where, tps, tpr)
	}
	switch su := sn.Underlying().(type) {
	case *types.Interface:
		ru, ok := rn.Underlying().(*types.Interface)
		if !ok {
			t.Errorf("%s: an interface in the stub only", where)
			return
		}
		if !sealed(ru) {
			if a, b := typeString(su), typeString(ru); a != b {
				t.Errorf("%s: stub %s, real %s", where, a, b)
			}
			return
		}
		if !sealed(su) {
			t.Errorf("%s: the real interface has unexported methods, the stub must too", where)
		}
		for m := range su.Methods() {
			if !m.Exported() {
				continue
			}
			i, _ := types.MissingMethod(ru, types.NewInterfaceType([]*types.Func{types.NewFunc(token.NoPos, nil, m.Name(), m.Signature())}, nil).Complete(), true)
			if i != nil {
				t.Errorf("%s.%s: not in the real interface with that signature", where, m.Name())
			}
		}
	case *types.Struct:
		ru, ok := rn.Underlying().(*types.Struct)
		if !ok {
			t.Errorf("%s: a struct in the stub only", where)
			return
		}
		if exportedFields(su) != exportedFields(ru) {
			t.Errorf("%s: exported fields %s, real %s", where, exportedFields(su), exportedFields(ru))
		}
		if types.Comparable(sn) != types.Comparable(rn) {
			t.Errorf("%s: comparable %v, real %v", where, types.Comparable(sn), types.Comparable(rn))
		}
	default:
		if a, b := typeString(su), typeString(rn.Underlying()); a != b {
			t.Errorf("%s: stub %s, real %s", where, a, b)
		}
	}
	for m := range sn.Methods() {
		var rm *types.Func
		for x := range rn.Methods() {
			if x.Name() == m.Name() {
				rm = x
			}
		}
		if rm == nil {
			t.Errorf("%s.%s: no such method for real", where, m.Name())
			continue
		}
		_, sp := m.Signature().Recv().Type().(*types.Pointer)
		_, rp := rm.Signature().Recv().Type().(*types.Pointer)
		if sp != rp || typeString(m.Signature()) != typeString(rm.Signature()) {
			t.Errorf("%s.%s: stub %s, real %s", where, m.Name(), types.ObjectString(m, nil), types.ObjectString(rm, nil))
		}
	}
}

// typeString prints a type with full package paths and without parameter
// names, so that a stub and the real package print alike.
func typeString(t types.Type) string {
	if sig, ok := t.(*types.Signature); ok {
		strip := func(tu *types.Tuple) *types.Tuple {
			vars := make([]*types.Var, tu.Len())
			for i := range vars {
				vars[i] = types.NewParam(token.NoPos, nil, "", tu.At(i).Type())
			}
			return types.NewTuple(vars...)
		}
		var tps []*types.TypeParam
		for tp := range sig.TypeParams().TypeParams() {
			tps = append(tps, tp)
		}
		return typeParamList(tps) + types.TypeString(types.NewSignatureType(nil, nil, nil, strip(sig.Params()), strip(sig.Results()), sig.Variadic()), nil)
	}
	return types.TypeString(t, nil)
}

func typeParams(n *types.Named) string {
	var tps []*types.TypeParam
	for tp := range n.TypeParams().TypeParams() {
		tps = append(tps, tp)
	}
	return typeParamList(tps)
}

func typeParamList(tps []*types.TypeParam) string {
	var parts []string
	for _, tp := range tps {
		parts = append(parts, tp.Obj().Name()+" "+types.TypeString(tp.Constraint(), nil))
	}
	if parts == nil {
		return ""
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

func sealed(i *types.Interface) bool {
	for m := range i.Methods() {
		if !m.Exported() {
			return true
		}
	}
	return false
}

func exportedFields(s *types.Struct) string {
	var parts []string
	for f := range s.Fields() {
		if f.Exported() {
			parts = append(parts, f.Name()+" "+types.TypeString(f.Type(), nil))
		}
	}
	return "{" + strings.Join(parts, "; ") + "}"
}

// TestStdStubsCoverTheOutput: the output for every shipped revision, the
// fixture and every construct schema type-checks against the stubs alone,
// so generation never needs the real standard library.
func TestStdStubsCoverTheOutput(t *testing.T) {
	paths := map[string]string{"fixture": filepath.Join("testdata", "fixture", "2030-01-01", "schema.json")}
	for _, v := range []string{"2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"} {
		paths["mcp"+strings.ReplaceAll(v, "-", "")] = specdir.Schema(t, v)
	}
	constructs, _ := filepath.Glob(filepath.Join("testdata", "constructs", "*", "schema.json"))
	for _, p := range constructs {
		paths[filepath.Base(filepath.Dir(p))] = p
	}
	for _, pkg := range slices.Sorted(maps.Keys(paths)) {
		data, err := os.ReadFile(paths[pkg])
		if err != nil {
			t.Fatal(err)
		}
		m, err := schema.LoadBytes(paths[pkg], data, schema.Options{Version: "2030-01-01"})
		if !strings.Contains(paths[pkg], "constructs") {
			m, err = schema.Load(paths[pkg], schema.Options{})
		}
		if err != nil {
			t.Fatalf("%s: %v", pkg, err)
		}
		files, err := Generate(m, Options{Package: pkg})
		if err != nil {
			t.Fatalf("%s: %v", pkg, err)
		}
		g := newGen(m, Options{Package: pkg})
		if err := g.check(files, stubImporter()); err != nil {
			t.Errorf("%s does not type-check against the stubs: %v", pkg, err)
		}
	}
}
