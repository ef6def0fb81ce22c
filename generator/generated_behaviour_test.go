package generator_test

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/generator"
	"github.com/mcpgen/mcpgen/schema"
)

// generateOrRefuse holds a schema ($defs given as JSON) to the generator's
// promise: it is either refused with an error naming a JSON pointer, or it
// generates a package in which the behaviour test src (package p) passes.
// It returns the error the schema was refused with, or nil.
func generateOrRefuse(t *testing.T, defs, src string) (refusal error) {
	t.Helper()
	m, err := loadDefs(t, defs)
	if err == nil {
		var files []generator.File
		files, err = generator.Generate(m, generator.Options{Package: "p"})
		if err == nil {
			mod := t.TempDir()
			for _, f := range files {
				writeFile(t, filepath.Join(mod, "p", f.Name), f.Content)
			}
			writeFile(t, filepath.Join(mod, "p", "behaviour_test.go"), []byte(src))
			writeFile(t, filepath.Join(mod, "go.mod"), []byte("module example.com/gen\n\ngo 1.26\n"))
			goCmd, lerr := exec.LookPath("go")
			if lerr != nil {
				t.Skip("no go command in PATH")
			}
			cmd := exec.Command(goCmd, "test", "-count=1", "./...")
			cmd.Dir = mod
			cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod", "GOTOOLCHAIN=local")
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("the schema generated a package (no error), but the package fails on messages the schema allows:\n%s", out)
			}
			return nil
		}
	}
	var list schema.ErrorList
	var gerr *generator.Error
	if !(errors.As(err, &list) && strings.HasPrefix(list[0].Pointer, "#/")) && !errors.As(err, &gerr) {
		t.Fatalf("refused without a JSON pointer: %v", err)
	}
	return err
}

// roundTripSrc decodes each [definition, message] pair with DecodeNamed and
// encodes it again: the JSON must come back the same.
const roundTripSrc = `package p

import (
	"encoding/json"
	"reflect"
	"testing"
)

func TestRoundTrip(t *testing.T) {
	for _, c := range cases {
		v, err := DecodeNamed(c[0], []byte(c[1]))
		if err != nil {
			t.Errorf("%s %s: valid message refused: %v", c[0], c[1], err)
			continue
		}
		out, err := json.Marshal(v)
		if err != nil {
			t.Errorf("%s %s: encode: %v", c[0], c[1], err)
			continue
		}
		var a, b any
		json.Unmarshal([]byte(c[1]), &a)
		json.Unmarshal(out, &b)
		if !reflect.DeepEqual(a, b) {
			t.Errorf("%s: round trip changed the message:\nin  %s\nout %s", c[0], c[1], out)
		}
	}
}
`
