package argcheck

import (
	"encoding/json"
	"reflect"
	"testing"
	"time"
)

type selfMarshal struct{}

func (selfMarshal) MarshalJSON() ([]byte, error) { return []byte(`"x"`), nil }

func TestHasValueConstraints(t *testing.T) {
	for schema, want := range map[string]bool{
		`{"type":"object","properties":{"a":{"type":"string"},"t":{"type":"string","format":"date-time"}},"required":["a"]}`: false,
		`{"type":"object","properties":{"a":{"anyOf":[{"type":"array","items":{"type":"integer"}},{"type":"null"}]}}}`:       false,
		`{"type":"object","properties":{"a":{"type":"string","enum":["x"]}}}`:                                                true,
		`{"type":"object","properties":{"a":{"type":"array","items":{"type":"integer","minimum":1}}}}`:                       true,
		`{"type":"object","$defs":{"N":{"type":"string","format":"email"}}}`:                                                 true,
		`not json`: true,
	} {
		if got := HasValueConstraints(json.RawMessage(schema)); got != want {
			t.Errorf("HasValueConstraints(%s) = %v, want %v", schema, got, want)
		}
	}
}

func TestMarshalsItself(t *testing.T) {
	type plain struct {
		A string
		T time.Time
		M map[string][]int
	}
	type wraps struct{ S []selfMarshal }
	if MarshalsItself(reflect.TypeFor[plain]()) || !MarshalsItself(reflect.TypeFor[wraps]()) || !MarshalsItself(reflect.TypeFor[json.RawMessage]()) {
		t.Error("MarshalsItself misclassifies")
	}
}
