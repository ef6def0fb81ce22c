package jsonrpc

import (
	"bytes"
	"os"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/internal/jsonscan"
)

// tapeSeeds exercise the envelope read from the one parse: escaped member
// names, names repeated at the envelope and deeper (where the tape refuses
// the message and decodeBytes answers), nesting at and beyond the tape's
// depth, invalid UTF-8 in strings, and error objects.
var tapeSeeds = []string{
	`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":{"a":1,"a":2}}}`,
	`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","name":"y"}}`,
	`{"jsonrpc":"2.0","id":1,"method":"m","id":2}`,
	`{"jsonrpc":"2.0","id":1,"result":{"a":1,"a":2}}`,
	`{"jsonrpc":"2.0","id":1,"error":{"code":1,"message":"m","code":2}}`,
	`{"jsonrpc":"2.0","id":1,"error":{"code":1,"message":"m","data":{"x":1,"x":1}}}`,
	`{"jsonrpc":"2.0","id":1,"error":{"code":1e3,"message":"m"}}`,
	`{"jsonrpc":"2.0","id":1,"error":{"code":99999999999999999999,"message":"m"}}`,
	`{"jsonrpc":"2.0","id":1,"error":{"code":1,"message":"\u00e9\ud800"}}`,
	`{"jsonrpc":"2.0","id":1,"error":[]}`,
	`{"jsonrpc":"\u0032.0","id":"\u0061","method":"tools\/call"}`,
	`{"jsonrpc":"2.0","id":1,"method":"m","params":"x"}`,
	`{"jsonrpc":"2.0","id":1,"method":"m","params":[1,2]}`,
	`{"jsonrpc":"2.0","id":null,"method":"m"}`,
	`{"jsonrpc":"2.0","id":01,"method":"m"}`,
	`{"jsonrpc":"2.0","method":1}`,
	`{"jsonrpc":"2.0","id":1,"method":"m","result":1}`,
	`{"jsonrpc":"2.0","id":1,"a":1,"b":2,"c":3,"d":4,"e":5,"f":6,"g":7,"h":8,"a":9,"method":"m"}`,
	"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"m\",\"params\":{\"x\":\"\xc3\"}}",
	"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"m\",\"params\":{\"x\":\"\xc3\"},\"params\":1}",
	` {"jsonrpc":"2.0","id":1,"method":"m"} `,
	`"x"`, `1`, `[1`, `{"a":1}x`,
	`{"jsonrpc":"2.0","id":1,"result":` + strings.Repeat("[", 600) + strings.Repeat("]", 600) + `}`,
	`{"jsonrpc":"2.0","id":1,"result":` + strings.Repeat("[", 10001) + strings.Repeat("]", 10001) + `}`,
	"{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"a\":[\"\xc3\"]}}",
	`{"jsonrpc":"2.0","id":1,"result":{"a":1,"a":2},"result":3}`,
	`{"jsonrpc":"2.0","id":1,"\u0072esult":[1,{"a":2,"a":3}]}`,
	`{"jsonrpc":"2.0","id":1,"result":[1,]}`,
	`{"jsonrpc":"2.0","id":1,"method":"m","params":{"arguments":` + strings.Repeat("[", tapeDepth-2) + strings.Repeat("]", tapeDepth-2) + `}}`,
	`{"jsonrpc":"2.0","id":1,"method":"m","params":{"arguments":` + strings.Repeat("[", tapeDepth-1) + strings.Repeat("]", tapeDepth-1) + `}}`,
	`{"jsonrpc":"2.0","id":1,"method":"m","params":{"arguments":` + strings.Repeat("[", tapeDepth-1) + strings.Repeat("]", tapeDepth-1) + `},"id":2}`,
}

// FuzzDecodeTape checks Decode, which reads the envelope from one parse of
// the message (ParseKept), against decodeBytes, the scans of the bytes it
// replaced (the old Decode, kept as the verdict of messages that parse
// refuses): the same Message and the same *Error for every input, and a
// request's ParamsTape is the parse of its Params.
func FuzzDecodeTape(f *testing.F) {
	for _, s := range append(append([]string(nil), decodeSeeds...), tapeSeeds...) {
		f.Add([]byte(s))
	}
	for _, file := range specExamples(f) {
		data, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		got, gerr := Decode(data)
		want, werr := decodeBytes(data)
		if !reflect.DeepEqual(gerr, werr) {
			t.Fatalf("%q: error %#v, want %#v", data, gerr, werr)
		}
		if tp, i, ok := got.ParamsTape(); ok && !bytes.Equal(tp.Raw(i), got.Params) {
			t.Fatalf("%q: params tape %q, params %q", data, tp.Raw(i), got.Params)
		}
		got.tape, got.params = jsonscan.Tape{}, 0
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%q: message %#v, want %#v", data, got, want)
		}
	})
}

// TestDecodeTapeSeeds runs the seeds of FuzzDecodeTape without -fuzz, and
// checks that a request decoded from one parse carries it.
func TestDecodeTapeSeeds(t *testing.T) {
	msg, err := Decode([]byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x"}}`))
	if err != nil {
		t.Fatal(err)
	}
	tp, i, ok := msg.ParamsTape()
	if !ok || string(tp.Raw(i)) != `{"name":"x"}` {
		t.Fatalf("ParamsTape = %v, %d, %v", tp, i, ok)
	}
	msg.Params = []byte(`{"name":"x"}`) // replaced: the parse is no longer its
	if _, _, ok := msg.ParamsTape(); ok {
		t.Fatal("ParamsTape of replaced Params")
	}
	// A name repeated inside params: the parse refuses the message, its
	// envelope is read from the bytes, and params are left to their reader.
	msg, err = Decode([]byte(`{"jsonrpc":"2.0","id":1,"method":"m","params":{"a":1,"a":2}}`))
	if err != nil || string(msg.Params) != `{"a":1,"a":2}` {
		t.Fatalf("Decode = %#v, %v", msg, err)
	}
	if _, _, ok := msg.ParamsTape(); ok {
		t.Fatal("ParamsTape of a message the parse refused")
	}
}

// TestDecodeLargeResult: a response's result is only checked, not put on
// the tape, so decoding a 1 MB result of small values costs no nodes (a
// tape of it would take 8 bytes for each of its 500 000 numbers).
func TestDecodeLargeResult(t *testing.T) {
	data := []byte(`{"jsonrpc":"2.0","id":1,"result":[` + strings.Repeat("1,", 500_000) + `1]}`)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	msg, err := Decode(data)
	runtime.ReadMemStats(&after)
	if err != nil || msg.Kind != KindResponse || len(msg.Result) != len(data)-len(`{"jsonrpc":"2.0","id":1,"result":}`) {
		t.Fatalf("Decode = %v, %v (result %d bytes)", msg.Kind, err, len(msg.Result))
	}
	if got := after.TotalAlloc - before.TotalAlloc; got > 64<<10 {
		t.Fatalf("decoding a 1 MB result allocated %d bytes", got)
	}
}
