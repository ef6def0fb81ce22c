package argcheck

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/internal/fullcheck"
)

// The tests link the full validator as package fullschema would (which
// they cannot import: it imports this package).
func init() {
	if err := RegisterFull(compileFullForTests); err != nil {
		panic(err)
	}
}

func compileFullForTests(doc any) (FullSchema, error) {
	s, err := fullcheck.Compile(doc)
	if err != nil {
		return nil, err
	}
	return fullForTests{s}, nil
}

type fullForTests struct{ s *fullcheck.Schema }

func (f fullForTests) Validate(doc any) []Problem {
	var out []Problem
	for _, p := range f.s.Validate(doc) {
		out = append(out, Problem(p))
	}
	return out
}

// TestFullNotLinked: without the full validator, a schema outside the
// native subset fails to compile with an error naming the keyword, its
// pointer and the import to add; one inside compiles.
func TestFullNotLinked(t *testing.T) {
	saved := fullCompiler.Swap(nil)
	defer fullCompiler.Store(saved)
	_, err := Compile(json.RawMessage(`{"type":"object","properties":{"tags":{"type":"object","patternProperties":{"^x-":{"type":"string"}}}}}`))
	if err == nil {
		t.Fatal("compiled without the full validator")
	}
	for _, want := range []string{`"patternProperties"`, `#/properties/tags/patternProperties`, `import _ "github.com/mcpgen/mcpgen/fullschema"`} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not name %s", err, want)
		}
	}
	if v, err := Compile(json.RawMessage(weatherSchema)); err != nil || !v.Native() {
		t.Errorf("weather schema without the full validator: %v", err)
	}
	if err := RegisterFull(compileFullForTests); err != nil {
		t.Errorf("RegisterFull after none: %v", err)
	}
	if err := RegisterFull(compileFullForTests); err == nil {
		t.Error("a second RegisterFull succeeded")
	}
}
