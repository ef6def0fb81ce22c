package argcheck

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/mcpgen/mcpgen/internal/jsonscan"
)

// BenchmarkDecodeLargeArray decodes {"items":[…]} of 20 000 items (about
// 1.1 MB) into []lazyItem element-wise (with the spans the message's check
// found, as the server does) and through a tape of the whole: the same
// instructions (bench/scripts/icount.sh), about 1.4 MB less allocated.
func BenchmarkDecodeLargeArray(b *testing.B) {
	v, err := Compile(json.RawMessage(`{"type":"object","properties":{"items":{"type":"array","items":{"type":"object","required":["name","value","tags"],"properties":{"name":{"type":"string"},"value":{"type":"integer"},"tags":{"type":"array","items":{"type":"string"}}}}}}}`))
	if err != nil {
		b.Fatal(err)
	}
	msg := `{"params":{"arguments":{"items":` + itemsArray(20000) + `}}}`
	env, perr := jsonscan.ParseEnvelope([]byte(msg), maxDepth+2, jsonscan.Opaque{Root: "params", Inner: "arguments", Spans: true})
	if perr != nil {
		b.Fatal(perr)
	}
	p, _ := env.Member(0, "params")
	a, _ := env.Member(p, "arguments")
	args, spans := env.Raw(a), env.Spans(a)
	d := NewTypeDecoder(reflect.TypeFor[lazyArgs](), v)
	b.Run("lazy", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var out lazyArgs
			if err := d.DecodeFrom(args, Source{Spans: spans}, &out); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("whole", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var out lazyArgs
			if err := decodeWhole(d, args, &out); err != nil {
				b.Fatal(err)
			}
		}
	})
}
