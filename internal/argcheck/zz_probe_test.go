package argcheck

import (
	"reflect"
	"testing"
	"fmt"
)

func TestZZProbe(t *testing.T) {
	v, _ := Compile([]byte(`{"type":"object"}`))
	for _, c := range []struct {
		typ  reflect.Type
		args string
	}{
		{reflect.TypeFor[struct{ X []map[int]string `json:"x"` }](), `{"x":[{"1":"a"},{"1":"a","01":"b"}]}`},
		{reflect.TypeFor[struct{ X map[string]map[int]string `json:"x"` }](), `{"x":{"k/~":{"1":"a","01":"b"}}}`},
		{reflect.TypeFor[struct{ X map[int8]string `json:"x"` }](), `{"x":{"200":"a"}}`},
		{reflect.TypeFor[struct{ X map[int64]string `json:"x"` }](), `{"x":{"99999999999999999999":"a"}}`},
		{reflect.TypeFor[struct{ X map[foldKey]map[int]int `json:"x"` }](), `{"x":{"A":{"1":1},"a":{"2":2}}}`},
		{reflect.TypeFor[struct{ X map[int]string `json:"x"` }](), `{"x":{"\u0031":"a","1":"b"}}`},
	} {
		into := reflect.New(c.typ)
		err := NewTypeDecoder(c.typ, v).DecodeInto([]byte(c.args), into.Interface())
		fmt.Printf("%s -> %v ; %+v\n", c.args, err, into.Elem())
		if ve, ok := err.(*ValidationError); ok { fmt.Printf("   %+v\n", ve.Problems) }
	}
}
