package argcheck

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"testing"
)

// fuzzGen turns fuzz bytes into choices; past the end every choice is 0.
type fuzzGen struct {
	b []byte
	i int
}

func (g *fuzzGen) n(k int) int {
	if g.i >= len(g.b) {
		return 0
	}
	c := g.b[g.i]
	g.i++
	return int(c) % k
}

var (
	genNames   = []string{"a", "b", "c", "a/b", "d~"}
	genNumbers = []string{"0", "1", "-1", "2", "3", "2.5", "1.0", "1e2", "100", "0.1", "-0", "14", "1e400", "0.5", "1E1", "1e10000000", "12345678901234567890"}
	genStrings = []string{"", "a", "abc", "é😀", "2026-07-28", "2026-07-28T00:00:00Z", "2026-07-28t23:59:60+00:00",
		"12:00:00Z", "23:59:60Z", "+1:00:00z", "123e4567-e89b-12d3-a456-426614174000", "1.2.3.4", "01.2.3.4", "::1",
		"fe80::1%eth0", "AAEC", "AAE", "x y", "12345", "a<b>&", "metric", "a@b.c", "\"a b\"@[1.2.3.4]", "x@[IPv6:::1]",
		".a@b", "a..b@c", "a@-b.c", "example.com", "https://[::1]:80/p?q#f", "https://[1::2::3]/", "/rel", "a\\b", "http://a b"}
	genTypes    = []string{"null", "boolean", "number", "integer", "string", "array", "object"}
	genPatterns = []string{"^a", "^[0-9]{5}$", "b", "^$", "(", "é"}
	genFormats  = []string{"date-time", "date", "time", "uuid", "ipv4", "ipv6", "email", "unknown-format", "regex", "hostname", "uri", "uri-reference", "iri", "duration"}
)

// value generates an instance or a schema value (default, const, enum).
func (g *fuzzGen) value(depth int) any {
	k := g.n(8)
	if depth > 3 && k >= 6 {
		k = 0
	}
	switch k {
	case 0:
		return json.Number(genNumbers[g.n(len(genNumbers))])
	case 1:
		return genStrings[g.n(len(genStrings))]
	case 2:
		return nil
	case 3:
		return g.n(2) == 1
	case 4, 5:
		if g.n(2) == 0 {
			return json.Number(genNumbers[g.n(6)])
		}
		return genStrings[g.n(4)]
	case 6:
		a := []any{}
		for range g.n(4) {
			a = append(a, g.value(depth+1))
		}
		return a
	}
	m := map[string]any{}
	for range g.n(5) {
		m[genNames[g.n(len(genNames))]] = g.value(depth + 1)
	}
	return m
}

