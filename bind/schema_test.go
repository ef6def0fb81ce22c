package bind

import (
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/argschema"
	"github.com/mcpgen/mcpgen/internal/schemapattern"
)

func decodeSchema(t *testing.T, s Schema) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(s.JSON), &m); err != nil {
		t.Fatalf("schema is not JSON: %v\n%s", err, s.JSON)
	}
	return m
}

func at(m map[string]any, path ...string) any {
	var cur any = m
	for _, p := range path {
		obj, _ := cur.(map[string]any)
		cur = obj[p]
	}
	return cur
}

// TestDerivedSchemas: the mappings of issue 14 item 2, derived at build
// time from go/types.
func TestDerivedSchemas(t *testing.T) {
	pkg, err := loadFixture(t, "typemap")
	if err != nil {
		t.Fatal(err)
	}
	in := decodeSchema(t, pkg.Tools[0].InputSchema)
	checks := []struct {
		path []string
		want any
	}{
		{[]string{"$schema"}, SchemaVersion},
		{[]string{"type"}, "object"},
		{[]string{"required"}, []any{"location"}},
		{[]string{"properties", "location", "description"}, "City name, address, or lat,long"},
		{[]string{"properties", "units", "enum"}, []any{"metric", "imperial", "kelvin"}},
		{[]string{"properties", "units", "default"}, "metric"},
		{[]string{"properties", "other", "items", "enum"}, []any{"metric", "imperial", "kelvin"}},
		{[]string{"properties", "tree", "$ref"}, "#/$defs/Node"},
		{[]string{"$defs", "Node", "properties", "children", "items", "$ref"}, "#/$defs/Node"},
		{[]string{"$defs", "Node", "properties", "parent", "$ref"}, "#/$defs/Node"},
		{[]string{"$defs", "Node", "required"}, []any{"name"}},
		{[]string{"properties", "when", "format"}, "date-time"},
		{[]string{"properties", "blob", "contentEncoding"}, "base64"},
		{[]string{"properties", "days", "default"}, 3.0},
		{[]string{"properties", "tags", "uniqueItems"}, true},
		{[]string{"properties", "tags", "items", "minLength"}, 1.0},
		{[]string{"properties", "escaped", "description"}, "a, b"},
		// The canonical text of a Go int, as the arguments decoder reads
		// map keys: "01" or "+1" would fill the entry "1" names.
		{[]string{"properties", "counts", "propertyNames", "pattern"}, schemapattern.IntegerKey(64, true)},
		{[]string{"properties", "counts", "additionalProperties", "type"}, "string"},
	}
	for _, c := range checks {
		if got := at(in, c.path...); !reflect.DeepEqual(got, c.want) {
			t.Errorf("inputSchema %v = %#v, want %#v", c.path, got, c.want)
		}
	}
	out := decodeSchema(t, pkg.Tools[0].OutputSchema)
	if got := at(out, "required"); !reflect.DeepEqual(got, []any{"location", "notes"}) {
		t.Errorf("outputSchema required = %v; fields without omitempty are required", got)
	}
	if got := at(out, "properties", "notes", "anyOf"); got == nil {
		t.Errorf("outputSchema notes = %v; a nil slice without omitempty encodes as null", at(out, "properties", "notes"))
	}
	self := decodeSchema(t, pkg.Tools[1].InputSchema)
	if got := at(self, "properties", "children", "items", "$ref"); got != "#" {
		t.Errorf("recursive root: children items $ref = %v, want #", got)
	}
}

// TestSelfEncodingTypes: a type that encodes itself (json.Marshaler,
// encoding.TextMarshaler, their Unmarshalers) in an argument or result
// struct is described as encoding/json reads it, as argschema does at run
// time: true (any JSON) for the JSON methods, a string for the text ones; the tool is
// bound, and its outputSchema is not "from the type".
func TestSelfEncodingTypes(t *testing.T) {
	pkg, err := loadFixture(t, "selfencode")
	if err != nil {
		t.Fatal(err)
	}
	if len(pkg.Tools) != 2 || pkg.Tools[0].Name != "ping" || pkg.Tools[1].Name != "plain" {
		t.Fatalf("bound %d tools: %+v", len(pkg.Tools), pkg.Tools)
	}
	in := decodeSchema(t, pkg.Tools[0].InputSchema)
	str := map[string]any{"type": "string"}
	for prop, want := range map[string]any{
		"host":   map[string]any{"type": "string", "description": "IP address"},
		"raw":    true,
		"temp":   true,
		"color":  str,
		"big":    true,
		"ip":     str,
		"level":  true,
		"hosts":  map[string]any{"type": "array", "items": str},
		"nested": map[string]any{"type": "object", "properties": map[string]any{"addr": str}},
	} {
		if got := at(in, "properties", prop); !reflect.DeepEqual(got, want) {
			t.Errorf("inputSchema property %s = %#v, want %#v", prop, got, want)
		}
	}
	// A map key of an integer type with its own UnmarshalText (Color, as
	// slog.Level or a named enum) is read by that method, from the text its
	// MarshalText writes ("red"), not as a Go int's digits: the schema
	// must not hold its members to the canonical integer pattern, which
	// refused every key encoding/json writes and the decoder reads.
	if got, want := at(in, "properties", "shades"), map[string]any{"type": "object", "additionalProperties": str}; !reflect.DeepEqual(got, want) {
		t.Errorf("inputSchema property shades (map[Color]string) = %#v, want %#v", got, want)
	}
	if got := at(in, "required"); !reflect.DeepEqual(got, []any{"host"}) {
		t.Errorf("required = %v", got)
	}
	out := pkg.Tools[0].OutputSchema
	if got := at(decodeSchema(t, out), "properties", "host"); !reflect.DeepEqual(got, str) {
		t.Errorf("outputSchema host = %#v", got)
	}
	if out.FromType {
		t.Error("outputSchema.FromType is set although netip.Addr marshals itself")
	}
	if got := at(decodeSchema(t, pkg.Tools[1].InputSchema), "properties", "addr"); !reflect.DeepEqual(got, str) {
		t.Errorf("plain addr = %#v", got)
	}
}

