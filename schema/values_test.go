package schema

import (
	"strings"
	"testing"
)

// TestLoadValuesOfTheirType checks that an enum value or a const the
// declared type refuses is an error at its pointer (the type generated for
// it would refuse every message), wherever the schema stands, and that
// values of the type load.
func TestLoadValuesOfTheirType(t *testing.T) {
	for _, tc := range []struct{ defs, pointer, msg string }{
		{`{"E":{"type":"integer","enum":["1",true]}}`, "#/$defs/E/enum/0", `enum value "1" is not of the declared type "integer"`},
		{`{"E":{"type":"integer","enum":[1,2.5]}}`, "#/$defs/E/enum/1", `enum value 2.5 is not of the declared type "integer"`},
		{`{"E":{"type":"string","enum":["a",null]}}`, "#/$defs/E/enum/1", `enum value null is not of the declared type "string"`},
		{`{"E":{"type":"boolean","enum":[true,"false"]}}`, "#/$defs/E/enum/1", `"false" is not of the declared type "boolean"`},
		{`{"E":{"type":["string","null"],"enum":["a",1]}}`, "#/$defs/E/enum/1", `1 is not of the declared type ["string","null"]`},
		{`{"T":{"type":"object","properties":{"p":{"type":"number","enum":[1,"2"]}}}}`, "#/$defs/T/properties/p/enum/1", `"2" is not of the declared type "number"`},
		{`{"T":{"type":"array","items":{"type":"integer","enum":[true]}}}`, "#/$defs/T/items/enum/0", `true is not of the declared type "integer"`},
		{`{"T":{"type":"object","additionalProperties":{"type":"string","enum":[{}]}}}`, "#/$defs/T/additionalProperties/enum/0", `{} is not of the declared type "string"`},
		{`{"T":{"type":"object","properties":{"k":{"type":"string","const":1}}}}`, "#/$defs/T/properties/k/const", `const 1 is not of the declared type "string"`},
	} {
		_, err := LoadBytes("values.json", []byte(`{"$defs":`+tc.defs+`}`), Options{Version: "test"})
		list, ok := err.(ErrorList)
		if !ok || len(list) == 0 {
			t.Errorf("%s: err = %v, want an error at %s", tc.defs, err, tc.pointer)
			continue
		}
		if list[0].Pointer != tc.pointer || !strings.Contains(list[0].Msg, tc.msg) {
			t.Errorf("%s: error = %v\nwant %s: …%s…", tc.defs, list[0], tc.pointer, tc.msg)
		}
	}
	for _, defs := range []string{
		`{"E":{"type":"integer","enum":[1,2.0,-3]}}`,
		`{"E":{"type":"number","enum":[1,2.5]}}`,
		`{"E":{"type":"boolean","enum":[true]}}`,
		`{"T":{"type":"object","properties":{"k":{"type":"integer","const":-32020}}}}`,
	} {
		if _, err := LoadBytes("values.json", []byte(`{"$defs":`+defs+`}`), Options{Version: "test"}); err != nil {
			t.Errorf("%s: %v", defs, err)
		}
	}
}