// schema generates a schema of the native subset, now and then with a
// keyword value the metaschema rejects or a keyword outside the subset.
func (g *fuzzGen) schema(depth int) any {
	if depth > 4 {
		return map[string]any{"type": genTypes[g.n(len(genTypes))]}
	}
	switch g.n(12) {
	case 0:
		return true
	case 1:
		if depth > 0 {
			return false
		}
	}
	s := map[string]any{}
	keywords := 1 + g.n(4)
	if depth > 3 {
		keywords = 1
	}
	for range keywords {
		switch g.n(34) {
		case 0, 1, 2:
			s["type"] = genTypes[g.n(len(genTypes))]
		case 3:
			var ts []any
			for _, t := range genTypes {
				if g.n(3) == 0 {
					ts = append(ts, t)
				}
			}
			s["type"] = ts
		case 4, 5, 6:
			props := map[string]any{}
			for range 1 + g.n(3) {
				props[genNames[g.n(len(genNames))]] = g.schema(depth + 1)
			}
			s["properties"] = props
		case 7:
			var req []any
			for _, n := range genNames {
				if g.n(3) == 0 {
					req = append(req, n)
				}
			}
			s["required"] = req
		case 8:
			if g.n(2) == 0 {
				s["additionalProperties"] = g.n(2) == 1
			} else {
				s["additionalProperties"] = g.schema(depth + 1)
			}
		case 9:
			s["items"] = g.schema(depth + 1)
		case 10:
			var e []any
			for range g.n(4) {
				e = append(e, g.value(2))
			}
			s["enum"] = e
		case 11:
			s["const"] = g.value(2)
		case 12, 13:
			kw := []string{"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"}[g.n(5)]
			s[kw] = json.Number(genNumbers[g.n(len(genNumbers)-1)])
		case 14, 15:
			kw := []string{"minLength", "maxLength", "minItems", "maxItems", "minProperties", "maxProperties"}[g.n(6)]
			s[kw] = json.Number([]string{"0", "1", "2", "3", "1.0", "-1", "0.5"}[g.n(7)])
		case 16:
			s["uniqueItems"] = g.n(2) == 1
		case 17:
			s["pattern"] = genPatterns[g.n(len(genPatterns))]
		case 18:
			s["format"] = genFormats[g.n(len(genFormats))]
		case 19:
			s["contentEncoding"] = []string{"base64", "base32"}[g.n(2)]
		case 20, 21:
			s["$ref"] = []string{"#", "#/$defs/D", "#/$defs/E", "#/properties/a"}[g.n(4)]
		case 22:
			s["not"] = g.schema(depth + 1)
		case 23, 24, 25:
			kw := []string{"allOf", "anyOf", "oneOf"}[g.n(3)]
			var list []any
			for range 1 + g.n(3) {
				list = append(list, g.schema(depth+1))
			}
			s[kw] = list
		case 26, 27:
			s["default"] = g.value(2)
		case 28:
			s["description"] = "text"
			s["title"] = g.value(3) // not always a string
		case 29:
			s["examples"] = []any{g.value(3)}
		case 30:
			s["deprecated"] = true
		case 31:
			s["x-mcp-header"] = "X"
		case 32:
			s[[]string{"patternProperties", "if", "prefixItems", "$id", "dependentRequired"}[g.n(5)]] = map[string]any{}
		case 33:
			s["readOnly"] = g.n(2) == 1
		}
	}
	if depth == 0 && g.n(2) == 0 {
		s["$defs"] = map[string]any{"D": g.schema(depth + 1)}
		if g.n(3) == 0 {
			s["$schema"] = schemaDraft2020
		}
	}
	if depth == 0 && g.n(3) == 1 {
		// a property's shape and additionalProperties' declaring the
		// same members, with defaults: both apply to the property's value
		props, _ := s["properties"].(map[string]any)
		if props == nil {
			props = map[string]any{}
			s["properties"] = props
		}
		props[genNames[g.n(2)]] = g.memberShape(0)
		s["additionalProperties"] = g.memberShape(0)
	}
	return s
}

// memberShape generates an object schema whose properties are "a" and
// "b", now and then with a default, a type without null (a null means
// absent), a maximum or an object shape of their own.
func (g *fuzzGen) memberShape(depth int) any {
	props := map[string]any{}
	for range 1 + g.n(3) {
		name := genNames[g.n(2)]
		if depth < 2 && g.n(4) == 0 {
			props[name] = g.memberShape(depth + 1)
			continue
		}
		p := map[string]any{}
		switch g.n(3) {
		case 0:
			p["type"] = "integer"
		case 1:
			p["type"] = []any{"integer", "null"}
		}
		if g.n(3) != 0 {
			p["default"] = g.value(3)
		}
		if g.n(2) == 1 {
			p["maximum"] = json.Number("10")
		}
		props[name] = p
	}
	m := map[string]any{"type": "object", "properties": props}
	if g.n(3) == 0 {
		m["default"] = g.value(2)
	}
	if g.n(4) == 0 {
		m["required"] = []any{genNames[g.n(2)]}
	}
	return m
}

