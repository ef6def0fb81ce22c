package argschema

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
)

func weatherValidator(t testing.TB) *Validator {
	t.Helper()
	raw, err := ForType[WeatherArgs]()
	if err != nil {
		t.Fatal(err)
	}
	v, err := Compile(raw)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func decode(t *testing.T, raw json.RawMessage) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatalf("result is not a JSON object: %v: %s", err, raw)
	}
	return m
}

func TestValidateDefaultsApplied(t *testing.T) {
	v := weatherValidator(t)
	out, err := v.Validate(json.RawMessage(`{"location":"Paris"}`))
	if err != nil {
		t.Fatal(err)
	}
	got := decode(t, out)
	want := map[string]any{"location": "Paris", "units": "metric", "days": 3.0}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
	// The result decodes into the Go struct.
	var args WeatherArgs
	if err := json.Unmarshal(out, &args); err != nil || args.Units != "metric" || args.Days != 3 {
		t.Errorf("decode: %v %+v", err, args)
	}
	// Given values win over defaults, and unchanged input is returned as is.
	in := json.RawMessage(`{"location":"Oslo","units":"kelvin","days":7}`)
	out, err = v.Validate(in)
	if err != nil || string(out) != string(in) {
		t.Errorf("Validate(%s) = %s, %v", in, out, err)
	}
}

type nestedDefaults struct {
	Opts struct {
		Mode  string `json:"mode" jsonschema:"default=fast"`
		Level int    `json:"level" jsonschema:"default=2"`
	} `json:"opts"`
	Items []struct {
		Kind string `json:"kind" jsonschema:"default=plain"`
	} `json:"items"`
}

