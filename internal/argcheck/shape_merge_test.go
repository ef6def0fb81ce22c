package argcheck

import (
	"encoding/json"
	"testing"
)

// An object with both a "properties" and an "additionalProperties" shape:
// as in JSON Schema, additionalProperties' shape (its defaults and nulls)
// applies only to the members that properties does not declare and no
// patternProperties pattern matches; a declared property's value gets its
// own shape alone. shape.apply is the reference (what santhosh-tekuri
// validates); the native checker must validate, and the decoder deliver,
// exactly that value.

type mergeInner struct {
	X *int `json:"x"`
	Y *int `json:"y"`
}

type mergeArgs struct {
	A mergeInner `json:"a"`
}

// additionalDefaults is an object whose declared "a" has a maximum on x
// and whose additional members get x: 1 when absent.
const additionalDefaults = `{"type":"object","properties":{"a":{"type":"object","properties":{"x":{"type":"integer","maximum":10}}}},
  "additionalProperties":{"type":"object","properties":{"x":{"type":"integer","default":1}}}}`

var shapeMergeCases = []struct {
	name, schema, args string
	valid              bool
	out                string // Validate's output when valid
}{
	{name: "client value kept", schema: additionalDefaults, args: `{"a":{"x":5}}`, valid: true, out: `{"a":{"x":5}}`},
	{
		name:   "additionalProperties default does not reach a declared property",
		schema: additionalDefaults, args: `{"a":{}}`, valid: true, out: `{"a":{}}`,
	},
	{
		name:   "additionalProperties default fills an additional member",
		schema: additionalDefaults, args: `{"a":{},"b":{},"c":{"x":3}}`, valid: true, out: `{"a":{},"b":{"x":1},"c":{"x":3}}`,
	},
	{
		// the refusal that shaping a declared property with
		// additionalProperties' defaults used to cause
		name: "declared property closed to additionalProperties defaults",
		schema: `{"type":"object","properties":{"a":{"type":"object","properties":{"x":{"type":"integer"}},"additionalProperties":false}},
		  "additionalProperties":{"type":"object","properties":{"y":{"type":"integer","default":1}}}}`,
		args: `{"a":{"x":2},"b":{}}`, valid: true, out: `{"a":{"x":2},"b":{"y":1}}`,
	},
	{
		// the property's own default applies and is checked
		name: "own default checked",
		schema: `{"type":"object","properties":{"a":{"type":"object","properties":{"x":{"type":"integer","maximum":10,"default":100}}}},
		  "additionalProperties":{"type":"object","properties":{"y":{"type":"integer","default":1}}}}`,
		args: `{"a":{}}`, valid: false,
	},
	{
		name: "own null dropped",
		schema: `{"type":"object","properties":{"a":{"type":"object","properties":{"x":{"type":"integer"}}}},
		  "additionalProperties":{"type":"object","properties":{"y":{"type":"integer","default":1}}}}`,
		args: `{"a":{"x":null}}`, valid: true, out: `{"a":{}}`,
	},
	{
		name: "own default only",
		schema: `{"type":"object","properties":{"a":{"type":"object","properties":{"x":{"type":"integer","default":2}}}},
		  "additionalProperties":{"type":"object","properties":{"x":{"type":"integer","default":1},"y":{"type":"integer","default":3}}}}`,
		args: `{"a":{}}`, valid: true, out: `{"a":{"x":2}}`,
	},
	{
		name: "declared property without a shape of its own",
		schema: `{"type":"object","properties":{"a":{"type":"object"}},
		  "additionalProperties":{"type":"object","properties":{"x":{"type":"integer","default":1}}}}`,
		args: `{"a":{},"b":{}}`, valid: true, out: `{"a":{},"b":{"x":1}}`,
	},
	{
		name: "a declared property's default gets its own shape only",
		schema: `{"type":"object","properties":{"a":{"type":"object","default":{"x":7},"properties":{"x":{"type":"integer","maximum":10}}}},
		  "additionalProperties":{"type":"object","properties":{"x":{"type":"integer","default":1},"y":{"type":"integer","default":4}}}}`,
		args: `{}`, valid: true, out: `{"a":{"x":7}}`,
	},
	{
		name:   "escaped member names",
		schema: additionalDefaults, args: `{"\u0061":{},"\u0062":{}}`, valid: true, out: `{"a":{},"b":{"x":1}}`,
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

// TestShapePatternPropertiesNotAdditional: a member a patternProperties
// pattern matches is not additional, so additionalProperties' defaults do
// not reach it (the full checker: patternProperties is outside the native
// subset), on validation and in the decoder.
func TestShapePatternPropertiesNotAdditional(t *testing.T) {
	schema := `{"type":"object","patternProperties":{"^p":{"type":"object"}},
	  "additionalProperties":{"type":"object","properties":{"x":{"type":"integer","default":1}}}}`
	v, err := compile(json.RawMessage(schema), false)
	if err != nil {
		t.Fatal(err)
	}
	args := `{"p1":{},"q":{},"\u0070\u0032":{}}`
	out, err := v.Validate(json.RawMessage(args))
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"p1":{},"p2":{},"q":{"x":1}}`; string(out) != want {
		t.Fatalf("Validate = %s, want %s", out, want)
	}
	sameDecode[map[string]any](t, v, []byte(args))
	sameDecode[any](t, v, []byte(args))
	got, err := NewDecoder[map[string]map[string]int](v).Decode(json.RawMessage(args))
	if err != nil {
		t.Fatal(err)
	}
	if len(got["p1"]) != 0 || len(got["p2"]) != 0 || got["q"]["x"] != 1 {
		t.Fatalf("decoded %v, want p1 and p2 empty, q.x 1", got)
	}
}
