package support

import (
	"encoding/json"
	"math"
	"testing"
)

// appendSample has the field shapes the append encoder's reflection path
// handles: tags naming, omitting and quoting fields, embedded structs,
// maps with sorted keys, raw messages, and fields encoding/json skips.
type appendSample struct {
	appendEmbedded
	Name    string            `json:"name"`
	Omitted string            `json:"omitted,omitempty"`
	Zero    appendLeaf        `json:"zero,omitzero"`
	Quoted  int               `json:"quoted,string"`
	Skip    string            `json:"-"`
	Map     map[string]any    `json:"map"`
	IntKeys map[int]string    `json:"intKeys"`
	Raw     json.RawMessage   `json:"raw"`
	Leaves  []*appendLeaf     `json:"leaves"`
	Floats  []float64         `json:"floats"`
	Bytes   []byte            `json:"bytes"`
	Number  json.Number       `json:"number"`
	Strings map[string]string `json:"strings,omitempty"`
	private int
}

type appendEmbedded struct {
	Depth int `json:"depth"`
}

type appendLeaf struct {
	A string `json:"a"`
}

// TestAppendJSONMatchesEncodingJSON: the support copy of the append encoder
// writes what encoding/json writes, byte for byte (the generated packages'
// copies are tested against their own types in generated/mcp).
func TestAppendJSONMatchesEncodingJSON(t *testing.T) {
	values := []any{
		nil, true, 0, -7, uint8(3), 0.1, 1e21, 1e-7, math.Copysign(0, -1), float32(0.1),
		"", "<a & b>\u2028\xff", []byte("hi"), json.RawMessage(` {"a" : 1} `), json.Number("12.5"),
		[]any{nil, "x", 2.5}, map[string]any{"b": 1, "a": []int{1, 2}},
		appendSample{
			appendEmbedded: appendEmbedded{Depth: 2},
			Name:           "n", Quoted: 42, Skip: "s",
			Map:     map[string]any{"z": nil, "a": "<"},
			IntKeys: map[int]string{10: "ten", 2: "two"},
			Raw:     json.RawMessage(`[ 1 ]`),
			Leaves:  []*appendLeaf{nil, {A: "x"}},
			Floats:  []float64{1, 1.5, 1e-9},
			Bytes:   []byte{0, 0xff}, Number: "3", private: 1,
		},
		&appendSample{Zero: appendLeaf{A: "set"}, Omitted: "o", Strings: map[string]string{"k": "v"}},
	}
	for _, v := range values {
		want, err := json.Marshal(v)
		if err != nil {
			t.Fatalf("json.Marshal(%#v): %v", v, err)
		}
		got, err := appendJSONAt(nil, v, encodeDepth{})
		if err != nil {
			t.Fatalf("appendJSONAt(%#v): %v", v, err)
		}
		if string(got) != string(want) {
			t.Errorf("appendJSONAt(%#v)\n got %s\nwant %s", v, got, want)
		}
	}
}

// TestAppendJSONPointerToNilCollectionIsNull — a pointer to a nil slice
// or map (an optional member that may be null, set to null: *[]T, *map)
// was written as [] or {}, where encoding/json writes null; the null a
// message carried came back as an empty array.
func TestAppendJSONPointerToNilCollectionIsNull(t *testing.T) {
	var nilSlice []string
	var nilMap map[string]int
	type member struct {
		A *[]string        `json:"a,omitzero"`
		M *map[string]int  `json:"m,omitzero"`
		E *[]string        `json:"e,omitzero"`
		P **map[string]int `json:"p"`
	}
	empty := []string{}
	m := &nilMap
	for _, v := range []any{&nilSlice, &nilMap, member{A: &nilSlice, M: &nilMap, E: &empty, P: &m}, member{}} {
		want, _ := json.Marshal(v)
		got, err := appendJSONAt(nil, v, encodeDepth{})
		if err != nil || string(got) != string(want) {
			t.Errorf("appendJSONAt(%#v) = %s, %v; want %s", v, got, err, want)
		}
	}
}

// TestAppendJSONPointerToBytesIsBase64 — a pointer to a []byte (an
// optional byte string that may be null: *[]byte) was written as an array
// of numbers, where encoding/json writes the base64 string the decoder
// reads; "aGk=" came back as [104,105].
func TestAppendJSONPointerToBytesIsBase64(t *testing.T) {
	hi, empty := []byte("hi"), []byte{}
	type member struct {
		B  *[]byte  `json:"b,omitempty"`
		BB **[]byte `json:"bb"`
	}
	p := &hi
	for _, v := range []any{&hi, &empty, member{B: &hi, BB: &p}, []*[]byte{&hi, nil}} {
		want, _ := json.Marshal(v)
		got, err := appendJSONAt(nil, v, encodeDepth{})
		if err != nil || string(got) != string(want) {
			t.Errorf("appendJSONAt(%#v) = %s, %v; want %s", v, got, err, want)
		}
	}
}
