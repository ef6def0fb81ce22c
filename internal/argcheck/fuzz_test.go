package argcheck

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// fuzzArgSeeds are tool arguments: the spec's (examples/CallToolRequest*)
// and edge cases of the fast parser.
var fuzzArgSeeds = []string{
	`{"location":"New York"}`, `{"city":"Micropolis"}`,
	`{"location":"Paris","units":"metric"}`, `{"location":"Oslo","units":"rankine"}`,
	`{"location":"Paris","days":3,"at":{"lat":48.85,"lon":2.35}}`, `{"days":1e1}`, `{"days":-0.0}`,
	`{"location":"\u00e9\ud83d\ude00","zip":"12345"}`, "{\"location\":\"\xff\"}", `{"location":"a","location":"b"}`,
	`{"since":"2026-07-28T00:00:00Z","email":"a@b.c","raw":"AAEC"}`, `{"tags":["a",1,null,true,{}]}`,
	`{}`, `null`, ``, `[]`, `"x"`, `{"a":}`, `{"a":1}x`, `{"a":01}`, ` { "location" : "x" } `,
}

// weatherSchema is argschema.ForType of argschema's test WeatherArgs.
const weatherSchema = `{"$schema":"https://json-schema.org/draft/2020-12/schema","properties":{"location":{"type":"string","description":"City name or zip code"},"units":{"type":"string","enum":["metric","imperial","kelvin"],"default":"metric"},"days":{"type":"integer","maximum":14,"minimum":1,"default":3},"zip":{"type":"string","pattern":"^[0-9]{5}$"},"email":{"type":"string","format":"email"},"since":{"type":"string","format":"date-time"},"raw":{"type":"string","contentEncoding":"base64"},"at":{"properties":{"lat":{"type":"number","maximum":90,"minimum":-90},"lon":{"type":"number","maximum":180,"minimum":-180}},"type":"object","required":["lat","lon"]},"tags":{"items":{"type":"string"},"type":"array","description":"Free-form labels, comma-safe"},"limit":{"type":"integer"},"extra":{"properties":{"lat":{"type":"number","maximum":90,"minimum":-90},"lon":{"type":"number","maximum":180,"minimum":-180}},"type":"object","required":["lat","lon"]}},"type":"object","required":["location"]}`

// fuzzSchemas are compiled once: WeatherArgs (defaults, enum, pattern,
// format, nested object) and the spec's inputSchemas when MCPGEN_SPEC_DIR is set.
func fuzzSchemas(f *testing.F) []*Validator {
	schemas := []json.RawMessage{json.RawMessage(weatherSchema), json.RawMessage(`{"type":"object"}`)}
	if dir := os.Getenv("MCPGEN_SPEC_DIR"); dir != "" {
		files, _ := filepath.Glob(filepath.Join(dir, "schema", "2026-07-28", "examples", "*", "*.json"))
		for _, file := range files {
			data, err := os.ReadFile(file)
			if err != nil {
				f.Fatal(err)
			}
			schemas = append(schemas, specInputSchemas(data)...)
			if bytes.Contains(data, []byte(`"arguments"`)) {
				var m struct {
					Arguments json.RawMessage `json:"arguments"`
					Params    struct {
						Arguments json.RawMessage `json:"arguments"`
					} `json:"params"`
				}
				if json.Unmarshal(data, &m) == nil {
					for _, a := range []json.RawMessage{m.Arguments, m.Params.Arguments} {
						if a != nil {
							f.Add(uint8(0), []byte(a))
						}
					}
				}
			}
		}
	}
	var vs []*Validator
	for _, s := range schemas {
		v, err := Compile(s)
		if err != nil {
			continue // a spec example that is not a complete schema on its own
		}
		vs = append(vs, v)
	}
	return vs
}

// specInputSchemas finds every "inputSchema" object in an example document.
func specInputSchemas(data []byte) []json.RawMessage {
	var out []json.RawMessage
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			for k, e := range v {
				if k == "inputSchema" {
					if b, err := json.Marshal(e); err == nil {
						out = append(out, b)
					}
				}
				walk(e)
			}
		case []any:
			for _, e := range v {
				walk(e)
			}
		}
	}
	var doc any
	if json.Unmarshal(data, &doc) == nil {
		walk(doc)
	}
	return out
}

// FuzzValidate decodes and validates arbitrary arguments against the fuzz
// schemas. It checks that Validate never panics; that the parser accepts
// exactly what jsonschema.UnmarshalJSON accepts (except repeated member
// names, which it rejects) and builds the same tree; that
// an accepted result is a JSON object that validates again unchanged
// (defaults are applied once); and that a rejection is a *ValidationError
// with at least one problem.
func FuzzValidate(f *testing.F) {
	for _, s := range fuzzArgSeeds {
		f.Add(uint8(0), []byte(s))
		f.Add(uint8(1), []byte(s))
	}
	validators := fuzzSchemas(f)
	f.Fuzz(func(t *testing.T, which uint8, args []byte) {
		trimmed := bytes.Trim(args, " \t\r\n")
		fast, perr := parse(trimmed)
		slow, err := jsonschema.UnmarshalJSON(bytes.NewReader(trimmed))
		switch {
		case perr == nil && err != nil:
			t.Fatalf("parse accepted %q, UnmarshalJSON: %v", args, err)
		case perr == nil && !reflect.DeepEqual(fast, slow):
			t.Fatalf("parse(%q) = %#v, UnmarshalJSON = %#v", args, fast, slow)
		case perr != nil && err == nil && !perr.Repeated && !strings.Contains(perr.Error(), "nested deeper"):
			t.Fatalf("parse rejected %q (%s), UnmarshalJSON accepts it", args, perr)
		}
		v := validators[int(which)%len(validators)]
		out, err := v.Validate(args)
		if err != nil {
			ve, ok := err.(*ValidationError)
			if !ok || len(ve.Problems) == 0 || ve.Error() == "" {
				t.Fatalf("Validate(%q): error %T %v", args, err, err)
			}
			return
		}
		var obj map[string]json.RawMessage
		if err := json.Unmarshal(out, &obj); err != nil {
			t.Fatalf("Validate(%q) = %q, not a JSON object: %v", args, out, err)
		}
		again, err := v.Validate(out)
		if err != nil {
			t.Fatalf("Validate(%q) = %q, which does not validate again: %v", args, out, err)
		}
		if !bytes.Equal(again, out) {
			t.Fatalf("defaults applied twice: %q then %q", out, again)
		}
	})
}

// TestValidateNonJSONWhitespace: only JSON whitespace may surround the
// arguments (found by FuzzValidate: "\v{}" used to be returned as valid).
func TestValidateNonJSONWhitespace(t *testing.T) {
	v, err := Compile(json.RawMessage(`{"type":"object"}`))
	if err != nil {
		t.Fatal(err)
	}
	for _, in := range []string{"\v{}", "{}\f", "\u00a0{}"} {
		if out, err := v.Validate(json.RawMessage(in)); err == nil {
			t.Errorf("Validate(%q) = %q, want a JSON error", in, out)
		}
	}
	if out, err := v.Validate(json.RawMessage(" \t{}\r\n")); err != nil || !json.Valid(out) {
		t.Errorf("JSON whitespace: %q, %v", out, err)
	}
}
