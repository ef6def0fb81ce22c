package argcheck

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/internal/jsonscan"
)

type lazyItem struct {
	Name  string   `json:"name"`
	Value int      `json:"value"`
	Tags  []string `json:"tags"`
	Note  string   `json:"note,omitempty"`
	Extra any      `json:"extra,omitempty"`
}

type lazyArgs struct {
	Items []lazyItem       `json:"items"`
	Nums  []float64        `json:"nums"`
	Any   any              `json:"any"`
	Grid  [][]int          `json:"grid"`
	Fixed [2]string        `json:"fixed"`
	Map   map[string][]int `json:"map"`
	Inner struct {
		List []string `json:"list"`
	} `json:"inner"`
	Raw   json.RawMessage `json:"raw"`
	Label string          `json:"label"`
}

// lazySchemas exercise what the element-wise path defers (items, $ref,
// allOf, defaults and null-means-absent inside elements, additional
// properties) and what it must give up (uniqueItems, enum, anyOf, oneOf,
// not over a lazy array).
var lazySchemas = []string{
	`{"type":"object","required":["items"],"properties":{
		"items":{"type":"array","minItems":1,"maxItems":100000,"items":{"type":"object","required":["name"],"properties":{
			"name":{"type":"string","minLength":1},"value":{"type":"integer","minimum":0,"maximum":999,"default":5},
			"tags":{"type":"array","items":{"type":"string","enum":["alpha","beta"]}},"note":{"type":"string"},
			"extra":{"type":"object","properties":{"k":{"type":"integer","default":7}}}}}},
		"nums":{"type":"array","items":{"type":"number","maximum":100}},
		"label":{"type":"string","default":"none"}}}`,
	`{"type":"object","$defs":{"List":{"type":"array","items":{"$ref":"#/$defs/Item"}},"Item":{"type":"object","properties":{"value":{"type":"integer","multipleOf":2},"note":{"type":"string"}}}},
		"properties":{"items":{"$ref":"#/$defs/List"},"grid":{"type":"array","items":{"type":"array","items":{"type":"integer","minimum":0}}}},
		"allOf":[{"properties":{"items":{"maxItems":50}}},{"properties":{"nums":{"items":{"minimum":-1}}}}]}`,
	`{"type":"object","$defs":{"List":{"type":"array","items":{"$ref":"#/$defs/Item"}},"Item":{"type":"object","properties":{"value":{"type":"integer","multipleOf":2}}}},
		"properties":{"items":{"$ref":"#/$defs/List"}}}`,
	`{"type":"object","properties":{"items":{"type":"array","uniqueItems":true}}}`,
	`{"type":"object","properties":{"fixed":{"enum":[["a","b"],["c","d"]]},"items":{"type":"array"}}}`,
	`{"type":"object","anyOf":[{"required":["items"]},{"required":["nums"]}],"properties":{"items":{"type":"array"}}}`,
	`{"type":"object","properties":{"items":{"oneOf":[{"type":"array","maxItems":2},{"type":"array","minItems":3}]}}}`,
	`{"type":"object","properties":{"nums":{"not":{"type":"array","items":{"type":"string"}}}}}`,
	`{"type":"object","additionalProperties":{"type":"array","items":{"type":["integer","string","object","array"]}},"properties":{"label":{"type":"string"},"any":{},"fixed":{},"inner":{},"raw":{}}}`,
	`{"type":"object"}`,
	`{"type":"object","properties":{"inner":{"type":"object","properties":{"list":{"type":"array","items":{"type":"string","maxLength":3}}}}}}`,
}

