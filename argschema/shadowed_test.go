package argschema_test

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/mcpgen/mcpgen/argschema"
	"github.com/mcpgen/mcpgen/internal/argcheck"
)

// shadowedInner is embedded by shadowedArgs, whose own fields of the
// same JSON names hide its fields (encoding/json decodes the shallower
// one).
type shadowedInner struct {
	M map[int]string `json:"m"`
	S json.Number    `json:"s,string"`
	K map[uint8]int  `json:"k"`
}

type shadowedArgs struct {
	shadowedInner
	M map[string]int `json:"m"`
	S string         `json:"s"`
	// No K of its own: the embedded K is the one decoded.
}

// TestHiddenEmbeddedFieldsDoNotFitTheVisibleOnes: the member names and
// quoted numbers argschema derives are those of the field encoding/json
// decodes for each JSON name; a field of an embedded struct that an
// outer field of the same name hides gives the outer property nothing
// (an integer-key pattern on a map[string]int, a number pattern on a
// string), so arguments encoding/json and the decoder read are not
// refused by the schema.
func TestHiddenEmbeddedFieldsDoNotFitTheVisibleOnes(t *testing.T) {
	typ := reflect.TypeFor[shadowedArgs]()
	schema, err := argschema.For(typ)
	if err != nil {
		t.Fatal(err)
	}
	v, err := argschema.Compile(schema)
	if err != nil {
		t.Fatal(err)
	}
	for _, args := range []string{`{"m":{"a":1}}`, `{"s":"abc"}`, `{"k":{"7":1}}`} {
		var want shadowedArgs
		if err := json.Unmarshal([]byte(args), &want); err != nil {
			t.Fatalf("%s: encoding/json: %v", args, err)
		}
		var got shadowedArgs
		if err := argcheck.NewTypeDecoder(typ, v).DecodeInto([]byte(args), &got); err != nil {
			t.Errorf("%s: %v\nschema %s", args, err, schema)
		} else if !reflect.DeepEqual(got, want) {
			t.Errorf("%s decoded as %+v, encoding/json %+v", args, got, want)
		}
	}
	if _, err := v.Validate([]byte(`{"k":{"07":1}}`)); err == nil {
		t.Errorf("the embedded map[uint8] K, the one decoded, lost its key pattern: %s", schema)
	}
}
