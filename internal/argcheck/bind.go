package argcheck

import (
	"encoding"
	"encoding/json"
	"math/big"
	"reflect"
	"strings"
)

// textUnmarshaler is the interface a map key type decodes through.
var textUnmarshaler = reflect.TypeFor[encoding.TextUnmarshaler]()

// FieldNames returns the JSON names encoding/json decodes into the struct t
// (after any pointers), computed by its rules (typeFields): json tag names,
// else Go names; embedded structs flattened; a name declared at a shallower
// depth hides deeper ones; of several at one depth a tagged one wins, else
// none. They are exactly the members the arguments decoder fills.
func FieldNames(t reflect.Type) []string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct {
		return nil
	}
	var names []string
	for name := range fieldsOf(t).byName {
		names = append(names, name)
	}
	return names
}

// integral rewrites a number with a fraction or exponent that is an
// integer ("3.0", "-2.5e1", "1e2") in integer form; huge exponents are left
// alone (the decoder then reports an out-of-range value).
func integral(n json.Number) (json.Number, bool) {
	s := string(n)
	if !strings.ContainsAny(s, ".eE") || len(s) > 64 {
		return n, false
	}
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		exp := strings.TrimLeft(s[i+1:], "+-0")
		if len(exp) > 3 {
			return n, false
		}
	}
	r, ok := new(big.Rat).SetString(s)
	if !ok || !r.IsInt() {
		return n, false
	}
	return json.Number(r.Num().String()), true
}
