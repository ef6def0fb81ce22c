package schema

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// loadConstructs loads testdata/constructs/2030-01-01/schema.json, a small
// schema with one of every construct the loader understands.
func loadConstructs(t *testing.T) *Model {
	t.Helper()
	m, err := Load(filepath.Join("testdata", "constructs", "2030-01-01", "schema.json"), Options{})
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	return m
}

// refText renders a type expression for comparisons.
func refText(r *Ref) string {
	var s string
	switch {
	case r == nil:
		return "<nil>"
	case r.Named != nil:
		s = r.Named.Name
	case r.Array != nil:
		s = "[]" + refText(r.Array)
	case r.Map != nil:
		s = "map[" + refText(r.Map) + "]"
	case r.Any:
		s = "any"
	default:
		s = string(r.Prim)
	}
	if r.Nullable {
		s += "?"
	}
	return s
}

func mustType(t *testing.T, m *Model, name string) *Type {
	t.Helper()
	ty := m.Type(name)
	if ty == nil {
		t.Fatalf("no type %s", name)
	}
	return ty
}

func mustField(t *testing.T, ty *Type, name string) *Field {
	t.Helper()
	for _, f := range ty.Fields {
		if f.Name == name {
			return f
		}
	}
	t.Fatalf("%s has no field %s", ty.Name, name)
	return nil
}

func TestLoadVersionAndSource(t *testing.T) {
	m := loadConstructs(t)
	if m.Version != "2030-01-01" {
		t.Errorf("Version = %q", m.Version)
	}
	if !strings.HasSuffix(m.Source, "schema.json") {
		t.Errorf("Source = %q", m.Source)
	}
	// Without a version folder, the version comes from schema.ts.
	ts := []byte(`export const LATEST_PROTOCOL_VERSION = "2099-12-31";`)
	m2, err := LoadBytes("x.json", []byte(`{"$defs":{"A":{"type":"string"}}}`), Options{TypeScript: ts})
	if err != nil || m2.Version != "2099-12-31" {
		t.Errorf("version from schema.ts = %v, %v", m2, err)
	}
	// Neither: an error that says what to do.
	_, err = LoadBytes("x.json", []byte(`{"$defs":{"A":{"type":"string"}}}`), Options{})
	if err == nil || !strings.Contains(err.Error(), "cannot tell the protocol version") {
		t.Errorf("no version: err = %v", err)
	}
	// Types are sorted by name.
	names := make([]string, len(m.Types))
	for i, ty := range m.Types {
		names[i] = ty.Name
	}
	if !slices.IsSorted(names) {
		t.Errorf("types not sorted: %v", names)
	}
}

func TestLoadNamedTypes(t *testing.T) {
	m := loadConstructs(t)
	for _, tc := range []struct {
		name, kind, elem string
		format           string
		prims            []Prim
		enum             []string
	}{
		{name: "Name", kind: "scalar", elem: "string"},
		{name: "Count", kind: "scalar", elem: "integer"},
		{name: "Ratio", kind: "scalar", elem: "number"},
		{name: "Flag", kind: "scalar", elem: "boolean"},
		{name: "Link", kind: "scalar", elem: "string", format: "uri"},
		{name: "Names", kind: "array", elem: "Name"},
		{name: "Labels", kind: "map", elem: "string"},
		{name: "Anything", kind: "any"},
		{name: "Level", kind: "enum", enum: []string{"debug", "info", "error"}},
		{name: "NameAlias", kind: "alias", elem: "Name"},
		{name: "Id", kind: "scalar union", prims: []Prim{String, Integer}},
		{name: "Widget", kind: "struct"},
		{name: "Block", kind: "union"},
		{name: "Location", kind: "union"},
		{name: "Derived", kind: "struct"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ty := mustType(t, m, tc.name)
			if got := ty.Kind.String(); got != tc.kind {
				t.Errorf("kind = %s, want %s", got, tc.kind)
			}
			if tc.elem != "" && refText(ty.Elem) != tc.elem {
				t.Errorf("elem = %s, want %s", refText(ty.Elem), tc.elem)
			}
			if ty.Format != tc.format {
				t.Errorf("format = %q, want %q", ty.Format, tc.format)
			}
			if !slices.Equal(ty.Prims, tc.prims) {
				t.Errorf("prims = %v, want %v", ty.Prims, tc.prims)
			}
			if !slices.Equal(ty.Enum, tc.enum) {
				t.Errorf("enum = %v, want %v", ty.Enum, tc.enum)
			}
			if ty.Pointer != "#/$defs/"+tc.name {
				t.Errorf("pointer = %s", ty.Pointer)
			}
		})
	}
	if d := mustType(t, m, "Name").Doc; d != "A human-readable name." {
		t.Errorf("Name doc = %q", d)
	}
	if d := mustType(t, m, "NameAlias").Doc; d != "Another name for Name." {
		t.Errorf("NameAlias doc = %q", d)
	}
}

