package jsonenc

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"

	"github.com/mcpgen/mcpgen/jsonrpc"
)

// FuzzJSONText holds jsonrpc.AppendJSONText to jsonrpc.AppendString and to
// encoding/json on what it is made for: the encoder's output for the
// values FuzzMarshal builds (its fuzzTypes, from json.Unmarshal of the
// input or set field by field), escaped as a tool result's text is, in a
// buffer with the room the block loop needs and in one without. Reading
// the string back gives the encoding (which is UTF-8).
func FuzzJSONText(f *testing.F) {
	for _, s := range []string{
		"\x00\x00{}", "\x00\x01\x05\x07\x09\x01\xff", "\x01\x00{\"a\":1,\"b\":\"2\"}",
		"\x05\x00{\"x\":[1,2.5,\"\\u2028<>\",null,{\"y\":true}]}", "\x04\x01\x02\x02\x02\x01\x02\x01",
		"\x00\x01" + string(bytes.Repeat([]byte{3, 7, 200, 1}, 60)), "\x06\x00{\"!\":1,\"<\":2}",
		"\x0c\x01\x10", "\x08\x01\x07\x22\x01\x21", "\x07\x00[\"a\\\"b\\\\c\",\"é\\n\",1e21]",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) < 2 {
			return
		}
		p := fuzzTypes[int(data[0])%len(fuzzTypes)]()
		if data[1]&1 == 0 {
			_ = json.Unmarshal(data[2:], p)
		} else {
			fl := &filler{data: data[2:], budget: 64}
			fl.fill(reflect.ValueOf(p).Elem())
		}
		enc, err := Marshal(p)
		if err != nil {
			return
		}
		want := jsonrpc.AppendString([]byte("x"), enc)
		for _, spare := range []int{2*len(enc) + 8, len(enc)} {
			dst := make([]byte, 1, 1+spare)
			dst[0] = 'x'
			if got := jsonrpc.AppendJSONText(dst, enc); !bytes.Equal(got, want) {
				t.Fatalf("AppendJSONText(%s), spare %d = %s, want %s", enc, spare, got, want)
			}
		}
		var back string
		if err := json.Unmarshal(want[1:], &back); err != nil || back != string(enc) {
			t.Fatalf("AppendString(%s) = %s: read back %q, %v", enc, want, back, err)
		}
	})
}
