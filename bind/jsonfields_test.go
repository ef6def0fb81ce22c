package bind

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"reflect"
	"testing"

	"github.com/mcpgen/mcpgen/internal/jsonfields"
)

// TestJSONFieldsOracle: jsonFields picks the members internal/jsonfields
// picks (encoding/json's typeFields, which the runtime decoder uses), on
// the types of jsonfields_oracle_test.go, type-checked from source.
func TestJSONFieldsOracle(t *testing.T) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "jsonfields_oracle_test.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	pkg, err := (&types.Config{}).Check("bind", fset, []*ast.File{f}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range oracleTypes {
		rt := reflect.TypeOf(v)
		var want []string
		for _, f := range jsonfields.TypeFields(rt) {
			want = append(want, fmt.Sprintf("%s%v", f.Name, f.Index))
		}
		st := pkg.Scope().Lookup(rt.Name()).Type().Underlying().(*types.Struct)
		var got []string
		for _, f := range jsonFields(st) {
			got = append(got, fmt.Sprintf("%s%v", f.name, f.index))
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: jsonFields = %v\nencoding/json's rules give %v", rt.Name(), got, want)
		}
	}
}
