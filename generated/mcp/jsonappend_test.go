package mcp

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"
)

// The append encoder (jsonappend.go) must write byte for byte what
// encoding/json writes for the same value; these tests run both.

type appendInner struct {
	A string `json:"a"`
	B int    `json:"b,omitempty"`
}

type appendZeroer struct{ N int }

func (z appendZeroer) IsZero() bool { return z.N == 1 } // zero by its own rule

type appendPtrZeroer struct{ N int }

func (z *appendPtrZeroer) IsZero() bool { return z.N == 2 }

type appendEmbedded struct {
	Shared string `json:"shared"`
	Deep   string
}

type AppendExported struct {
	Promoted string
	Shadowed string
}

type appendOuter struct {
	appendEmbedded
	*AppendExported
	Shadowed string `json:"Shadowed"`
	Name     string `json:"name"`
	Skip     string `json:"-"`
	//lint:ignore SA5008 the odd tags are the point: the encoder must treat them as encoding/json does
	Dash string `json:"-,"`
	//lint:ignore SA5008 the odd tags are the point: the encoder must treat them as encoding/json does
	Bad         string `json:"bad\"name"`
	private     string
	Quoted      int                        `json:"quoted,string"`
	QuotedS     string                     `json:"qs,string"`
	Float       float64                    `json:"f"`
	Float32     float32                    `json:"f32"`
	Uint        uint16                     `json:"u"`
	Bytes       []byte                     `json:"bytes"`
	NilBytes    []byte                     `json:"nilBytes"`
	Raw         json.RawMessage            `json:"raw"`
	NilRaw      json.RawMessage            `json:"nilRaw,omitempty"`
	Number      json.Number                `json:"num"`
	Time        time.Time                  `json:"time"`
	Any         any                        `json:"any"`
	Ptr         *appendInner               `json:"ptr"`
	NilPtr      *appendInner               `json:"nilPtr"`
	Slice       []appendInner              `json:"slice"`
	NilSlice    []string                   `json:"nilSlice"`
	Array       [2]bool                    `json:"array"`
	Map         map[string]any             `json:"map"`
	NilMap      map[string]int             `json:"nilMap"`
	IntMap      map[int]string             `json:"intMap"`
	Extra       map[string]json.RawMessage `json:"extra,omitempty"`
	OmitE       string                     `json:"omitE,omitempty"`
	OmitZ       appendInner                `json:"omitZ,omitzero"`
	OmitZer     appendZeroer               `json:"omitZer,omitzero"`
	OmitPtrZer  appendPtrZeroer            `json:"omitPtrZer,omitzero"`
	OmitZerPtr  *appendZeroer              `json:"omitZerPtr,omitzero"`
	OmitIface   any                        `json:"omitIface,omitzero"`
	OmitEmptyZ  []int                      `json:"omitEZ,omitempty,omitzero"`
	Interface   json.Marshaler             `json:"marshaler"`
	Strings     []string                   `json:"strings"`
	Nested      map[string][]*appendInner  `json:"nested"`
	ProgressTok ProgressToken              `json:"progress,omitzero"`
	Content     []ContentBlock             `json:"content"`
}

// Two embeddings at one depth: a name both give is dropped, unless a tag
// settles it; the same type embedded twice (through appendTwoC and
// appendTwoD) annihilates its fields too.
type appendTwoA struct {
	X string
	Y string `json:"y"`
}
type appendTwoB struct {
	X string
	Y string
	Z string
}
type appendTwoC struct{ appendEmbedded }
type appendTwoD struct{ appendEmbedded }
type appendTwo struct {
	appendTwoA
	appendTwoB
	appendTwoC
	appendTwoD
}