// FuzzNativeAgreesWithSanthosh is the native checker's differential test:
// a random schema of (and around) the native subset and a random instance;
// Compile must succeed exactly when santhosh-tekuri compiles the schema,
// and for a schema in the subset Validate must give the same verdict, the
// same output and the same problems as santhosh-tekuri's Validate; and
// the decoder must deliver what was validated (as json.Unmarshal of it).
func FuzzNativeAgreesWithSanthosh(f *testing.F) {
	f.Add([]byte{4, 0, 1, 0, 7, 0}, []byte{7, 2, 0, 1, 1})
	f.Add([]byte{2, 3, 4, 12, 0, 0, 3}, []byte{0, 5})
	f.Add([]byte{2, 1, 6, 1, 1, 7, 3}, []byte{7, 3, 1, 1, 3, 0})
	f.Add([]byte{2, 4, 20, 1, 0, 0, 7, 6, 6, 12, 0, 4}, []byte{7, 2, 0, 7, 1, 0, 6, 0, 0})
	f.Fuzz(func(t *testing.T, schemaBytes, instanceBytes []byte) {
		g := &fuzzGen{b: schemaBytes}
		schema, err := json.Marshal(g.schema(0))
		if err != nil {
			t.Fatal(err)
		}
		gi := &fuzzGen{b: instanceBytes}
		instance, err := json.Marshal(gi.value(0))
		if err != nil {
			t.Fatal(err)
		}
		if len(instanceBytes) > 0 && instanceBytes[0] == 255 {
			instance = instanceBytes[1:] // raw bytes now and then: the parsers agree too
		}
		if compareWithSanthosh(t, schema, instance) {
			// the decoder delivers what was validated, natively or not
			for _, native := range []bool{true, false} {
				v, err := compile(schema, native)
				if err != nil {
					t.Fatal(err)
				}
				if _, _, panicked := validateRecovering(v, instance); panicked {
					continue // santhosh-tekuri on 1e10000000, as above
				}
				sameDecode[map[string]any](t, v, instance)
				sameDecode[any](t, v, instance)
			}
		}
	})
}

// compareWithSanthosh reports whether the schema was checked natively.
func compareWithSanthosh(t *testing.T, schema, instance []byte) bool {
	t.Helper()
	ref, rerr, panicked := compileRecovering(schema, false)
	if panicked {
		return false // santhosh-tekuri panics on some numbers out of big.Rat's range (1e10000000)
	}
	native, nerr, _ := compileRecovering(schema, true)
	if (nerr == nil) != (rerr == nil) {
		t.Fatalf("schema %s: Compile error %v, santhosh-tekuri's %v", schema, nerr, rerr)
	}
	if nerr != nil || native.native == nil {
		return false
	}
	nout, nerrV := native.Validate(instance)
	rout, rerrV, panicked := validateRecovering(ref, instance)
	if panicked {
		// santhosh-tekuri panics on a number out of big.Rat's range
		// (1e10000000) under a numeric keyword; the native checker fails
		// that keyword instead ("out of range"), so the verdict under "not"
		// is acceptance: nothing to compare with.
		return true
	}
	if (nerrV == nil) != (rerrV == nil) {
		t.Fatalf("schema %s, instance %s: native %v, santhosh-tekuri %v", schema, instance, nerrV, rerrV)
	}
	if nerrV != nil {
		if !reflect.DeepEqual(nerrV, rerrV) {
			t.Fatalf("schema %s, instance %s:\nnative           %v\nsanthosh-tekuri  %v", schema, instance, nerrV, rerrV)
		}
		return true
	}
	if !bytes.Equal(nout, rout) {
		t.Fatalf("schema %s, instance %s: native output %s, santhosh-tekuri path %s", schema, instance, nout, rout)
	}
	return true
}

func compileRecovering(schema []byte, native bool) (v *Validator, err error, panicked bool) {
	defer func() {
		if r := recover(); r != nil {
			panicked = true
			err = fmt.Errorf("panic: %v", r)
		}
	}()
	v, err = compile(schema, native)
	return v, err, false
}

func validateRecovering(v *Validator, instance []byte) (out json.RawMessage, err error, panicked bool) {
	defer func() {
		if r := recover(); r != nil {
			panicked = true
			err = fmt.Errorf("panic: %v", r)
		}
	}()
	out, err = v.Validate(instance)
	return out, err, false
}
