package argcheck

import (
	"encoding/json"
	"testing"
)

// A member value that both its property's shape and the object's
// additionalProperties shape apply to: shape.apply applies the property's
// shape, then additionalProperties', on the tree (the reference, which
// santhosh-tekuri validates). The native checker must validate, and the
// decoder deliver, exactly that value.

type mergeInner struct {
	X *int `json:"x"`
	Y *int `json:"y"`
}

type mergeArgs struct {
	A mergeInner `json:"a"`
}

var shapeMergeCases = []struct {
	name, schema, args string
	valid              bool
	out                string // Validate's output when valid
}{
	{
		// both shapes declare x, only the additionalProperties one with a
		// default: the client's x stays
		name: "client value kept",
		schema: `{"type":"object","properties":{"a":{"type":"object","properties":{"x":{"type":"integer","maximum":10}}}},
		  "additionalProperties":{"type":"object","properties":{"x":{"type":"integer","default":1}}}}`,
		args: `{"a":{"x":5}}`, valid: true, out: `{"a":{"x":5}}`,
	},
	{
		name: "additionalProperties default fills absent member",
		schema: `{"type":"object","properties":{"a":{"type":"object","properties":{"x":{"type":"integer","maximum":10}}}},
		  "additionalProperties":{"type":"object","properties":{"x":{"type":"integer","default":1}}}}`,
		args: `{"a":{}}`, valid: true, out: `{"a":{"x":1}}`,
	},
	{
		// the property's own default applies first and is checked
		name: "own default checked",
		schema: `{"type":"object","properties":{"a":{"type":"object","properties":{"x":{"type":"integer","maximum":10,"default":100}}}},
		  "additionalProperties":{"type":"object","properties":{"y":{"type":"integer","default":1}}}}`,
		args: `{"a":{}}`, valid: false,
	},
	{
		name: "own null dropped",
		schema: `{"type":"object","properties":{"a":{"type":"object","properties":{"x":{"type":"integer"}}}},
		  "additionalProperties":{"type":"object","properties":{"y":{"type":"integer","default":1}}}}`,
		args: `{"a":{"x":null}}`, valid: true, out: `{"a":{"y":1}}`,
	},
	{
		name: "own default wins over additionalProperties default",
		schema: `{"type":"object","properties":{"a":{"type":"object","properties":{"x":{"type":"integer","default":2}}}},
		  "additionalProperties":{"type":"object","properties":{"x":{"type":"integer","default":1},"y":{"type":"integer","default":3}}}}`,
		args: `{"a":{}}`, valid: true, out: `{"a":{"x":2,"y":3}}`,
	},
	{
		name: "own null dropped then additionalProperties default",
		schema: `{"type":"object","properties":{"a":{"type":"object","properties":{"x":{"type":"integer"}}}},
		  "additionalProperties":{"type":"object","properties":{"x":{"type":"integer","default":1}}}}`,
		args: `{"a":{"x":null}}`, valid: true, out: `{"a":{"x":1}}`,
	},
	{
		name: "default of a property gets both shapes",
		schema: `{"type":"object","properties":{"a":{"type":"object","default":{"x":7},"properties":{"x":{"type":"integer","maximum":10}}}},
		  "additionalProperties":{"type":"object","properties":{"x":{"type":"integer","default":1},"y":{"type":"integer","default":4}}}}`,
		args: `{}`, valid: true, out: `{"a":{"x":7,"y":4}}`,
	},
}

// TestShapeMergeValidates: native and santhosh-tekuri give the same
// verdict, output and problems, and the output is the reference's.
func TestShapeMergeValidates(t *testing.T) {
	for _, tc := range shapeMergeCases {
		t.Run(tc.name, func(t *testing.T) {
			if !compareWithSanthosh(t, []byte(tc.schema), []byte(tc.args)) {
				t.Fatal("schema not checked natively")
			}
			for _, native := range []bool{true, false} {
				v, err := compile(json.RawMessage(tc.schema), native)
				if err != nil {
					t.Fatal(err)
				}
				out, err := v.Validate(json.RawMessage(tc.args))
				switch {
				case tc.valid && err != nil:
					t.Fatalf("native=%v: Validate: %v", native, err)
				case !tc.valid && err == nil:
					t.Fatalf("native=%v: Validate = %s, want a problem", native, out)
				case tc.valid && string(out) != tc.out:
					t.Fatalf("native=%v: Validate = %s, want %s", native, out, tc.out)
				}
			}
		})
	}
}

// TestShapeMergeDecodes: the decoder delivers what was validated (the
// json.Unmarshal of the shaped tree), for a struct, a map and any.
func TestShapeMergeDecodes(t *testing.T) {
	for _, tc := range shapeMergeCases {
		t.Run(tc.name, func(t *testing.T) {
			for _, native := range []bool{true, false} {
				v, err := compile(json.RawMessage(tc.schema), native)
				if err != nil {
					t.Fatal(err)
				}
				sameDecode[mergeArgs](t, v, []byte(tc.args))
				sameDecode[map[string]any](t, v, []byte(tc.args))
				sameDecode[any](t, v, []byte(tc.args))
				if !tc.valid {
					continue
				}
				got, err := NewDecoder[mergeArgs](v).Decode(json.RawMessage(tc.args))
				if err != nil {
					t.Fatal(err)
				}
				var want mergeArgs
				if err := json.Unmarshal([]byte(tc.out), &want); err != nil {
					t.Fatal(err)
				}
				if show(got.A.X) != show(want.A.X) || show(got.A.Y) != show(want.A.Y) {
					t.Fatalf("native=%v: a.x=%v a.y=%v, want %s", native, show(got.A.X), show(got.A.Y), tc.out)
				}
			}
		})
	}
}

func show(p *int) any {
	if p == nil {
		return nil
	}
	return *p
}