// lazyArgSeeds are arguments for them, arrays small enough that the tests
// lower the lazy threshold to make them lazy.
var lazyArgSeeds = []string{
	`{"items":[{"name":"a","value":1,"tags":["alpha"]},{"name":"b","tags":["beta","alpha"],"note":null},{"name":"c","value":998,"extra":{}}],"nums":[1,2.5,-1]}`,
	`{"items":[{"name":"a","value":1000},{"name":"","value":-1},{"value":2}],"nums":[101]}`,
	`{"items":[{"name":"a","tags":["gamma"]}],"label":null}`,
	`{"items":[{"name":"a","value":"x"}],"grid":[[1,2],[3,-4],[]]}`,
	`{"items":[{"name":"a","value":2.0},{"name":"b","value":1e2}]}`,
	`{"items":[{"name":"a","name":"b"}]}`,
	`{"items":[{"name":"a","value":1e99999}]}`,
	`{"items":[{"name":"a"},{"name":"b"}],"fixed":["a","b"]}`,
	`{"items":[{"name":"a"},{"name":"a"}]}`,
	`{"items":[1,2,3],"nums":["x"]}`,
	`{"items":[{"name":"a"}],"any":[1,[2,3],{"x":[4]}],"map":{"k":[1,2],"j":[]},"inner":{"list":["abcd","ab"]}}`,
	`{"items":[{"name":"a"}],"raw":[1,2,3]}`,
	`{"items":[{"name":"a"}],"fixed":["x","y","z"]}`,
	`{"items":[{"name":"a"}],"other":[1,"two",{"three":[3]}],"more":[true]}`,
	`{"items":[{"name":"\u00e9\ud83d\ude00","tags":[]}],"nums":[]}`,
	`{"items":[{"name":"a"},]}`,
	`{"items":[{"name":"a"} {"name":"b"}]}`,
	`{"items":"not an array","nums":[1]}`,
	`{"items":[{"name":"a","extra":{"k":null}}]}`,
	` { "items" : [ { "name" : "a" } , { "name" : "b" } ] , "nums" : [ 1 , 2 ] } `,
}

// decodeWhole is DecodeInto through the whole tape, the path the lazy one
// must agree with.
func decodeWhole(d *TypeDecoder, args []byte, into any) error {
	t, err := parseArgs(args)
	if err != nil {
		return err
	}
	defer releaseArgs(t)
	return d.decodeParsed(t, reflect.ValueOf(into))
}

// checkLazyDecode decodes args into a new value of typ both ways, with
// arrays of at least min bytes lazy, and fails unless the errors (each
// problem) or the values are the same. It reports whether the lazy path
// decided (did not fall back to the whole parse).
func checkLazyDecode(t *testing.T, v *Validator, typ reflect.Type, args []byte, min int) bool {
	t.Helper()
	d := NewTypeDecoder(typ, v)
	want := reflect.New(typ)
	werr := decodeWhole(d, args, want.Interface())
	defer jsonscan.SetLazySizesForTest(jsonscan.LazySizes{Array: min})()
	decided := false
	if tp, perr := jsonscan.ParseLazyMin(trimArgs(args), maxDepth, min); perr == nil && tp.LazyArrays() != nil && v.native != nil {
		probe := reflect.New(typ)
		decided = !errors.Is(d.decodeLazy(tp, probe, nil), errLazyFallback)
		tp.Release()
	}
	got := reflect.New(typ)
	gerr := d.DecodeOwnedInto(args, 0, got.Interface())
	if (werr == nil) != (gerr == nil) || werr != nil && werr.Error() != gerr.Error() {
		t.Fatalf("%.300s\nmin %d into %v: lazy error %v\nwhole error %v", args, min, typ, gerr, werr)
	}
	var wp, gp *ValidationError
	if errors.As(werr, &wp) != errors.As(gerr, &gp) || wp != nil && !reflect.DeepEqual(wp.Problems, gp.Problems) {
		t.Fatalf("%.300s\nmin %d: lazy problems %+v\nwhole problems %+v", args, min, gp, wp)
	}
	// The value too, refused or not: nothing decoded when the schema
	// refuses the arguments, what was decoded before a type error.
	if !reflect.DeepEqual(got.Interface(), want.Interface()) {
		t.Fatalf("%.300s\nmin %d into %v (error %v): lazy decoded %+v\nwhole decoded %+v", args, min, typ, werr, got.Elem(), want.Elem())
	}
	return decided
}

func trimArgs(args []byte) []byte { return []byte(strings.Trim(string(args), " \t\r\n")) }

var lazyTypes = []reflect.Type{reflect.TypeFor[lazyArgs](), reflect.TypeFor[map[string]any](), reflect.TypeFor[any]()}

