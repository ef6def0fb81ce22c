package jsonenc

import (
	"encoding/json"
	"math"
	"strings"
	"testing"
	"time"
)

// recMap nests maps of its own type (one scratch key per map type).
type recMap map[string]recMap

// TestSameAsEncodingJSON encodes one value for each of encoding/json's
// rules and checks Marshal agrees with json.Marshal on it.
func TestSameAsEncodingJSON(t *testing.T) {
	one, f := 1, 2.5
	pone := &one
	cyc := &node{V: 1}
	cyc.Next = cyc
	cycSlice := make([]any, 1)
	cycSlice[0] = cycSlice
	cycMap := map[string]any{}
	cycMap["m"] = cycMap
	deep := &node{}
	for range 1500 { // deeper than cycle detection starts, no cycle
		deep = &node{Next: deep}
	}
	raw := rawMarshal(` { "a" : "<\u2028>" , "b" : [ 1 , 2 ] } `)
	values := []any{
		nil, true, 0, -7, uint8(200), "", "plain", "<a&b>", "\u2028\u2029", "bad \xff utf8 \xe2\x80", "\x00\x1f\x7f\"\\\b\f\n\r\t",
		1.0, math.Copysign(0, -1), 1e21, 1e20, 1e-6, 1e-7, 123456789.0, float32(1e-7), float32(3.4e38), float32(0.1), math.SmallestNonzeroFloat64,
		math.NaN(), math.Inf(1), float32(math.Inf(-1)),
		json.Number(""), json.Number("1.5e3"), json.Number("01"), json.Number("1e"), json.RawMessage(nil), json.RawMessage(` [1, "x"] `),
		json.RawMessage(`{bad`), []byte(nil), []byte{}, []byte("hello"), Bytes("b"), []Byte{1, 2}, [2]byte{1, 2},
		map[string]int(nil), map[string]int{"b": 1, "a": 2, "<": 3}, map[int]bool{10: true, -2: false, 3: true},
		map[uint16]string{7: "x"}, map[text]int{"k": 1, "j": 2}, map[text]int{"!": 1}, map[*ptrText]int{nil: 1},
		map[string]map[string]int{"b": {"y": 1, "x": 2}, "a": {"z": 3}}, recMap{"b": {"d": nil, "c": {}}, "a": nil},
		map[text]map[text]float64{"o": {"i": 1.5, "!": 2}}, map[string][]map[string]string{"l": {{"b": "1", "a": "2"}, {"c": "<"}}},
		map[bool]int{true: 1}, map[[2]int]int{{1, 2}: 3}, make(chan int), func() {}, complex(1, 2),
		[]any{1, "a", nil, []int(nil), map[string]any{"z": nil}}, [0]int{}, [3]string{"a", "b", "c"},
		raw, &raw, rawMarshal("!"), rawMarshal("{"), rawMarshal(""), (*rawMarshal)(nil),
		ptrMarshal{N: 1}, &ptrMarshal{N: 2}, &ptrMarshal{N: -1}, []ptrMarshal{{N: 3}, {N: -3}}, map[string]ptrMarshal{"a": {N: -1}},
		text("x<y"), text("!no"), ptrText{S: "s"}, &ptrText{S: "p"}, &ptrText{S: "!"}, [1]ptrText{{S: "!"}}, &[1]ptrText{{S: "!"}},
		time.Date(2024, 1, 2, 3, 4, 5, 6, time.UTC), time.Date(10001, 1, 1, 0, 0, 0, 0, time.UTC), &time.Time{},
		pone, &pone, (*int)(nil), cyc, cycSlice, cycMap, deep,
		inner{A: 1, B: "s<", C: &f, H: pone, I: &pone, J: 0.5, K: 9, L: true, M: 3, N: "12", Z: zeroer{N: 2}, ZP: ptrZeroer{N: 7}},
		&inner{ZP: ptrZeroer{N: 7}, ZI: zeroer{N: 1}, ZT: time.Unix(1, 0)}, inner{ZI: (*ptrZeroer)(nil)}, inner{N: "x"}, inner{J: float32(math.NaN())},
		all{}, &all{}, all{EmbedB: &EmbedB{X: 1, Shared: 2}, Fn: func() {}}, all{Ch: make(chan int)}, all{Cx: 1},
		conflict{EmbedA: EmbedA{X: 1, Shared: 2, Deep: Deep{Y: "d"}}, EmbedB: EmbedB{X: 3, Shared: 4, Y: "y"}},
		EmbedPtr{}, &EmbedPtr{Deep: &Deep{Y: "y"}, EmbedB: &EmbedB{}, PT: ptrText{S: "!"}}, EmbedPtr{PT: ptrText{S: "!"}},
		struct {
			A int `json:",omitempty"`
			B int `json:"b,omitempty,string"`
			C int `json:"c,string,omitzero"`
			//lint:ignore SA5008 "-," names the member "-" (encoding/json's rule, encoded here on purpose)
			D int `json:"-,omitempty"`
			E int `json:"ünï§"`
			F int `json:"a b"`
			//lint:ignore SA5008 an invalid tag name falls back to the Go name, as in encoding/json
			G int `json:"a\\b"`
		}{C: 0, D: 4},
	}
	for _, v := range values {
		same(t, v)
	}
}

// TestMarshalOutput pins a few encodings outright (so the comparison
// above is not merely of two equal mistakes).
func TestMarshalOutput(t *testing.T) {
	type out struct {
		Location    string  `json:"location"`
		Temperature float64 `json:"temperature"`
		Tags        []string
		Opt         *int `json:"opt,omitempty"`
		N           int  `json:"n,string"`
	}
	for _, c := range []struct {
		v    any
		want string
	}{
		{out{Location: "P<", Temperature: 1e21, N: 3}, `{"location":"P\u003c","temperature":1e+21,"Tags":null,"n":"3"}`},
		{map[int]string{2: "b", 10: "a"}, `{"10":"a","2":"b"}`},
		{[]byte("hi"), `"aGk="`},
		{"\xff\u2028", `"\ufffd\u2028"`},
		{rawMarshal(` { "a" : "&" } `), `{"a":"\u0026"}`},
	} {
		got, err := Marshal(c.v)
		if err != nil || string(got) != c.want {
			t.Errorf("Marshal(%#v) = %s, %v; want %s", c.v, got, err, c.want)
		}
	}
	if _, err := Marshal(math.NaN()); err == nil || err.Error() != "json: unsupported value: NaN" {
		t.Errorf("NaN: %v", err)
	}
	cyc := &node{}
	cyc.Next = cyc
	if _, err := Marshal(cyc); err == nil || !strings.Contains(err.Error(), "encountered a cycle via *jsonenc.node") {
		t.Errorf("cycle: %v", err)
	}
}

// TestConcurrentCompile compiles a recursive type from several goroutines
// at once (the forwarding encoder of typeEncoder).
func TestConcurrentCompile(t *testing.T) {
	type rec struct {
		Self []rec
		M    map[string]*rec
	}
	v := rec{Self: []rec{{M: map[string]*rec{"x": {}}}}}
	done := make(chan struct{})
	for range 4 {
		go func() {
			defer func() { done <- struct{}{} }()
			if d := diff(v); d != "" {
				t.Error(d)
			}
		}()
	}
	for range 4 {
		<-done
	}
}