func TestLoadFields(t *testing.T) {
	m := loadConstructs(t)
	w := mustType(t, m, "Widget")
	if w.Doc != "A widget with every kind of property." {
		t.Errorf("Widget doc = %q", w.Doc)
	}
	for _, tc := range []struct {
		name, typ   string
		required    bool
		cnst, deflt string
		format      string
		enum        []string
		doc         string
		deprecated  string
	}{
		{name: "name", typ: "string", required: true, doc: "The widget's name."},
		{name: "size", typ: "integer", deflt: "3"},
		{name: "ratio", typ: "number"},
		{name: "enabled", typ: "boolean", deflt: "true"},
		{name: "tags", typ: "[]string"},
		{name: "labels", typ: "map[integer]"},
		{name: "owner", typ: "Name"},
		{name: "kind", typ: "string", required: true, cnst: `"widget"`},
		{name: "mode", typ: "string", enum: []string{"fast", "slow"}},
		{name: "homepage", typ: "string", format: "uri"},
		{name: "created", typ: "string", format: "date-time"},
		{name: "nested", typ: "WidgetNested"},
		{name: "nullable", typ: "string?"},
		{name: "extra", typ: "any"},
		{name: "legacy", typ: "string", deprecated: "Use name.", doc: "@deprecated Use name."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := mustField(t, w, tc.name)
			if got := refText(f.Type); got != tc.typ {
				t.Errorf("type = %s, want %s", got, tc.typ)
			}
			if f.Required != tc.required {
				t.Errorf("required = %v, want %v", f.Required, tc.required)
			}
			if string(f.Const) != tc.cnst {
				t.Errorf("const = %s, want %s", f.Const, tc.cnst)
			}
			if string(f.Default) != tc.deflt {
				t.Errorf("default = %s, want %s", f.Default, tc.deflt)
			}
			if f.Format != tc.format {
				t.Errorf("format = %q, want %q", f.Format, tc.format)
			}
			if !slices.Equal(f.Enum, tc.enum) {
				t.Errorf("enum = %v, want %v", f.Enum, tc.enum)
			}
			if f.Doc != tc.doc {
				t.Errorf("doc = %q, want %q", f.Doc, tc.doc)
			}
			if f.Deprecated != tc.deprecated {
				t.Errorf("deprecated = %q, want %q", f.Deprecated, tc.deprecated)
			}
			if f.Pointer != "#/$defs/Widget/properties/"+tc.name {
				t.Errorf("pointer = %s", f.Pointer)
			}
		})
	}
	// Fields are sorted by JSON name.
	var names []string
	for _, f := range w.Fields {
		names = append(names, f.Name)
	}
	if !slices.IsSorted(names) {
		t.Errorf("fields not sorted: %v", names)
	}
	// An inline object gets a name of its own, marked Inline.
	nested := mustType(t, m, "WidgetNested")
	if !nested.Inline || nested.Kind != KindStruct || !mustField(t, nested, "a").Required {
		t.Errorf("WidgetNested = %+v", nested)
	}
	// allOf merges the properties and required lists of its parts.
	d := mustType(t, m, "Derived")
	if !mustField(t, d, "id").Required || mustField(t, d, "more").Required {
		t.Errorf("Derived fields wrong: %+v", d.Fields)
	}
}

func TestLoadOpenAndClosedObjects(t *testing.T) {
	m := loadConstructs(t)
	if c := mustType(t, m, "Closed"); !c.Closed || c.Open {
		t.Errorf("Closed: Closed=%v Open=%v", c.Closed, c.Open)
	}
	o := mustType(t, m, "Open")
	if !o.Open || o.Closed || refText(o.Extra) != "integer" {
		t.Errorf("Open: Open=%v Closed=%v Extra=%s", o.Open, o.Closed, refText(o.Extra))
	}
	if w := mustType(t, m, "Widget"); w.Open || w.Closed {
		t.Errorf("Widget: Open=%v Closed=%v", w.Open, w.Closed)
	}
}

