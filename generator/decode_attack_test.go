package generator_test

import (
	"path/filepath"
	"testing"

	"github.com/mcpgen/mcpgen/generator"
)

// integerDecodeTest decodes integers written with a zero fraction or an
// exponent: JSON Schema counts them as integers.
const integerDecodeTest = `package p

import "testing"

func TestIntegerSpellings(t *testing.T) {
	for _, in := range []string{` + "`" + `{"n":1.0}` + "`" + `, ` + "`" + `{"n":1e0}` + "`" + `, ` + "`" + `{"n":10E-1}` + "`" + `, ` + "`" + `{"list":[2.0]}` + "`" + `} {
		if _, err := DecodeNamed("T", []byte(in)); err != nil {
			t.Errorf("%s: %v", in, err)
		}
	}
}
`

// TestAttackIntegerWithZeroFraction: the generated decoder reads an
// "integer" member with encoding/json into an int64, so a message that
// writes 1 as 1.0 or 1e0 is refused ("n: expected an integer, got number
// 1.0"), though the schema admits it and mcpgen's own loader says so
// (schema/build.go ofType: "an integer is a number without a fractional
// part, as in JSON Schema: 1.0 is an integer").
// Held to: JSON Schema 2020-12 Validation §6.1.1 ("integer" matches any
// number with a zero fractional part); the brief: no disagreement between
// two parsers of one message.
func TestAttackIntegerWithZeroFraction(t *testing.T) {
	if testing.Short() {
		t.Skip("compiles a generated package")
	}
	m, err := loadDefs(t, `{"T":{"type":"object","properties":{"n":{"type":"integer"},"list":{"type":"array","items":{"type":"integer"}}}}}`)
	if err != nil {
		t.Fatal(err)
	}
	files, err := generator.Generate(m, generator.Options{Package: "p"})
	if err != nil {
		t.Fatal(err)
	}
	mod := t.TempDir()
	for _, f := range files {
		writeFile(t, filepath.Join(mod, "p", f.Name), f.Content)
	}
	writeFile(t, filepath.Join(mod, "p", "int_test.go"), []byte(integerDecodeTest))
	goVet(t, mod, "test")
}
