package argcheck

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
	"testing"

	"github.com/mcpgen/mcpgen/internal/jsonscan"
)

// realLazyArgs builds arguments of at least LazyArrayMin bytes around the
// fuzzed element v, in one of a few layouts.
func realLazyArgs(v []byte, layout uint8) []byte {
	rep := func(prefix, sep, suffix string, n int) []byte {
		var b bytes.Buffer
		b.WriteString(prefix)
		for k := 0; k == 0 || b.Len() < n; k++ {
			if k > 0 {
				b.WriteString(sep)
			}
			b.Write(v)
		}
		b.WriteString(suffix)
		return b.Bytes()
	}
	n := jsonscan.LazyArrayMin + 16
	switch layout % 5 {
	case 0:
		return append(rep(`{"items":[`, ",", `],"str":`, n), append(append([]byte{}, v...), '}')...)
	case 1:
		return append(append([]byte(`{"nested":{"deep":{"l":`), rep("[", ",", "]", n)...), `}},"items":[`+string(v)+`]}`...)
	case 2:
		a := rep("[", ",", "]", n)
		return []byte(`{"grid":[` + string(a) + `,` + string(a) + `],"m":{"k":[` + string(v) + `]}}`)
	case 3:
		a := rep("[", ",", "]", n)
		return []byte(`{"m":{"x":` + string(a) + `,"y":` + string(a) + `},"any":[1]}`)
	default:
		return rep(`{"any":[`, " , ", `] , "str" : "s" }`, n)
	}
}

// FuzzLazyDecodeRealSize decodes real-size arguments with the spans the
// message's check records (as the server does) and without, against the
// whole tape.
func FuzzLazyDecodeRealSize(f *testing.F) {
	for _, s := range []string{`{"a":1,"x":"q"}`, `{"k":[{"a":2}],"c":[1,2]}`, `1`, `[1,2]`, `"s"`, `null`, `{"a":1e1001}`, `{"a":1,"a":2}`, `[`, `{"d":[1,{"z":"\u00e9"}],"g":"AA=="}`, `{"f":"12","e":"1.5"}`} {
		for layout := range 5 {
			f.Add([]byte(s), uint8(layout), uint8(0), uint8(0))
		}
	}
	var vs []*Validator
	for _, src := range append(append([]string(nil), wideSchemas...), lazySchemas...) {
		v, err := Compile(json.RawMessage(src))
		if err != nil {
			f.Fatal(err)
		}
		vs = append(vs, v)
	}
	f.Fuzz(func(t *testing.T, v []byte, layout, which, ty uint8) {
		if len(v) > 2000 {
			return
		}
		args := realLazyArgs(v, layout)
		val := vs[int(which)%len(vs)]
		typ := wideTypes[int(ty)%len(wideTypes)]
		d := NewTypeDecoder(typ, val)
		want := reflect.New(typ)
		werr := decodeWhole(d, args, want.Interface())
		msg := append(append([]byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","arguments":`), args...), `}}`...)
		var spans jsonscan.Spans
		if env, perr := jsonscan.ParseEnvelope(msg, jsonscan.MaxArgumentsDepth+2, jsonscan.Opaque{Root: "result"}, jsonscan.Opaque{Root: "params", Inner: "arguments", Spans: true}); perr == nil {
			p, _ := env.Member(0, "params")
			a, _ := env.Member(p, "arguments")
			if !bytes.Equal(env.Raw(a), args) {
				t.Fatal("raw")
			}
			args = env.Raw(a)
			spans = env.Spans(a)
		}
		for _, src := range []Source{{Spans: spans}, {}} {
			got := reflect.New(typ)
			gerr := d.DecodeFrom(args, src, got.Interface())
			if (werr == nil) != (gerr == nil) || werr != nil && werr.Error() != gerr.Error() {
				t.Fatalf("%.200s\nlazy error %v\nwhole error %v", args, gerr, werr)
			}
			var wp, gp *ValidationError
			if errors.As(werr, &wp) != errors.As(gerr, &gp) || wp != nil && !reflect.DeepEqual(wp.Problems, gp.Problems) {
				t.Fatalf("problems differ")
			}
			if !reflect.DeepEqual(got.Interface(), want.Interface()) {
				t.Fatalf("%.200s\nvalues differ into %v", args, typ)
			}
		}
	})
}
