package argcheck

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

// TestNumberLimits: a number literal whose exponent or length is beyond
// the limits is refused before any schema keyword looks at its exact value
// (twenty "1e999999" items cost a second of CPU and, under "maximum", a
// 5 MB message), naming its pointer in a short message; literals at the
// limits still reach the schema.
func TestNumberLimits(t *testing.T) {
	v, err := Compile(json.RawMessage(`{"type":"object","properties":{"a":{"type":"array","items":{"type":"integer","maximum":10}},"o":{"type":"object"}}}`))
	if err != nil {
		t.Fatal(err)
	}
	refused := []struct{ args, pointer string }{
		{`{"a":[1,1e999999]}`, "/a/1"},
		{`{"a":[1E+1001]}`, "/a/0"},
		{`{"a":[1e-1001]}`, "/a/0"},
		{`{"a":[2.5e00000000000000000000001001]}`, "/a/0"},
		{`{"o":{"x~/y":[0,{"z":1e99999999999999999999}]}}`, "/o/x~0~1y/1/z"},
		{`{"a":[1` + strings.Repeat("0", MaxNumberLength) + `]}`, "/a/0"},
	}
	for _, c := range refused {
		_, err := v.Validate(json.RawMessage(c.args))
		var ve *ValidationError
		if !errors.As(err, &ve) || len(ve.Problems) != 1 || ve.Problems[0].Keyword != "number" || ve.Problems[0].Pointer != c.pointer {
			t.Errorf("%.60s: got %v, want one number problem at %s", c.args, err, c.pointer)
			continue
		}
		if n := len(err.Error()); n > 300 {
			t.Errorf("%.60s: a %d-byte message", c.args, n)
		}
	}
	// At the limits the schema decides: 1e1000 is an integer above the maximum,
	// 1e-1000 is not an integer, 1e0001000 is 1e1000 written long.
	for args, keyword := range map[string]string{
		`{"a":[1e1000]}`:    "maximum",
		`{"a":[1e-1000]}`:   "type",
		`{"a":[1e0001000]}`: "maximum",
		`{"a":[1` + strings.Repeat("0", MaxNumberLength-1) + `]}`: "maximum",
	} {
		_, err := v.Validate(json.RawMessage(args))
		var ve *ValidationError
		if !errors.As(err, &ve) || ve.Problems[0].Keyword != keyword {
			t.Errorf("%.60s: got %v, want a %s problem", args, err, keyword)
		}
	}
	if _, err := v.Validate(json.RawMessage(`{"a":[1e0,10,-5e+0],"o":{"f":1.5e-300}}`)); err != nil {
		t.Errorf("valid arguments refused: %v", err)
	}
}