func appendCases() []any {
	s := "<a&b> \u2028\u2029 \x00\x1f\t\n\r\b\f \"q\" \\ \xff\xfe é 😀"
	full := appendOuter{
		appendEmbedded: appendEmbedded{Shared: "s", Deep: "d"},
		AppendExported: &AppendExported{Promoted: "p", Shadowed: "hidden"},
		Shadowed:       "shown", Name: s, Skip: "x", Dash: "dash", Bad: "b", private: "p",
		Quoted: 42, QuotedS: s, Float: 1e-7, Float32: 3.4e38, Uint: 7,
		Bytes: []byte{0, 1, 2, 0xff}, Raw: json.RawMessage(` { "a" : [1, 2, "<x>"] } `),
		Number: "12.5e3", Time: time.Date(2026, 12, 2, 1, 2, 3, 4, time.UTC),
		Any: map[string]any{"z": 1.0, "a": []any{nil, true, "x", 1e21, math.Copysign(0, -1)}},
		Ptr: &appendInner{A: "p"}, Slice: []appendInner{{A: "1", B: 2}, {}},
		Map:    map[string]any{"b": 2, "a": "<", "\u2028": nil},
		IntMap: map[int]string{10: "ten", 2: "two"},
		Extra:  map[string]json.RawMessage{"k": json.RawMessage(`"v"`)},
		OmitZ:  appendInner{A: "set"}, OmitZer: appendZeroer{N: 1}, OmitPtrZer: appendPtrZeroer{N: 2},
		OmitZerPtr: &appendZeroer{N: 1}, OmitEmptyZ: []int{}, Interface: json.RawMessage(`[ 1 ]`),
		Strings: []string{"", "x"}, Nested: map[string][]*appendInner{"n": {nil, {A: "in"}}},
		ProgressTok: ProgressToken{Value: "tok"},
		Content:     []ContentBlock{&TextContent{Text: s}, &ImageContent{Data: []byte("img"), MIMEType: "image/png"}},
	}
	return []any{
		nil, true, 0, -1, uint8(3), 0.1, 1e20, 1e21, 1e-6, 1e-7, math.Copysign(0, -1), float32(0.1), 123456789.0,
		"", s, []byte(nil), []byte("hello"), json.RawMessage(`{"a":1}`), json.Number("1"),
		[]any{1, "a", nil}, map[string]int{"b": 1, "a": 2}, &appendInner{A: "x"},
		full, &full, appendOuter{},
		appendTwo{appendTwoA{"a", "ya"}, appendTwoB{"b", "yb", "z"}, appendTwoC{appendEmbedded{"c", "cd"}}, appendTwoD{appendEmbedded{"d", "dd"}}}, []appendOuter{{}, full},
		&ReadResourceResult{Contents: []ResourceContentsUnion{&BlobResourceContents{URI: "x:/b", Blob: []byte(s)}, &TextResourceContents{URI: "x:/t", Text: s}}},
		ReadResourceResult{},
		&CallToolResult{Content: []ContentBlock{&TextContent{Text: "hi", Extra: map[string]json.RawMessage{"z": json.RawMessage(" [ 1 , \"<\" ] ")}}}},
	}
}

func TestAppendJSONMatchesEncodingJSON(t *testing.T) {
	for i, v := range appendCases() {
		checkAppendJSON(t, i, v)
	}
}

func TestAppendJSONErrorsAsEncodingJSON(t *testing.T) {
	for _, v := range []any{math.NaN(), math.Inf(1), map[string]any{"x": math.Inf(-1)},
		json.RawMessage(`{`), appendOuter{Raw: json.RawMessage(`nope`)}, map[bool]int{true: 1}, make(chan int)} {
		_, want := json.Marshal(v)
		_, got := appendJSONAt(nil, v, encodeDepth{})
		if (want == nil) != (got == nil) {
			t.Errorf("%#v: encoding/json error %v, appendJSONAt error %v", v, want, got)
		}
	}
}

// checkAppendJSON compares appendJSONAt with json.Marshal, also after a
// prefix (the encoder appends; it must not touch what dst held).
func checkAppendJSON(t *testing.T, i int, v any) {
	t.Helper()
	want, wantErr := json.Marshal(v)
	got, err := appendJSONAt([]byte("prefix"), v, encodeDepth{})
	if (wantErr == nil) != (err == nil) {
		t.Fatalf("case %d %T: encoding/json error %v, appendJSONAt error %v", i, v, wantErr, err)
	}
	if err != nil {
		return
	}
	if !bytes.HasPrefix(got, []byte("prefix")) || !bytes.Equal(got[len("prefix"):], want) {
		t.Fatalf("case %d %T:\nencoding/json: %s\nappendJSONAt:  %s", i, v, want, got)
	}
}