// TestNoDirectiveDropped: whenever Load succeeds, every //mcp: directive
// of every fixture (outside generated files) is bound; a directive is
// never left out without an error.
func TestNoDirectiveDropped(t *testing.T) {
	dirs, err := os.ReadDir(filepath.Join("testdata", "fixture"))
	if err != nil {
		t.Fatal(err)
	}
	loaded := 0
	for _, dir := range dirs {
		if !dir.IsDir() {
			continue
		}
		pkg, err := loadFixture(t, dir.Name())
		if err != nil {
			continue // an error fixture: its errors are checked elsewhere
		}
		loaded++
		want := countDirectives(t, filepath.Join("testdata", "fixture", dir.Name()))
		if got := len(pkg.Tools) + len(pkg.Prompts) + len(pkg.Resources) + len(pkg.Templates); got != want {
			t.Errorf("fixture %s: %d directives, %d bound, no error", dir.Name(), want, got)
		}
	}
	if loaded < 3 {
		t.Errorf("only %d fixtures loaded", loaded)
	}
}

// countDirectives counts the //mcp: directives of the hand-written files of dir.
func countDirectives(t *testing.T, dir string) int {
	t.Helper()
	fset := token.NewFileSet()
	files, _ := filepath.Glob(filepath.Join(dir, "*.go"))
	n := 0
	for _, name := range files {
		f, err := parser.ParseFile(fset, name, nil, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		if ast.IsGenerated(f) {
			continue
		}
		for _, cg := range f.Comments {
			for _, c := range cg.List {
				if strings.HasPrefix(c.Text, "//mcp:") {
					n++
				}
			}
		}
	}
	return n
}

// jsonNumberArgs and jsonNumberResult are the types of the jsonnumber
// fixture, reflected on by argschema.
type jsonNumberArgs struct {
	N json.Number            `json:"n" jsonschema:"required,minimum=0"`
	P *json.Number           `json:"p,omitempty"`
	L []json.Number          `json:"l,omitempty"`
	M map[string]json.Number `json:"m,omitempty"`
	Q json.Number            `json:"q,omitempty,string"`
	R *json.Number           `json:"r,omitempty,string"`
}

// TestJSONNumberSchema: encoding/json writes a json.Number as the JSON
// number it holds (an empty one as 0) and reads one from a JSON number,
// so `mcpgen tools` describes a json.Number field (behind a pointer, in
// a slice or a map too) as {"type":"number"}, and one with the ",string"
// tag option, which encoding/json quotes, as a string; argschema derives
// the same input schema at run time.
func TestJSONNumberSchema(t *testing.T) {
	pkg, err := loadFixture(t, "jsonnumber")
	if err != nil {
		t.Fatal(err)
	}
	num := map[string]any{"type": "number"}
	numText := map[string]any{"type": "string", "pattern": schemapattern.Number}
	in := decodeSchema(t, pkg.Tools[0].InputSchema)
	for prop, want := range map[string]any{
		"n": map[string]any{"type": "number", "minimum": 0.0},
		"p": num,
		"l": map[string]any{"type": "array", "items": num},
		"m": map[string]any{"type": "object", "additionalProperties": num},
		"q": numText,
		"r": numText,
	} {
		if got := at(in, "properties", prop); !reflect.DeepEqual(got, want) {
			t.Errorf("inputSchema property %s = %#v, want %#v", prop, got, want)
		}
	}
	out := decodeSchema(t, pkg.Tools[0].OutputSchema)
	for prop, want := range map[string]any{
		"n": num,
		"p": map[string]any{"anyOf": []any{num, map[string]any{"type": "null"}}},
		"l": map[string]any{"type": "array", "items": num},
		"q": numText,
	} {
		if got := at(out, "properties", prop); !reflect.DeepEqual(got, want) {
			t.Errorf("outputSchema property %s = %#v, want %#v", prop, got, want)
		}
	}
	if !pkg.Tools[0].OutputSchema.FromType {
		t.Error("outputSchema.FromType is not set although json.Number does not marshal itself")
	}
	runtime, err := argschema.ForType[jsonNumberArgs]()
	if err != nil {
		t.Fatal(err)
	}
	var rt map[string]any
	if err := json.Unmarshal(runtime, &rt); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(in, rt) {
		t.Errorf("build-time inputSchema\n%s\ndiffers from argschema's\n%s", pkg.Tools[0].InputSchema.JSON, runtime)
	}
}
