package argcheck

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestSchemaNumberLimits: a schema with a number beyond the argument
// limits is refused at Compile with its pointer, on both checkers, and
// never reaches santhosh-tekuri (which panics on some: a client compiles
// whatever outputSchema a server sends).
func TestSchemaNumberLimits(t *testing.T) {
	for _, c := range []struct{ schema, pointer string }{
		{`{"patternProperties":{"^a":{}},"maximum":1e10000000}`, "/maximum"},
		{`{"patternProperties":{"^a":{}},"multipleOf":1e-10000000}`, "/multipleOf"},
		{`{"patternProperties":{"^a":{}},"const":1e10000000}`, "/const"},
		{`{"type":"object","properties":{"n":{"type":"number","default":1E+1001}}}`, "/properties/n/default"},
		{`{"enum":[1,2,` + "1" + strings.Repeat("0", 1000) + `]}`, "/enum/2"},
		{`{"properties":{"a/b":{"minimum":-1e99999}},"patternProperties":{"^x":{}}}`, "/properties/a~1b/minimum"},
	} {
		for _, native := range []bool{true, false} {
			v, err := compile(json.RawMessage(c.schema), native)
			if err == nil {
				t.Errorf("native=%v %s: compiled (%v), want a refusal", native, c.schema, v)
				continue
			}
			if !strings.Contains(err.Error(), `"`+c.pointer+`"`) || !strings.Contains(err.Error(), "beyond the limits") {
				t.Errorf("native=%v %s: %v, want the limit naming %s", native, c.schema, err, c.pointer)
			}
		}
	}
	// At the limits a schema compiles and works.
	v, err := compile(json.RawMessage(`{"patternProperties":{"^a":{}},"maximum":1e1000,"minimum":-1e1000}`), false)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := v.Validate(json.RawMessage(`5`)); err != nil {
		t.Fatal(err)
	}
}
