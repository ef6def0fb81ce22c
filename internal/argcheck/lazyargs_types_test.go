package argcheck

// The element-wise (lazy) decoding path against the whole tape over more
// schemas and Go target types: pointers, fixed arrays, Unmarshalers,
// TextUnmarshalers, ",string" fields, embedded structs, non-empty
// interfaces, maps of slices, arrays of arrays, recursive types, and the
// schemas mcpgen tools derives.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"testing"
)

type wideEmbedded struct {
	X string `json:"x"`
}

type wideElem struct {
	A int             `json:"a"`
	B *string         `json:"b"`
	C []int           `json:"c"`
	D json.RawMessage `json:"d"`
	E json.Number     `json:"e"`
	F int             `json:"f,string"`
	G []byte          `json:"g"`
	H any             `json:"h"`
	K []wideElem      `json:"k"`
	wideEmbedded
}

// wideU is an Unmarshaler: it keeps its bytes, refuses "bad".
type wideU struct{ Raw string }

func (u *wideU) UnmarshalJSON(b []byte) error {
	if bytes.Contains(b, []byte("bad")) {
		return errors.New("wideU: bad")
	}
	u.Raw = string(b)
	return nil
}

// wideT is a TextUnmarshaler.
type wideT struct{ S string }

func (u *wideT) UnmarshalText(b []byte) error {
	if string(b) == "bad" {
		return errors.New("wideT: bad")
	}
	u.S = string(b)
	return nil
}

type wideStringer interface{ String() string }

type wideArgs struct {
	Items  []wideElem            `json:"items"`
	PItems *[]wideElem           `json:"pitems"`
	Ptrs   []*wideElem           `json:"ptrs"`
	Arr    [3]wideElem           `json:"arr"`
	Raws   []json.RawMessage     `json:"raws"`
	Us     []wideU               `json:"us"`
	Ts     []wideT               `json:"ts"`
	Grid   [][]any               `json:"grid"`
	Maps   []map[string]any      `json:"maps"`
	Nums   []json.Number         `json:"nums"`
	Bytes  []byte                `json:"bytes"`
	IfaceM []wideStringer        `json:"ifacem"`
	M      map[string][]wideElem `json:"m"`
	Str    string                `json:"str"`
	U      wideU                 `json:"u"`
	PU     *wideU                `json:"pu"`
	Nested struct {
		Deep struct {
			L []int `json:"l"`
		} `json:"deep"`
	} `json:"nested"`
	Any any `json:"any"`
}

var wideTypes = []reflect.Type{
	reflect.TypeFor[wideArgs](),
	reflect.TypeFor[map[string]any](),
	reflect.TypeFor[any](),
	reflect.TypeFor[map[string][]wideElem](),
	reflect.TypeFor[map[string]json.RawMessage](),
	reflect.TypeFor[[][]int](),
	reflect.TypeFor[[]any](),
	reflect.TypeFor[lazyArgs](),
}

