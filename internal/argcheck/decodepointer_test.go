package argcheck

import (
	"encoding/json"
	"errors"
	"reflect"
	"testing"
)

// pointerInner is embedded: its fields are members of the object that
// holds it.
type pointerInner struct {
	Tags map[int]string `json:"tags,omitempty"`
}

// pointerArgs hold maps and values that the decoder refuses at every
// depth: in array elements, map values and an embedded struct.
type pointerArgs struct {
	pointerInner
	Items []struct {
		Tags  map[int]string   `json:"tags,omitempty"`
		Small map[uint8]string `json:"small,omitempty"`
		N     int              `json:"n,omitempty"`
		Q     json.Number      `json:"q,omitempty,string"`
	} `json:"items,omitempty"`
	Groups map[string]map[int]string `json:"groups,omitempty"`
	Grid   [][]map[int8]string       `json:"grid,omitempty"`
}

// TestDecodeErrorsPointAtTheirMember: a refusal of the arguments decoder
// (a schema that says less than the Go type, e.g. a hand-written one)
// names the member it is about by its JSON pointer, array indexes and map
// member names included, an embedded struct's name left out: a map key
// that names another member's key is the member itself
// (/items/3/tags/01); a key out of its type's range, a value of the wrong
// type or a ",string" json.Number that is no number is the member holding
// it. The same on the whole tape and on the element-wise (lazy) path.
func TestDecodeErrorsPointAtTheirMember(t *testing.T) {
	v, err := Compile([]byte(`{"type":"object"}`))
	if err != nil {
		t.Fatal(err)
	}
	typ := reflect.TypeFor[pointerArgs]()
	for _, c := range []struct{ args, pointer, keyword string }{
		{`{"items":[{},{},{},{"tags":{"1":"a","01":"b"}}]}`, "/items/3/tags/01", "propertyNames"},
		{`{"groups":{"g/1":{"1":"a","+1":"b"}}}`, "/groups/g~11/+1", "propertyNames"},
		{`{"tags":{"-0":"x"}}`, "/tags/-0", "propertyNames"},
		{`{"grid":[[],[{},{"1":"a","007":"b"}]]}`, "/grid/1/1/007", "propertyNames"},
		{`{"items":[{},{"small":{"256":"x"}}]}`, "/items/1/small", "type"},
		{`{"items":[{},{},{"n":"x"}]}`, "/items/2/n", "type"},
		{`{"items":[{},{"q":"x"}]}`, "/items/1/q", "type"},
		{`{"items":[{"q":"12"}],"groups":{"a":{"-1":"x"}},"grid":[[{"-128":"y"}]]}`, "", ""},
	} {
		into := reflect.New(typ)
		err := NewTypeDecoder(typ, v).DecodeInto([]byte(c.args), into.Interface())
		var ve *ValidationError
		switch {
		case c.pointer == "" && err != nil:
			t.Errorf("%s: %v", c.args, err)
		case c.pointer != "" && (!errors.As(err, &ve) || len(ve.Problems) != 1 || ve.Problems[0].Pointer != c.pointer || ve.Problems[0].Keyword != c.keyword):
			t.Errorf("%s: %v; want a %s problem at %s", c.args, err, c.keyword, c.pointer)
		}
		checkLazyDecode(t, v, typ, []byte(c.args), 1)
	}
}