// TestLazyDecodeAgreesWithWhole holds the element-wise path to the whole
// tape on every schema, seed, target type and threshold, and checks that
// it decides by itself (without the whole parse) where it should.
func TestLazyDecodeAgreesWithWhole(t *testing.T) {
	decided := map[int]int{}
	for si, src := range lazySchemas {
		v, err := Compile(json.RawMessage(src))
		if err != nil {
			t.Fatalf("schema %d: %v", si, err)
		}
		for _, args := range lazyArgSeeds {
			for _, typ := range lazyTypes {
				for _, min := range []int{1, 2, 8, 30, 1 << 20} {
					if checkLazyDecode(t, v, typ, []byte(args), min) {
						decided[si]++
					}
				}
			}
		}
	}
	// The first three schemas and the last three defer their arrays'
	// items.
	for _, si := range []int{0, 1, 2, 8, 9, 10} {
		if decided[si] == 0 {
			t.Errorf("schema %d: the lazy path never decided", si)
		}
	}
	// The middle ones (uniqueItems, enum, anyOf, oneOf, not over a lazy
	// array) give it up.
	args := []byte(`{"items":[{"name":"a"},{"name":"b"}],"nums":[1,2],"fixed":["a","b"]}`)
	for _, si := range []int{3, 4, 5, 6, 7} {
		v, _ := Compile(json.RawMessage(lazySchemas[si]))
		tp, perr := jsonscan.ParseLazyMin(args, maxDepth, 1)
		if perr != nil {
			t.Fatal(perr)
		}
		if err := NewTypeDecoder(reflect.TypeFor[lazyArgs](), v).decodeLazy(tp, reflect.New(reflect.TypeFor[lazyArgs]()), nil); !errors.Is(err, errLazyFallback) {
			t.Errorf("schema %d: lazy path decided (%v), want it given up", si, err)
		}
		tp.Release()
	}
}

// TestLazyDecodeLarge decodes 10 000 items of a real size: the lazy path
// decides, agrees with the whole tape, and its problems name the element.
func TestLazyDecodeLarge(t *testing.T) {
	v, err := Compile(json.RawMessage(lazySchemas[0]))
	if err != nil {
		t.Fatal(err)
	}
	args := []byte(`{"items":` + itemsArray(10000) + `}`)
	if len(args) < jsonscan.LazyArrayMin {
		t.Fatalf("%d bytes: not lazy", len(args))
	}
	if !checkLazyDecode(t, v, reflect.TypeFor[lazyArgs](), args, jsonscan.LazyArrayMin) {
		t.Fatal("the lazy path gave up on valid arguments")
	}
	var got lazyArgs
	if err := NewTypeDecoder(reflect.TypeFor[lazyArgs](), v).DecodeOwnedInto(args, 0, &got); err != nil {
		t.Fatal(err)
	}
	if len(got.Items) != 10000 || got.Items[9999].Name != "item-0009999" || got.Items[1234].Value != 234 || got.Label != "none" {
		t.Fatalf("decoded %d items, last %+v, label %q", len(got.Items), got.Items[len(got.Items)-1], got.Label)
	}
	// A problem deep in the array: its pointer names the element.
	bad := strings.Replace(string(args), `"item-0007777","value":777`, `"item-0007777","value":1777`, 1)
	err = NewTypeDecoder(reflect.TypeFor[lazyArgs](), v).DecodeOwnedInto([]byte(bad), 0, new(lazyArgs))
	var ve *ValidationError
	if !errors.As(err, &ve) || len(ve.Problems) != 1 || ve.Problems[0].Pointer != "/items/7777/value" {
		t.Fatalf("error %v", err)
	}
	checkLazyDecode(t, v, reflect.TypeFor[lazyArgs](), []byte(bad), jsonscan.LazyArrayMin)
}

// FuzzLazyDecode holds the element-wise path to the whole tape on any
// arguments: the same error, problem for problem, or the same value.
func FuzzLazyDecode(f *testing.F) {
	for _, s := range lazyArgSeeds {
		for which := range len(lazySchemas) {
			f.Add(uint8(which), uint8(1), []byte(s))
		}
	}
	var vs []*Validator
	for _, src := range lazySchemas {
		v, err := Compile(json.RawMessage(src))
		if err != nil {
			f.Fatal(err)
		}
		vs = append(vs, v)
	}
	f.Fuzz(func(t *testing.T, which, min uint8, args []byte) {
		v := vs[int(which)%len(vs)]
		typ := lazyTypes[int(which/16)%len(lazyTypes)]
		checkLazyDecode(t, v, typ, args, int(min%32)+1)
	})
}

// itemsArray is the JSON array of n {name, value, tags} items of
// lazySchemas[0] (57 bytes each), item k named item-%07d.
func itemsArray(n int) string {
	var b strings.Builder
	b.WriteByte('[')
	for k := range n {
		if k > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"name":"item-%07d","value":%d,"tags":["alpha","beta"]}`, k, k%1000)
	}
	b.WriteByte(']')
	return b.String()
}
