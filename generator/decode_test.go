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

// TestDecodersTakeIntegersWithZeroFraction: an "integer" member or
// element written 1.0, 1e0 or 10E-1 decodes as 1, as JSON Schema 2020-12
// Validation §6.1.1 says (an integer is any number with a zero fractional
// part), as mcpgen's loader (schema/build.go ofType) and the runtime's
// argument validation (internal/argcheck) read it. The decoders once read
// such members with encoding/json into an int64, which refuses them.
func TestDecodersTakeIntegersWithZeroFraction(t *testing.T) {
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
