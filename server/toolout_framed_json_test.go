package server

import (
	"bytes"
	"reflect"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/jsonrpc"
)

// jsonTextOut is a structured Out without a String method: its text is
// its structuredContent's JSON.
type jsonTextOut struct {
	City string   `json:"city"`
	Temp float64  `json:"temp"`
	Tags []string `json:"tags,omitempty"`
}

// TestStructuredJSONTextFramedInPlace: a structured Out whose text is its
// JSON is encoded around its structuredContent in the buffer the content
// was encoded into (the text escaped straight into the room in front),
// byte for byte the result appendResult writes and framed as
// jsonrpc.AppendResult frames it, whether the room either side fits or
// not: results that grow (the room the last one left is too small in
// front), shrink, and escape much (quotes, backslashes, HTML characters
// as jsonenc writes them, U+2028, multi-byte characters).
func TestStructuredJSONTextFramedInPlace(t *testing.T) {
	for _, pointer := range []bool{false, true} {
		typ := reflect.TypeFor[jsonTextOut]()
		if pointer {
			typ = reflect.TypeFor[*jsonTextOut]()
		}
		o := newOutEncoder(typ)
		meta := []byte(`{"io.modelcontextprotocol/serverInfo":{"name":"t"}}`)
		values := []jsonTextOut{
			{City: "Paris", Temp: 21.5},
			{City: "Paris", Temp: 21.5},
			{City: `Oslo "cold" \ back`, Temp: -3, Tags: []string{"\n\x01", "<&>"}},
			{City: strings.Repeat(`"`, 400), Temp: 1},
			{City: "Lima", Temp: 18.25},
			{City: strings.Repeat("é\u2028", 300), Temp: 2, Tags: []string{strings.Repeat(`\`, 90)}},
			{City: "Rome", Temp: 30},
		}
		for i, v := range values {
			for _, meta := range [][]byte{meta, append(bytes.Repeat([]byte(" "), 100), meta...), meta} {
				var out any = v
				if pointer {
					out = &v
				}
				var scratch toolText
				var f resultFrame
				res, err := o.toolOutput(out, &scratch)
				if err != nil {
					t.Fatal(err)
				}
				tt := res.(*toolText)
				want := tt.appendResult(nil, meta)
				if got := tt.encodeIn(&f, meta); !bytes.Equal(got, want) {
					t.Fatalf("value %d: result\n%s\nwant\n%s", i, got, want)
				}
				id := jsonrpc.IntID(int64(i))
				wantResp := jsonrpc.AppendResult(nil, id, want)
				// nil: a fallback whose escaping outgrew encodedSize's
				// estimate, answered by copying (jsonrpc.AppendResult).
				if got := f.response(id, f.result); got != nil && !bytes.Equal(got, wantResp) {
					t.Fatalf("value %d: response\n%s\nwant\n%s", i, got, wantResp)
				}
			}
		}
		if pointer {
			var scratch toolText
			var f resultFrame
			res, _ := o.toolOutput((*jsonTextOut)(nil), &scratch)
			if got, want := res.(*toolText).encodeIn(&f, meta), res.(*toolText).appendResult(nil, meta); !bytes.Equal(got, want) {
				t.Fatalf("nil: %s, want %s", got, want)
			}
		}
	}
	o := newOutEncoder(reflect.TypeFor[jsonTextOut]())
	meta := []byte(`{"io.modelcontextprotocol/serverInfo":{"name":"t"}}`)
	v := jsonTextOut{City: "Paris", Temp: 21.5}
	var scratch toolText
	var f resultFrame
	allocs := testing.AllocsPerRun(100, func() {
		res, _ := o.toolOutput(v, &scratch)
		res.(*toolText).encodeIn(&f, meta)
	})
	if allocs != 2 {
		t.Errorf("%v allocations a result, want 2 (the Out in its interface; the content and the frame in one buffer)", allocs)
	}
}

// FuzzStructuredJSONTextFramed: for two structured results in a row (the
// second framed with the room the first left), encodeIn writes byte for
// byte the result appendResult writes, and a framed response is the one
// jsonrpc.AppendResult builds, whatever the strings (escapes, invalid
// UTF-8, sizes that grow or shrink) and the meta.
func FuzzStructuredJSONTextFramed(f *testing.F) {
	f.Add("Paris", "metric", "Oslo \"cold\"", 21.5, 4)
	f.Add(strings.Repeat(`\`, 70), "<&>\u2028", "\x00\x01\xff", -3.0, 0)
	f.Add("", "", strings.Repeat("é", 100), 1e300, 200)
	f.Fuzz(func(t *testing.T, first, tag, second string, temp float64, metaPad int) {
		o := newOutEncoder(reflect.TypeFor[jsonTextOut]())
		meta := append(bytes.Repeat([]byte(" "), max(0, metaPad%300)), `{"io.modelcontextprotocol/serverInfo":{"name":"t"}}`...)
		for i, v := range []jsonTextOut{{City: first, Temp: temp, Tags: []string{tag}}, {City: second, Temp: temp}, {City: first + second}} {
			var scratch toolText
			var fr resultFrame
			res, err := o.toolOutput(v, &scratch)
			if err != nil {
				return // a float jsonenc refuses (NaN, ±Inf), as encoding/json does
			}
			tt := res.(*toolText)
			want := tt.appendResult(nil, meta)
			if got := tt.encodeIn(&fr, meta); !bytes.Equal(got, want) {
				t.Fatalf("value %d: result\n%q\nwant\n%q", i, got, want)
			}
			id := jsonrpc.IntID(int64(i))
			if got := fr.response(id, fr.result); got != nil && !bytes.Equal(got, jsonrpc.AppendResult(nil, id, want)) {
				t.Fatalf("value %d: response\n%q", i, got)
			}
		}
	})
}