func TestLoadUnions(t *testing.T) {
	m := loadConstructs(t)

	// By discriminator: the const `type` every member declares.
	b := mustType(t, m, "Block").Union
	if b.Discriminator != "type" {
		t.Fatalf("Block discriminator = %q", b.Discriminator)
	}
	var tags []string
	for _, mem := range b.Members {
		tags = append(tags, mem.Type.Name+"="+mem.Tag)
	}
	if want := []string{"TextBlock=text", "ImageBlock=image"}; !slices.Equal(tags, want) {
		t.Errorf("Block members = %v, want %v", tags, want)
	}

	// By shape: distinct required keys.
	l := mustType(t, m, "Location").Union
	if l.Discriminator != "" || len(l.Members) != 2 {
		t.Fatalf("Location = %+v", l)
	}
	if got := l.Members[0].Shape.Required; !slices.Equal(got, []string{"url"}) {
		t.Errorf("ByURL shape required = %v", got)
	}
	if got := l.Members[1].Shape.Required; !slices.Equal(got, []string{"path"}) {
		t.Errorf("ByPath shape required = %v", got)
	}
}

func TestLoadDeprecations(t *testing.T) {
	m := loadConstructs(t)
	for _, tc := range []struct{ typ, field, want string }{
		{"OldThing", "", "Deprecated: use NewThing."},     // description paragraph
		{"KeywordThing", "", "Deprecated by the schema."}, // deprecated: true
		{"TSThing", "", "Use Widget instead. Kept for a while."},
		{"TSThing", "y", "y is going away."},
		{"TSThing", "x", ""},
		{"Widget", "legacy", "Use name."}, // @deprecated in a description
		{"Widget", "", ""},
	} {
		ty := mustType(t, m, tc.typ)
		got := ty.Deprecated
		if tc.field != "" {
			got = mustField(t, ty, tc.field).Deprecated
		}
		if got != tc.want {
			t.Errorf("%s.%s deprecated = %q, want %q", tc.typ, tc.field, got, tc.want)
		}
	}
}

