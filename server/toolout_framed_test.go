package server

import (
	"bytes"
	"reflect"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/jsonrpc"
)

// framedOut is a structured Out with a text of its own.
type framedOut struct {
	City string  `json:"city"`
	Temp float64 `json:"temp"`
	text string
}

func (o *framedOut) String() string { return o.text }

// TestStructuredFramedInPlace: a structured Out's result is encoded
// around its structuredContent, in the buffer the content was encoded
// into (one allocation for both, where the content's own buffer was copied
// into the frame's), byte for byte the result appendResult writes, and
// framed as jsonrpc.AppendResult frames it, whether the text fits the
// room the last result left or not.
func TestStructuredFramedInPlace(t *testing.T) {
	o := newOutEncoder(reflect.TypeFor[*framedOut]())
	meta := []byte(`{"io.modelcontextprotocol/serverInfo":{"name":"t"}}`)
	long := strings.Repeat("a long text, ", 40)
	for i, v := range []*framedOut{
		{City: "Paris", Temp: 21.5, text: "Paris: 21.50"},
		{City: "Oslo", Temp: -3, text: "Oslo: \"cold\"\n\x01"},
		{City: "<Rome>", Temp: 30, text: long},
		{City: strings.Repeat("é", 300), Temp: 1, text: "short again"},
		{City: "Lima", Temp: 18.25, text: long + long},
		nil,
	} {
		var scratch toolText
		var f resultFrame
		res, err := o.toolOutput(v, &scratch)
		if err != nil {
			t.Fatal(err)
		}
		tt := res.(*toolText)
		want := tt.appendResult(nil, meta)
		if got := tt.encodeIn(&f, meta); !bytes.Equal(got, want) {
			t.Fatalf("call %d: result\n%s\nwant\n%s", i, got, want)
		}
		id := jsonrpc.IntID(int64(i))
		wantResp := jsonrpc.AppendResult(nil, id, want)
		if got := f.response(id, f.result); !bytes.Equal(got, wantResp) {
			t.Fatalf("call %d: response\n%s\nwant\n%s", i, got, wantResp)
		}
	}
	v := &framedOut{City: "Paris", Temp: 21.5, text: "Paris: 21.50"}
	var scratch toolText
	var f resultFrame
	allocs := testing.AllocsPerRun(100, func() {
		res, _ := o.toolOutput(v, &scratch)
		res.(*toolText).encodeIn(&f, meta)
	})
	if allocs != 1 {
		t.Errorf("%v allocations a result, want 1 (the content and the frame in one buffer)", allocs)
	}
}
