package argschema

import (
	"encoding/json"
	"errors"
	"reflect"
	"testing"

	"github.com/mcpgen/mcpgen/internal/argcheck"
)

// quotedNumberArgs hold a json.Number with the ",string" tag option,
// which encoding/json reads from a string holding a number.
type quotedNumberArgs struct {
	N     json.Number `json:"n,omitempty,string"`
	Items []struct {
		P *json.Number `json:"p,omitempty,string"`
	} `json:"items,omitempty"`
}

// TestQuotedJSONNumberThatIsNoNumberIsRefusedAtItsMember: the schema of a
// ",string" json.Number says what the decoder reads (a string holding a
// JSON number), so "x" is refused by the checker, as -32602 names the
// member and the rule ("pattern"), not by the decoder with encoding/json's
// message at the root; a number in quotes decodes.
func TestQuotedJSONNumberThatIsNoNumberIsRefusedAtItsMember(t *testing.T) {
	raw, err := ForType[quotedNumberArgs]()
	if err != nil {
		t.Fatal(err)
	}
	v, err := Compile(raw)
	if err != nil {
		t.Fatal(err)
	}
	dec := argcheck.NewDecoder[quotedNumberArgs](v)
	for args, pointer := range map[string]string{
		`{"n":"x"}`:                          "/n",
		`{"n":"1x"}`:                         "/n",
		`{"items":[{},{"p":"-"}]}`:           "/items/1/p",
		`{"n":"-1.5e3","items":[{"p":"0"}]}`: "",
	} {
		got, err := dec.Decode(json.RawMessage(args))
		var ve *ValidationError
		switch {
		case pointer == "" && err != nil:
			t.Errorf("%s: %v", args, err)
		case pointer == "" && (got.N != "-1.5e3" || *got.Items[0].P != "0"):
			t.Errorf("%s decoded as %+v", args, got)
		case pointer != "" && (!errors.As(err, &ve) || len(ve.Problems) != 1 || !reflect.DeepEqual(ve.Problems[0].Pointer, pointer) || ve.Problems[0].Keyword != "pattern"):
			t.Errorf("%s: %v; want a pattern problem at %s (schema %s)", args, err, pointer, raw)
		}
	}
}