func TestLoadMethods(t *testing.T) {
	m := loadConstructs(t)
	describe := func(md *Method) string {
		name := func(t *Type) string {
			if t == nil {
				return "-"
			}
			return t.Name
		}
		return fmt.Sprintf("%s %s params=%s required=%v result=%s client=%v server=%v notification=%v",
			md.Name, md.Type.Name, name(md.Params), md.ParamsRequired, name(md.Result), md.FromClient, md.FromServer, md.Notification)
	}
	var got []string
	for _, md := range m.Requests {
		got = append(got, describe(md))
	}
	for _, md := range m.Notifications {
		got = append(got, describe(md))
	}
	want := []string{
		"ping PingRequest params=- required=false result=EmptyResult client=true server=true notification=false",
		"widgets/get GetWidgetRequest params=GetWidgetRequestParams required=true result=GetWidgetResult client=true server=false notification=false",
		"notifications/widgets/changed WidgetChangedNotification params=WidgetChangedNotificationParams required=false result=- client=false server=true notification=true",
	}
	if !slices.Equal(got, want) {
		t.Errorf("methods:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// JSONRPCRequest has a `method` property without a const: not a method.
	for _, md := range m.Requests {
		if md.Type.Name == "JSONRPCRequest" {
			t.Error("JSONRPCRequest taken for a method")
		}
	}
}

func TestLoadErrorCodes(t *testing.T) {
	m := loadConstructs(t)
	byCode := map[int64]string{}
	for _, ec := range m.ErrorCodes {
		byCode[ec.Code] = ec.Name
	}
	for code, name := range map[int64]string{
		-32050: "WidgetNotFound", // a `code` const in the schema
		-32051: "WidgetGone",     // an error constant of schema.ts
		-32601: "MethodNotFound", // JSON-RPC's own
		-32700: "ParseError",
	} {
		if byCode[code] != name {
			t.Errorf("code %d = %q, want %q", code, byCode[code], name)
		}
	}
	for i := 1; i < len(m.ErrorCodes); i++ {
		if m.ErrorCodes[i-1].Code < m.ErrorCodes[i].Code {
			t.Errorf("error codes not sorted: %v", m.ErrorCodes)
			break
		}
	}
}

func TestLoadErrors(t *testing.T) {
	for _, tc := range []struct {
		file      string
		pointer   string
		line, col int
		msg       string
	}{
		{file: "invalid-json.json", line: 3, col: 28, msg: "invalid JSON"}, // at the stray "}"
		{file: "dangling-ref.json", pointer: "#/$defs/A/properties/b/$ref", msg: `dangling $ref "#/$defs/Missing"`},
		{file: "unsupported-keyword.json", pointer: "#/$defs/A/properties/b", msg: `unsupported JSON Schema keyword "pattern"`},
		{file: "required-cycle.json", pointer: "#/$defs/A", msg: "cycle through required fields: A.b → B.a → A"},
		{file: "ambiguous-union.json", pointer: "#/$defs/U", msg: "members X and Y cannot be told apart"},
		{file: "wrong-type.json", pointer: "#/$defs/A/type", msg: `unsupported type "date"`},
		{file: "enum-wrong-type.json", pointer: "#/$defs/E/enum/0", msg: `enum value "1" is not of the declared type "integer"`},
		{file: "no-defs.json", msg: "no $defs"},
	} {
		t.Run(tc.file, func(t *testing.T) {
			path := filepath.Join("testdata", "errors", tc.file)
			m, err := Load(path, Options{Version: "test"})
			if err == nil {
				t.Fatalf("Load succeeded: %d types", len(m.Types))
			}
			list, ok := err.(ErrorList)
			if !ok || len(list) == 0 {
				t.Fatalf("err = %T %v, want an ErrorList", err, err)
			}
			e := list[0]
			if e.File != path || e.Pointer != tc.pointer || e.Line != tc.line || e.Col != tc.col || !strings.Contains(e.Msg, tc.msg) {
				t.Errorf("error = %+v\nwant file %s pointer %q line %d col %d msg containing %q", *e, path, tc.pointer, tc.line, tc.col, tc.msg)
			}
			// The printed form names the place.
			var wantPrefix string
			switch {
			case tc.line > 0:
				wantPrefix = fmt.Sprintf("%s:%d:%d: ", path, tc.line, tc.col)
			case tc.pointer != "":
				wantPrefix = path + ": " + tc.pointer + ": "
			default:
				wantPrefix = path + ": "
			}
			if !strings.HasPrefix(e.Error(), wantPrefix) {
				t.Errorf("Error() = %q, want prefix %q", e.Error(), wantPrefix)
			}
		})
	}
}

// TestLoadErrorsAreCollected checks that one load reports every problem,
// sorted by pointer, rather than stopping at the first.
func TestLoadErrorsAreCollected(t *testing.T) {
	data := []byte(`{"$defs": {
		"B": {"type": "object", "properties": {"x": {"$ref": "#/$defs/Nope"}}},
		"A": {"type": "object", "properties": {"y": {"type": "string", "minProperties": 1}}}
	}}`)
	_, err := LoadBytes("two.json", data, Options{Version: "test"})
	list, ok := err.(ErrorList)
	if !ok || len(list) != 2 {
		t.Fatalf("err = %v, want two errors", err)
	}
	if list[0].Pointer != "#/$defs/A/properties/y" || list[1].Pointer != "#/$defs/B/properties/x/$ref" {
		t.Errorf("pointers = %s, %s", list[0].Pointer, list[1].Pointer)
	}
	if !strings.Contains(err.Error(), "\n") {
		t.Errorf("ErrorList.Error() = %q, want one line per error", err.Error())
	}
}

func TestLoadMissingFile(t *testing.T) {
	if _, err := Load(filepath.Join("testdata", "nope.json"), Options{}); err == nil {
		t.Error("Load of a missing file succeeded")
	}
}

// TestLoadTypeErrorHasPosition checks that JSON of the wrong shape (not a
// syntax error) is also located by line and column.
func TestLoadTypeErrorHasPosition(t *testing.T) {
	_, err := LoadBytes("bad.json", []byte("{\n\"$defs\": {\"A\": {\"required\": 5}}}"), Options{Version: "test"})
	list, ok := err.(ErrorList)
	if !ok || len(list) != 1 || list[0].Line != 2 {
		t.Fatalf("err = %#v", err)
	}
}