func TestValidateNestedDefaults(t *testing.T) {
	raw, err := ForType[nestedDefaults]()
	if err != nil {
		t.Fatal(err)
	}
	v, err := Compile(raw)
	if err != nil {
		t.Fatal(err)
	}
	out, err := v.Validate(json.RawMessage(`{"opts":{"level":5},"items":[{},{"kind":"x"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	got := decode(t, out)
	want := map[string]any{
		"opts":  map[string]any{"mode": "fast", "level": 5.0},
		"items": []any{map[string]any{"kind": "plain"}, map[string]any{"kind": "x"}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
	// An absent nested object is not invented.
	out, err = v.Validate(nil)
	if err != nil || string(out) != "{}" {
		t.Errorf("Validate(nil) = %s, %v", out, err)
	}
}

func TestValidateNullArgs(t *testing.T) {
	v := weatherValidator(t)
	for _, in := range []string{"", "null", "  null \n"} {
		_, err := v.Validate(json.RawMessage(in))
		var ve *ValidationError
		if !errors.As(err, &ve) || len(ve.Problems) != 1 || ve.Problems[0].Pointer != "/location" || ve.Problems[0].Keyword != "required" {
			t.Errorf("Validate(%q) = %v, want only /location required", in, err)
		}
	}
	empty, err := Compile(mustFor[struct{}](t))
	if err != nil {
		t.Fatal(err)
	}
	if out, err := empty.Validate(json.RawMessage("null")); err != nil || string(out) != "{}" {
		t.Errorf("no-arg tool with null: %s, %v", out, err)
	}
}

func mustFor[T any](t *testing.T) json.RawMessage {
	t.Helper()
	raw, err := ForType[T]()
	if err != nil {
		t.Fatal(err)
	}
	return raw
}

func TestValidateErrors(t *testing.T) {
	v := weatherValidator(t)
	cases := []struct {
		in   string
		want string
	}{
		{`{"units":"rankine"}`, `invalid arguments: /location: required property is missing; /units: value "rankine" is not one of ["metric","imperial","kelvin"]`},
		{`{"location":42}`, `invalid arguments: /location: expected string, got number`},
		{`{"location":"x","days":40}`, `invalid arguments: /days: value 40 is greater than the maximum 14`},
		{`{"location":"x","days":0}`, `invalid arguments: /days: value 0 is less than the minimum 1`},
		{`{"location":"x","days":2.5}`, `invalid arguments: /days: expected integer, got number`},
		{`{"location":"x","zip":"abc"}`, `invalid arguments: /zip: value "abc" does not match the pattern "^[0-9]{5}$"`},
		{`{"location":"x","email":"nope"}`, `invalid arguments: /email: value "nope" is not a valid email`},
		{`{"location":"x","since":"yesterday"}`, `invalid arguments: /since: value "yesterday" is not a valid date-time`},
		{`{"location":"x","at":{"lat":1}}`, `invalid arguments: /at/lon: required property is missing`},
		{`{"location":null}`, `invalid arguments: /location: expected string, got null`},
		{`{"location":"x","location":"y"}`, `invalid arguments: (root): arguments are not valid JSON: duplicate member name "location"`},
		{`[1,2]`, `invalid arguments: (root): expected object, got array`},
		{`{"location":`, `invalid arguments: (root): arguments are not valid JSON`},
	}
	for _, c := range cases {
		out, err := v.Validate(json.RawMessage(c.in))
		var ve *ValidationError
		if !errors.As(err, &ve) {
			t.Errorf("Validate(%s) = %s, %v; want *ValidationError", c.in, out, err)
			continue
		}
		if out != nil {
			t.Errorf("Validate(%s) returned output with an error", c.in)
		}
		if !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("Validate(%s):\n got %s\nwant %s…", c.in, err, c.want)
		}
	}
}

// TestValidateNullOptional: null on an optional property means absent (its
// default then applies); on a required one it is a type error (above).
func TestValidateNullOptional(t *testing.T) {
	v := weatherValidator(t)
	out, err := v.Validate(json.RawMessage(`{"location":"x","limit":null,"units":null,"at":{"lat":1,"lon":2}}`))
	if err != nil {
		t.Fatal(err)
	}
	got := decode(t, out)
	if _, ok := got["limit"]; ok || got["units"] != "metric" {
		t.Errorf("null optional properties: %s; want limit absent, units defaulted", out)
	}
}

func TestValidateExtraProperties(t *testing.T) {
	v := weatherValidator(t)
	in := json.RawMessage(`{"location":"x","units":"metric","days":1,"mood":"sunny"}`)
	if out, err := v.Validate(in); err != nil || string(out) != string(in) {
		t.Errorf("extra property on a struct: %s, %v (want accepted)", out, err)
	}
	empty, err := Compile(mustFor[struct{}](t))
	if err != nil {
		t.Fatal(err)
	}
	_, err = empty.Validate(json.RawMessage(`{"mood":"sunny"}`))
	if err == nil || err.Error() != "invalid arguments: /mood: property is not allowed" {
		t.Errorf("extra property on a no-arg tool: %v", err)
	}
}

func TestCompileErrors(t *testing.T) {
	for _, in := range []string{`{`, `{"type":12}`, `{"$ref":"https://example.com/x.json"}`} {
		if _, err := Compile(json.RawMessage(in)); err == nil {
			t.Errorf("Compile(%s) succeeded", in)
		}
	}
}

func TestValidateConcurrent(t *testing.T) {
	v := weatherValidator(t)
	done := make(chan error)
	for range 8 {
		go func() {
			var err error
			for range 100 {
				if _, err = v.Validate(json.RawMessage(`{"location":"x"}`)); err != nil {
					break
				}
			}
			done <- err
		}()
	}
	for range 8 {
		if err := <-done; err != nil {
			t.Error(err)
		}
	}
}

type twoFields struct {
	Location string `json:"location" jsonschema:"required"`
	Units    string `json:"units,omitempty" jsonschema:"enum=metric,enum=imperial"`
}

func BenchmarkValidate(b *testing.B) {
	raw, err := ForType[twoFields]()
	if err != nil {
		b.Fatal(err)
	}
	v, err := Compile(raw)
	if err != nil {
		b.Fatal(err)
	}
	in := json.RawMessage(`{"location":"Paris","units":"metric"}`)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := v.Validate(in); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkValidateDefaults(b *testing.B) {
	v := weatherValidator(b)
	in := json.RawMessage(`{"location":"Paris"}`)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := v.Validate(in); err != nil {
			b.Fatal(err)
		}
	}
}