// methodless returns v (a pointer to a generated struct) converted to an
// unnamed struct type with the same fields, which has no MarshalJSON:
// encoding/json walks it with its own rules, as appendJSONAt walks the
// wire types of the generated AppendJSON methods.
func methodless(v any) (any, bool) {
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Pointer || rv.Elem().Kind() != reflect.Struct {
		return nil, false
	}
	rv = rv.Elem()
	fields := make([]reflect.StructField, rv.NumField())
	for i := range fields {
		f := rv.Type().Field(i)
		if f.Anonymous || !f.IsExported() {
			return nil, false
		}
		fields[i] = reflect.StructField{Name: f.Name, Type: f.Type, Tag: f.Tag}
	}
	return rv.Convert(reflect.StructOf(fields)).Interface(), true
}

var registryCase = regexp.MustCompile(`case "(\w+)":`)

// registryNames lists the definitions DecodeNamed knows (from registry.go).
func registryNames(t testing.TB) []string {
	src, err := os.ReadFile("registry.go")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, m := range registryCase.FindAllSubmatch(src, -1) {
		names = append(names, string(m[1]))
	}
	return names
}

// checkGenerated decodes data as every definition; for each value that
// decodes, its fields walked by appendJSONAt and by encoding/json are equal
// bytes, and AppendJSON is what json.Marshal returns.
func checkGenerated(t *testing.T, names []string, data []byte) {
	var tree any
	if json.Unmarshal(data, &tree) == nil {
		checkAppendJSON(t, -1, tree)
	}
	for _, name := range names {
		v, err := DecodeNamed(name, data)
		if err != nil {
			continue
		}
		if m, ok := methodless(v); ok {
			checkAppendJSON(t, -1, m)
		}
		a, ok := v.(interface {
			AppendJSON(dst []byte) ([]byte, error)
		})
		if !ok {
			continue
		}
		want, wantErr := json.Marshal(v)
		got, err := a.AppendJSON(nil)
		if (wantErr == nil) != (err == nil) {
			t.Fatalf("%s: json.Marshal error %v, AppendJSON error %v", name, wantErr, err)
		}
		if err == nil && !bytes.Equal(got, want) {
			t.Fatalf("%s:\njson.Marshal: %s\nAppendJSON:   %s", name, want, got)
		}
	}
}

func specExamples(t testing.TB) [][]byte {
	dir := os.Getenv("MCPGEN_SPEC_DIR")
	if dir == "" {
		dir = filepath.Join("..", "..", "..", "shared", "mcp-spec")
	}
	files, _ := filepath.Glob(filepath.Join(dir, "schema", ProtocolVersion, "examples", "*", "*.json"))
	sort.Strings(files)
	var out [][]byte
	for _, file := range files {
		if data, err := os.ReadFile(file); err == nil {
			out = append(out, data)
		}
	}
	return out
}

// TestAppendJSONGeneratedTypes runs checkGenerated over the spec's
// examples, each tried as every definition.
func TestAppendJSONGeneratedTypes(t *testing.T) {
	names := registryNames(t)
	examples := specExamples(t)
	if len(examples) == 0 {
		t.Skip("no spec examples (set MCPGEN_SPEC_DIR)")
	}
	for _, data := range examples {
		checkGenerated(t, names, data)
		// Strings with what encoding/json escapes, in every member.
		checkGenerated(t, names, bytes.ReplaceAll(data, []byte(`":"`), []byte(`":"<&>\u2028`)))
	}
}

// FuzzAppendJSON is the differential fuzz target: arbitrary JSON, decoded
// as a tree and as every generated definition, encodes the same with the
// append encoder as with encoding/json.
func FuzzAppendJSON(f *testing.F) {
	for _, data := range specExamples(f) {
		f.Add(data)
	}
	f.Add([]byte(`{"type":"text","text":"<\u2028>","x":{ "y" : 1e400 }}`))
	f.Add([]byte(`{"uri":"a","blob":"AAEC","_meta":{"k":[1,2.5e-9]}}`))
	names := registryNames(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		if strings.Count(string(data), "[")+strings.Count(string(data), "{") > 200 {
			return
		}
		checkGenerated(t, names, data)
	})
}
