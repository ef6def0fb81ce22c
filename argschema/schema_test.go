package argschema

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/invopop/jsonschema"
)

type Coordinates struct {
	Lat float64 `json:"lat" jsonschema:"required,minimum=-90,maximum=90"`
	Lon float64 `json:"lon" jsonschema:"required,minimum=-180,maximum=180"`
}

type WeatherArgs struct {
	Location string       `json:"location" jsonschema:"required,description=City name or zip code"`
	Units    string       `json:"units,omitempty" jsonschema:"enum=metric,enum=imperial,enum=kelvin,default=metric"`
	Days     int          `json:"days,omitempty" jsonschema:"minimum=1,maximum=14,default=3"`
	Zip      string       `json:"zip,omitempty" jsonschema:"pattern=^[0-9]{5}$"`
	Email    string       `json:"email,omitempty" jsonschema:"format=email"`
	Since    time.Time    `json:"since,omitzero"`
	Raw      []byte       `json:"raw,omitempty"`
	At       Coordinates  `json:"at,omitzero"`
	Tags     []string     `json:"tags,omitempty" jsonschema:"description=Free-form labels\\, comma-safe"`
	Limit    *int         `json:"limit,omitempty" jsonschema:"nullable"`
	Extra    *Coordinates `json:"extra,omitempty"`
	Hidden   string       `json:"-"`
	//lint:ignore U1000 an unexported field, which the schema must leave out
	internal string
}

func schemaMap(t *testing.T, raw json.RawMessage) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatalf("schema is not JSON: %v\n%s", err, raw)
	}
	return m
}

func prop(t *testing.T, s map[string]any, path ...string) map[string]any {
	t.Helper()
	cur := s
	for _, p := range path {
		props, _ := cur["properties"].(map[string]any)
		next, ok := props[p].(map[string]any)
		if !ok {
			t.Fatalf("property %q missing in %v", p, cur)
		}
		cur = next
	}
	return cur
}

func TestForWeatherArgs(t *testing.T) {
	raw, err := ForType[WeatherArgs]()
	if err != nil {
		t.Fatal(err)
	}
	text := string(raw)
	for _, banned := range []string{`"$ref"`, `"$defs"`, `"$id"`, `"null"`, `"additionalProperties"`, `"oneOf"`, "Hidden", "internal"} {
		if strings.Contains(text, banned) {
			t.Errorf("schema contains %s:\n%s", banned, text)
		}
	}
	s := schemaMap(t, raw)
	if s["$schema"] != SchemaVersion || s["type"] != "object" {
		t.Errorf("root: $schema=%v type=%v", s["$schema"], s["type"])
	}
	if got := s["required"]; !reflect.DeepEqual(got, []any{"location"}) {
		t.Errorf("required = %v, want [location]", got)
	}
	checks := []struct {
		path []string
		want map[string]any
	}{
		{[]string{"location"}, map[string]any{"type": "string", "description": "City name or zip code"}},
		{[]string{"units"}, map[string]any{"type": "string", "enum": []any{"metric", "imperial", "kelvin"}, "default": "metric"}},
		{[]string{"days"}, map[string]any{"type": "integer", "minimum": 1.0, "maximum": 14.0, "default": 3.0}},
		{[]string{"zip"}, map[string]any{"type": "string", "pattern": "^[0-9]{5}$"}},
		{[]string{"email"}, map[string]any{"type": "string", "format": "email"}},
		{[]string{"since"}, map[string]any{"type": "string", "format": "date-time"}},
		{[]string{"raw"}, map[string]any{"type": "string", "contentEncoding": "base64"}},
		{[]string{"tags"}, map[string]any{"type": "array", "items": map[string]any{"type": "string"}, "description": "Free-form labels, comma-safe"}},
		{[]string{"limit"}, map[string]any{"type": "integer"}},
		{[]string{"at", "lat"}, map[string]any{"type": "number", "minimum": -90.0, "maximum": 90.0}},
		{[]string{"extra", "lon"}, map[string]any{"type": "number", "minimum": -180.0, "maximum": 180.0}},
	}
	for _, c := range checks {
		if got := prop(t, s, c.path...); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%v = %v, want %v", c.path, got, c.want)
		}
	}
	at := prop(t, s, "at")
	if at["type"] != "object" || !reflect.DeepEqual(at["required"], []any{"lat", "lon"}) {
		t.Errorf("nested struct: %v", at)
	}
	// Property order follows field order.
	if i, j := strings.Index(text, `"location"`), strings.Index(text, `"units"`); i < 0 || j < i {
		t.Errorf("properties not in field order:\n%s", text)
	}
}

func TestForPointerAndMap(t *testing.T) {
	a, err := For(reflect.TypeFor[*WeatherArgs]())
	if err != nil {
		t.Fatal(err)
	}
	b, _ := ForType[WeatherArgs]()
	if string(a) != string(b) {
		t.Errorf("pointer schema differs:\n%s\n%s", a, b)
	}
	m, err := ForType[map[string]int]()
	if err != nil {
		t.Fatal(err)
	}
	if s := schemaMap(t, m); s["type"] != "object" || s["additionalProperties"].(map[string]any)["type"] != "integer" {
		t.Errorf("map schema: %s", m)
	}
}

func TestForEmptyStruct(t *testing.T) {
	raw, err := ForType[struct{}]()
	if err != nil {
		t.Fatal(err)
	}
	s := schemaMap(t, raw)
	if s["type"] != "object" || s["additionalProperties"] != false {
		t.Errorf("empty struct schema: %s", raw)
	}
}

type node struct {
	Name     string  `json:"name"`
	Children []*node `json:"children"`
}

type badField struct {
	C chan int `json:"c"`
}

func TestForErrors(t *testing.T) {
	cases := []struct {
		t    reflect.Type
		want string
	}{
		{reflect.TypeFor[string](), "argument type string is not a struct"},
		{reflect.TypeFor[[]WeatherArgs](), "argument type []argschema.WeatherArgs is not a struct"},
		{reflect.TypeFor[*int](), "argument type int is not a struct"},
		{reflect.TypeFor[time.Time](), "argument type time.Time is not a struct"},
		{reflect.TypeFor[node](), "recursive type argschema.node"},
		{reflect.TypeFor[badField](), "argschema.badField.C has type chan int"},
		{nil, "nil type"},
	}
	for _, c := range cases {
		_, err := For(c.t)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("For(%v) error = %v, want containing %q", c.t, err, c.want)
		}
	}
}

func TestForDeterministic(t *testing.T) {
	a, _ := ForType[WeatherArgs]()
	for range 20 {
		b, _ := ForType[WeatherArgs]()
		if string(a) != string(b) {
			t.Fatalf("schema output not deterministic:\n%s\n%s", a, b)
		}
	}
}

// extendedDefs keeps $defs that its JSONSchemaExtend hook adds.
type extendedDefs struct {
	Inner string `json:"inner"`
}

func (extendedDefs) JSONSchemaExtend(s *jsonschema.Schema) {
	s.Definitions = jsonschema.Definitions{"inner": {Type: "object"}}
	s.Properties.Set("nested", &jsonschema.Schema{Ref: "#/$defs/inner"})
}

// TestUserDefinitionsSurvive: a user's own $defs (JSONSchemaExtend) must not
// be dropped, or their $refs would dangle.
func TestUserDefinitionsSurvive(t *testing.T) {
	out, err := ForType[extendedDefs]()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(out), `"$defs":{"inner"`) {
		t.Fatalf("$defs dropped: %s", out)
	}
	if _, err := Compile(out); err != nil {
		t.Fatalf("schema with user $defs does not compile: %v", err)
	}
}
