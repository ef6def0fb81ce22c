package argcheck

import (
	"encoding/json"
	"errors"
	"testing"
)

// TestNativeSubsetCovers: the schemas `mcpgen tools` and argschema derive
// (defaults, enum, pattern, formats, base64, nested objects, recursive
// $defs) compile natively, without santhosh-tekuri.
func TestNativeSubsetCovers(t *testing.T) {
	for name, schema := range map[string]string{
		"weather":   weatherSchema,
		"tree":      treeSchema,
		"empty":     `{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","additionalProperties":false}`,
		"raw":       `{"type":"object"}`,
		"map":       `{"type":"object","additionalProperties":{"type":"integer","minimum":0}}`,
		"annotated": `{"type":"object","title":"T","description":"d","$comment":"c","properties":{"a":{"type":"string","examples":["x"],"deprecated":true,"readOnly":true,"x-mcp-header":"A"}}}`,
	} {
		v, err := Compile(json.RawMessage(schema))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if v.native == nil || v.full != nil {
			t.Errorf("%s: not compiled natively", name)
		}
	}
}

// TestNativeOutsideSubset: a schema with a keyword the native checker does
// not implement is compiled (and checked) by santhosh-tekuri as before.
func TestNativeOutsideSubset(t *testing.T) {
	for _, schema := range []string{
		`{"type":"object","patternProperties":{"^x":{"type":"string"}}}`,
		`{"type":"object","properties":{"d":{"type":"string","format":"duration"}}}`,
		`{"$schema":"http://json-schema.org/draft-07/schema#","type":"object"}`,
		`{"type":"object","properties":{"a":{"$ref":"#/properties/b"},"b":{"type":"string"}}}`,
		`{"type":"object","$defs":{"A":{"$ref":"#/$defs/A"}},"properties":{"a":{"$ref":"#/$defs/A"}}}`,
	} {
		v, err := Compile(json.RawMessage(schema))
		if err != nil {
			t.Fatalf("%s: %v", schema, err)
		}
		if v.native != nil {
			t.Errorf("%s: compiled natively", schema)
		}
	}
	if _, err := compileNative(map[string]any{"patternProperties": map[string]any{}}); err == nil {
		t.Fatal("patternProperties compiled")
	} else if oe := (*outsideError)(nil); !errors.As(err, &oe) || oe.Keyword != "patternProperties" || oe.Pointer != "/patternProperties" {
		t.Errorf("outside error %v", err)
	}
}

// TestNativeAgreesWithSanthosh: cases of the differential fuzz target,
// fixed: defaults (a required property with a default is satisfied; an
// inserted default is validated), nulls of optional properties, every
// problem with its pointer and message.
func TestNativeAgreesWithSanthosh(t *testing.T) {
	cases := []struct{ schema, instance string }{
		{weatherSchema, `{"location":"Paris"}`},
		{weatherSchema, `{"location":"Paris","units":null,"days":null}`},
		{weatherSchema, `{"units":"rankine","days":0,"zip":"1234","email":"x","since":"yesterday","raw":"!","at":{"lat":91},"tags":[1,"a",null]}`},
		{weatherSchema, `{"location":"Oslo","days":14.0,"at":{"lat":-90,"lon":180.5},"extra":null}`},
		{weatherSchema, `{"location":"Oslo","days":1e1,"limit":2.5}`},
		{weatherSchema, `{"location":null}`},
		{weatherSchema, `[]`},
		{treeSchema, `{"root":{"name":"a","children":[{"name":"b","size":2.0,"children":[{"name":"","size":"x"}]}]}}`},
		{`{"type":"object","required":["a"],"properties":{"a":{"type":"string","default":5}}}`, `{}`},
		{`{"type":"object","required":["a"],"properties":{"a":{"type":"integer","default":5}}}`, `{}`},
		{`{"type":"object","properties":{"a":{"type":"object","default":{},"properties":{"b":{"default":[1,1],"uniqueItems":true}}}}}`, `{}`},
		{`{"type":"object","minProperties":2,"maxProperties":2,"properties":{"a":{"type":"string"},"b":{"default":1}}}`, `{"a":null}`},
		{`{"type":"object","additionalProperties":false,"properties":{"a/b":{"const":"x"},"c~":{"enum":[1,"1",null]}}}`, `{"a/b":"y","c~":1.0,"d":1,"e~/":2}`},
		{`{"type":"object","properties":{"n":{"multipleOf":0.1,"exclusiveMinimum":0,"exclusiveMaximum":1}}}`, `{"n":0.30000000000000004}`},
		{`{"type":"object","properties":{"n":{"anyOf":[{"type":"string"},{"type":"integer","minimum":10}]},"o":{"oneOf":[{"type":"number"},{"type":"integer"}]},"p":{"not":{"type":"null"}},"q":{"allOf":[{"minLength":2},{"maxLength":1}]}}}`, `{"n":5,"o":1,"p":null,"q":"ab"}`},
		{`{"type":"object","properties":{"s":{"type":"string","minLength":2,"maxLength":3}}}`, `{"s":"é😀\u0000x"}`},
		{`{"type":"object","properties":{"t":{"type":"array","minItems":1,"maxItems":2,"items":{"type":"integer"}}}}`, `{"t":[1,2.5,"3"]}`},
		{`{"type":"object","properties":{"f":{"type":"string","format":"date-time"},"g":{"format":"ipv6"},"h":{"format":"email"}}}`, `{"f":"2026-07-28T23:59:60Z","g":"::1%eth0","h":"a@b"}`},
		{`{"type":"object","properties":{"big":{"type":"number","minimum":1}}}`, `{"big":12345678901234567890123}`},
	}
	for _, c := range cases {
		if !compareWithSanthosh(t, []byte(c.schema), []byte(c.instance)) {
			t.Errorf("%s: not checked natively", c.schema)
		}
	}
}