var wideSchemas = []string{
	// additionalProperties arrays with defaults and required inside elements
	`{"type":"object","additionalProperties":{"type":"array","items":{"type":"object","properties":{"a":{"type":"integer","default":3},"b":{"type":"string"},"x":{"type":"string","default":"dx"}},"required":["x"]}}}`,
	// a recursive tree ($defs / $ref), arrays of arrays
	`{"$defs":{"N":{"type":"object","properties":{"k":{"type":"array","items":{"$ref":"#/$defs/N"}},"a":{"type":"integer","maximum":10},"c":{"type":"array","items":{"type":"integer","minimum":0}}}}},"$ref":"#/$defs/N"}`,
	// items false / items true
	`{"type":"object","properties":{"items":{"type":"array","items":false},"ptrs":{"type":"array","items":true,"minItems":2}}}`,
	// allOf adding items schemas at two levels
	`{"type":"object","properties":{"items":{"type":"array","items":{"type":"object","properties":{"c":{"type":"array","items":{"type":"integer","maximum":5}},"h":{"default":[1,2]}}}}},"allOf":[{"properties":{"items":{"items":{"required":["a"]}}}},{"properties":{"items":{"items":{"properties":{"a":{"minimum":1}}}}}}]}`,
	// root array of arrays
	`{"type":"array","items":{"type":"array","items":{"type":"integer"}}}`,
	// type unions with null, dropNull inside elements
	`{"type":"object","properties":{"items":{"type":["array","null"],"items":{"type":["object","null"],"properties":{"b":{"type":"string"},"a":{"type":"integer","default":9}},"additionalProperties":false}}}}`,
	// anyOf / oneOf / enum / uniqueItems inside the elements only (allowed)
	`{"type":"object","properties":{"items":{"type":"array","items":{"anyOf":[{"type":"object","required":["a"]},{"type":"object","required":["b"]}],"properties":{"c":{"type":"array","uniqueItems":true},"x":{"enum":["p","q"]}},"oneOf":[{"properties":{"a":{"type":"integer"}}},{"properties":{"a":{"type":"string"}}}]}}}}`,
	// everything through a $ref to the root
	`{"type":"object","properties":{"m":{"type":"object","additionalProperties":{"$ref":"#/$defs/L"}},"items":{"$ref":"#/$defs/L"},"pitems":{"$ref":"#/$defs/L"},"arr":{"$ref":"#/$defs/L"}},"$defs":{"L":{"type":"array","maxItems":1000000,"items":{"$ref":"#/$defs/E"}},"E":{"type":"object","properties":{"a":{"type":"integer","default":1},"g":{"type":"string","contentEncoding":"base64"},"e":{"type":"string"},"f":{"type":"string","pattern":"^[0-9]+$"},"k":{"$ref":"#/$defs/L"}}}}}`,
	// Unmarshalers and text
	`{"type":"object","properties":{"us":{"type":"array","items":{"type":["object","string","array"]}},"ts":{"type":"array","items":{"type":"string","minLength":1}},"raws":{"type":"array","items":{"type":"object","properties":{"z":{"default":"zz"}}}},"u":{"type":"object","properties":{"l":{"type":"array","items":{"type":"integer"}}}}}}`,
	// not / const deep inside elements
	`{"type":"object","properties":{"items":{"type":"array","items":{"not":{"required":["bad"]},"properties":{"a":{"const":1}}}}}}`,
	// format and number limits
	`{"type":"object","properties":{"nums":{"type":"array","items":{"type":"number","multipleOf":0.5}},"items":{"type":"array","items":{"properties":{"x":{"type":"string","format":"email"}}}}}}`,
	`{"type":"object","properties":{"grid":{"type":"array","items":{"type":"array","maxItems":2}}}}`,
}

var wideArgSeeds = []string{
	`{"items":[{"a":1,"x":"q"},{"b":"s","x":"p","c":[1,2,2]},{"a":"s"}],"grid":[[1,[2]],[{"k":[3]}]]}`,
	`{"k":[{"k":[{"a":11,"c":[-1]}],"a":1},{"c":[1,2]}],"a":3}`,
	`{"items":[{"a":1,"k":[{"a":2,"k":[]}]},null,{"a":null,"b":"x"}],"ptrs":[null,{"a":2}]}`,
	`[[1,2,3],[4],[],["x"]]`,
	`{"m":{"k1":[{"a":1},{"g":"!!"}],"k2":[]},"pitems":[{"f":"12","e":"1.5"}],"arr":[{"a":1},{"a":2},{"a":3},{"a":4}]}`,
	`{"us":[{"v":1},"bad",[1,2]],"ts":["a","bad",""],"raws":[{},{"z":1},{"y":[1]}],"u":{"l":[1,2,3]},"pu":{"l":[1]}}`,
	`{"nums":[1,1.5,2e0,0.3,1e400],"items":[{"x":"a@b.c"},{"x":"nope"}]}`,
	`{"bytes":[1,2,300],"ifacem":[1,2],"any":[[1],[2,[3]]],"maps":[{"a":[1]},{"b":{}}]}`,
	`{"items":[{"f":"x"},{"f":12},{"e":"nan"},{"e":"1e5"}]}`,
	`{"items":[{"d":[1,2,{"a":null}],"h":[1,{"q":[2]}]}],"Items":[{"a":1}]}`,
	`{"items":[{"a":1}],"items2":[{"a":1}],"nested":{"deep":{"l":[1,2,3]}}}`,
	`{"items":[{"a":1,"a":2}]}`,
	`{"items":[{"a":"\u0041"},{"x":"\ud800"},{"x":"` + "\xff\xfe" + `"}]}`,
	`{"items":[1e1001]}`,
	`{"items":[[[[[[[[1]]]]]]]]}`,
}

// FuzzLazyDecodeTypes is FuzzLazyDecode over more schemas and types.
func FuzzLazyDecodeTypes(f *testing.F) {
	for _, s := range append(append([]string(nil), wideArgSeeds...), lazyArgSeeds...) {
		for which := range len(wideSchemas) {
			for ty := range len(wideTypes) {
				f.Add(uint8(which), uint8(ty), uint8(1), []byte(s))
			}
		}
	}
	var vs []*Validator
	for _, src := range wideSchemas {
		v, err := Compile(json.RawMessage(src))
		if err != nil {
			f.Fatalf("%s: %v", src, err)
		}
		vs = append(vs, v)
	}
	f.Fuzz(func(t *testing.T, which, ty, min uint8, args []byte) {
		v := vs[int(which)%len(vs)]
		typ := wideTypes[int(ty)%len(wideTypes)]
		checkLazyDecode(t, v, typ, args, int(min%48)+1)
	})
}

