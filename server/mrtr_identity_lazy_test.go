package server

import (
	"bytes"
	"testing"

	"github.com/mcpgen/mcpgen/internal/jsonscan"
)

// FuzzIdentityDigestAnyArgs: identityDigestOf on any argument bytes, with any
// lazy threshold, against the digest of identity's text.
func FuzzIdentityDigestAnyArgs(f *testing.F) {
	for _, v := range lazyIdentitySeeds {
		f.Add([]byte(v), uint8(1))
		f.Add(lazyIdentityArgs(v, 50), uint8(4))
	}
	f.Add([]byte(` {"b":[1,{"a":[2,3]},[[4]]],"a":"\u2028<"} `), uint8(2))
	f.Add([]byte("\v{\"a\":[1]}\u0085"), uint8(1))
	f.Fuzz(func(t *testing.T, args []byte, min uint8) {
		defer jsonscan.SetLazySizesForTest(jsonscan.LazySizes{Array: int(min%32) + 1})()
		if got, want := identityDigestOf("m", "n", args, jsonscan.Spans{}, "p"), wantDigest("m", "n", args, "p"); got != want {
			t.Fatalf("%q (min %d): digest differs from identity's", args, jsonscan.LazyMin())
		}
	})
}

// FuzzIdentityDigestRealSize: real sizes (the canonical form flushed to the
// hash, the message's spans), v repeated in a few layouts.
func FuzzIdentityDigestRealSize(f *testing.F) {
	for _, v := range lazyIdentitySeeds {
		f.Add([]byte(v), uint8(0))
		f.Add([]byte(v), uint8(1))
		f.Add([]byte(v), uint8(2))
	}
	f.Fuzz(func(t *testing.T, v []byte, layout uint8) {
		if len(v) > 4000 {
			return
		}
		var b bytes.Buffer
		el := func(n int) {
			b.WriteByte('[')
			for k := 0; k == 0 || b.Len() < n; k++ {
				if k > 0 {
					b.WriteByte(',')
				}
				b.Write(v)
			}
			b.WriteByte(']')
		}
		switch layout % 3 {
		case 0:
			b.WriteString(`{"z":`)
			el(jsonscan.LazyArrayMin + 10)
			b.WriteString(`,"a":`)
			b.Write(v)
			b.WriteString(`}`)
		case 1:
			b.WriteString(`{"m":{"y":`)
			el(jsonscan.LazyArrayMin + 10)
			b.WriteString(`,"b":`)
			el(2*jsonscan.LazyArrayMin + 40)
			b.WriteString(`}}`)
		default:
			b.WriteString(`[`)
			el(jsonscan.LazyArrayMin + 10)
			b.WriteString(` , `)
			b.Write(v)
			b.WriteString(`]`)
		}
		args := b.Bytes()
		want := wantDigest("tools/call", "t", args, "p")
		if got := identityDigestOf("tools/call", "t", args, jsonscan.Spans{}, "p"); got != want {
			t.Fatalf("%.100q: digest differs", args)
		}
		msg := append(append([]byte(`{"params":{"arguments":`), args...), `}}`...)
		env, err := jsonscan.ParseEnvelope(msg, 600, jsonscan.Opaque{Root: "params", Inner: "arguments", Spans: true})
		if err != nil {
			return
		}
		p, _ := env.Member(0, "params")
		a, _ := env.Member(p, "arguments")
		if got := identityDigestOf("tools/call", "t", env.Raw(a), env.Spans(a), "p"); got != want {
			t.Fatalf("%.100q: digest with spans differs", args)
		}
	})
}
