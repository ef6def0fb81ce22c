package argcheck

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

type level int

// foldKey is a key type whose UnmarshalText folds case: "A" and "a" are
// one key.
type foldKey string

func (k *foldKey) UnmarshalText(b []byte) error {
	*k = foldKey(strings.ToLower(string(b)))
	return nil
}

// TestMapKeysNameOneEntryEach: two members of an object decoded into a Go
// map must not fill one entry (one validated member silently lost): a
// member name that is not the canonical text of an integer key, or that a
// key's UnmarshalText maps onto an earlier member's key, refuses the call
// naming that member; canonical names decode. The same on the whole tape
// and on the element-wise (lazy) path.
func TestMapKeysNameOneEntryEach(t *testing.T) {
	v, err := Compile([]byte(`{"type":"object"}`))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		typ     reflect.Type
		args    string
		pointer string // "" when the arguments decode
	}{
		{reflect.TypeFor[struct {
			X map[int]string `json:"x"`
		}](), `{"x":{"1":"b","01":"c"}}`, "/x/01"},
		{reflect.TypeFor[struct {
			X map[int]string `json:"x"`
		}](), `{"x":{"+1":"b"}}`, "/x/+1"},
		{reflect.TypeFor[struct {
			X map[int]string `json:"x"`
		}](), `{"x":{"-0":"b"}}`, "/x/-0"},
		{reflect.TypeFor[struct {
			X map[int]string `json:"x"`
		}](), `{"x":{"0":"a","-1":"b","10":"c"}}`, ""},
		{reflect.TypeFor[struct {
			X map[uint]string `json:"x"`
		}](), `{"x":{"2":"b","002":"c"}}`, "/x/002"},
		{reflect.TypeFor[struct {
			X map[int8]string `json:"x"`
		}](), `{"x":{"7":"b","07":"c"}}`, "/x/07"},
		{reflect.TypeFor[struct {
			X map[level]string `json:"x"`
		}](), `{"x":{"3":"b","003":"c"}}`, "/x/003"},
		{reflect.TypeFor[struct {
			X map[foldKey]string `json:"x"`
		}](), `{"x":{"a/b":"b","A/B":"c"}}`, "/x/A~1B"},
		{reflect.TypeFor[struct {
			X map[foldKey]string `json:"x"`
		}](), `{"x":{"a":"b","b":"c"}}`, ""},
		{reflect.TypeFor[map[int]string](), `{"1":"b","01":"c"}`, "/01"},
		{reflect.TypeFor[struct {
			X map[int][]int `json:"x"`
		}](), `{"x":{"1":[1,2,3,4,5,6,7,8],"01":[9,10,11,12,13,14,15,16]}}`, "/x/01"},
	} {
		into := reflect.New(c.typ)
		err := NewTypeDecoder(c.typ, v).DecodeInto([]byte(c.args), into.Interface())
		var ve *ValidationError
		switch {
		case c.pointer == "" && err != nil:
			t.Errorf("%s into %v: %v", c.args, c.typ, err)
		case c.pointer != "" && (!errors.As(err, &ve) || ve.Problems[0].Pointer != c.pointer):
			t.Errorf("%s into %v: error %v, want a problem at %s (decoded %+v)", c.args, c.typ, err, c.pointer, into.Elem())
		}
		checkLazyDecode(t, v, c.typ, []byte(c.args), 8)
	}
}
