package fullschema_test

import (
	"encoding/json"
	"testing"

	"github.com/mcpgen/mcpgen/argschema"
	_ "github.com/mcpgen/mcpgen/fullschema"
)

// TestLinked: with the package imported, a schema outside the native
// subset compiles and validates (here patternProperties), with the
// problem's pointer and keyword.
func TestLinked(t *testing.T) {
	v, err := argschema.Compile(json.RawMessage(`{"type":"object","patternProperties":{"^n_":{"type":"integer"}}}`))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := v.Validate(json.RawMessage(`{"n_a":1,"other":"x"}`)); err != nil {
		t.Errorf("valid arguments: %v", err)
	}
	_, err = v.Validate(json.RawMessage(`{"n_a":"one"}`))
	ve, ok := err.(*argschema.ValidationError)
	if !ok || len(ve.Problems) != 1 || ve.Problems[0].Pointer != "/n_a" || ve.Problems[0].Keyword != "type" {
		t.Errorf("invalid arguments: %v", err)
	}
}