func TestLazyDecodeTypesSeeds(t *testing.T) {
	for si, src := range wideSchemas {
		v, err := Compile(json.RawMessage(src))
		if err != nil {
			t.Fatalf("schema %d: %v", si, err)
		}
		for _, args := range append(append([]string(nil), wideArgSeeds...), lazyArgSeeds...) {
			for _, typ := range wideTypes {
				for _, min := range []int{1, 2, 3, 5, 8, 13, 30, 100} {
					t.Run(fmt.Sprintf("s%d", si), func(t *testing.T) {
						checkLazyDecode(t, v, typ, []byte(args), min)
					})
				}
			}
		}
	}
}

// The schemas bind derives (mcpgen tools) for bind/testdata/fixture/typemap.
type tmUnits string

type tmNode struct {
	Name     string   `json:"name"`
	Children []tmNode `json:"children,omitempty"`
	Parent   *tmNode  `json:"parent,omitempty"`
}

type tmArgs struct {
	Location string    `json:"location"`
	Units    tmUnits   `json:"units,omitempty"`
	Other    []tmUnits `json:"other,omitempty"`
	Tree     tmNode    `json:"tree,omitzero"`
	Blob     []byte    `json:"blob,omitempty"`
	Days     int       `json:"days,omitempty"`
	Tags     []string  `json:"tags,omitempty"`
	Escaped  string    `json:"escaped,omitempty"`
}

const tmArgsSchema = `{"$schema":"https://json-schema.org/draft/2020-12/schema","$defs":{"Node":{"properties":{"name":{"type":"string"},"children":{"items":{"$ref":"#/$defs/Node"},"type":"array"},"parent":{"$ref":"#/$defs/Node"}},"type":"object","required":["name"]}},"properties":{"location":{"type":"string"},"units":{"type":"string","enum":["metric","imperial","kelvin"],"default":"metric"},"other":{"items":{"type":"string","enum":["metric","imperial","kelvin"]},"type":"array"},"tree":{"$ref":"#/$defs/Node"},"when":{"type":"string","format":"date-time"},"blob":{"type":"string","contentEncoding":"base64"},"days":{"type":"integer","maximum":14,"minimum":1,"default":3},"tags":{"items":{"type":"string","minLength":1},"type":"array","maxItems":3,"uniqueItems":true},"escaped":{"type":"string"}},"type":"object","required":["location"]}`

const tmNodeSchema = `{"$schema":"https://json-schema.org/draft/2020-12/schema","properties":{"name":{"type":"string"},"children":{"items":{"$ref":"#"},"type":"array"},"parent":{"$ref":"#"}},"type":"object","required":["name"]}`

func init() {
	wideSchemas = append(wideSchemas, tmArgsSchema, tmNodeSchema)
	wideTypes = append(wideTypes, reflect.TypeFor[tmArgs](), reflect.TypeFor[tmNode]())
	wideArgSeeds = append(wideArgSeeds,
		`{"location":"x","other":["metric","kelvin","x"],"tree":{"name":"r","children":[{"name":"a","children":[{"name":"b"}]},{"name":"c","parent":null},{"x":1}]}}`,
		`{"name":"r","children":[{"name":"a","children":[{"name":"b","parent":{"name":"p"}}]},{"children":[]}],"parent":{"name":"q","children":[{"name":"z"}]}}`,
		`{"location":"x","tags":["a","b"],"days":null,"units":null}`)
}

// TestLazyDecidesOnDerivedSchemas: with the schemas mcpgen tools derives, the
// element-wise path decides on large arrays of them (no fallback).
func TestLazyDecidesOnDerivedSchemas(t *testing.T) {
	for _, c := range []struct {
		schema string
		typ    reflect.Type
		args   string
	}{
		{tmArgsSchema, reflect.TypeFor[tmArgs](), wideArgSeeds[len(wideArgSeeds)-3]},
		{tmNodeSchema, reflect.TypeFor[tmNode](), wideArgSeeds[len(wideArgSeeds)-2]},
	} {
		v, err := Compile(json.RawMessage(c.schema))
		if err != nil {
			t.Fatal(err)
		}
		if !checkLazyDecode(t, v, c.typ, []byte(c.args), 1) {
			t.Errorf("%s: fell back", c.args)
		}
	}
}
