package server

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/internal/jsonscan"
)

// decodeMarshalIdentity is the identity as it was first written: decode
// the arguments into an any (UseNumber) and marshal them again. The tape
// form must agree with it byte for byte, so states sealed by either open
// with the other.
func decodeMarshalIdentity(method, name string, args []byte) string {
	canon := []byte("{}")
	if a := bytes.TrimSpace(args); !jsonscan.IsNullOrAbsent(a) && string(a) != "{}" {
		dec := json.NewDecoder(bytes.NewReader(a))
		dec.UseNumber()
		var v any
		if dec.Decode(&v) == nil {
			if b, err := json.Marshal(v); err == nil {
				canon = b
			}
		} else {
			canon = a
		}
	}
	return method + "\x00" + name + "\x00" + string(canon)
}

var identitySeeds = []string{
	``, `null`, `{}`, ` { } `, `[]`, `"x"`, `12`, `-0.5e+3`, `true`,
	`{"b":1,"a":2}`, `{ "a" : [1, 2.50, {"z":null,"y":false}] , "b":"s" }`,
	`{"n\u0061me":"<a href='x'>&amp;</a>","name2":"\u2028\u2029"}`,
	`{"s":"tab\there\nnew\"q\\ \u0001\u001f\u007f"}`,
	`{"é":"ünïcode","\ud83d\ude00":"\ud800 lone","x":"\udc00"}`,
	"{\"bad\":\"\xff\xfe utf8\",\"\xc3\":1}",
	`{"a":1,"a":2}`, `{"a":{"b":1,"b":[2]}}`,
	`{"a":1} trailing`, `{"a":01}`, `{"a":`, `[1,2,]`,
	`{"B":1,"a":2,"_":3,"A":4,"aa":5,"":6}`,
	`{"items":[{"name":"n0","value":0,"tags":["a","b"]},{"tags":[],"value":1.0,"name":"n1"}]}`,
}

func TestIdentityMatchesDecodeMarshal(t *testing.T) {
	deep := []string{ // past canonicalMaxDepth: the encoding/json path
		strings.Repeat(`[`, canonicalMaxDepth+1) + strings.Repeat(`]`, canonicalMaxDepth+1),
		strings.Repeat(`{"a":`, canonicalMaxDepth+200) + `1` + strings.Repeat(`}`, canonicalMaxDepth+200),
		strings.Repeat(`[`, 10001) + strings.Repeat(`]`, 10001),
	}
	for _, args := range append(identitySeeds, deep...) {
		if got, want := identity("tools/call", "t", []byte(args)), decodeMarshalIdentity("tools/call", "t", []byte(args)); got != want {
			t.Errorf("identity(%q):\n got %q\nwant %q", args, got, want)
		}
	}
}

// The identity is canonical: the same arguments written differently agree,
// different arguments do not.
func TestIdentityCanonical(t *testing.T) {
	same := [][2]string{
		{`{"b":1,"a":[1,{"y":2,"x":3}]}`, "{ \"a\" : [ 1 , { \"x\":3 ,\"y\" :2 } ] ,\n\t\"b\":1 }"},
		{`{"name":"<é>"}`, `{"n\u0061me":"\u003c\u00e9\u003e"}`},
		{`{"s":"a/b"}`, `{"s":"a\/b"}`},
		{``, `null`},
		{`null`, ` {} `},
	}
	for _, p := range same {
		if identity("m", "n", []byte(p[0])) != identity("m", "n", []byte(p[1])) {
			t.Errorf("identity(%s) != identity(%s)", p[0], p[1])
		}
	}
	differ := [][2]string{
		{`{"a":1}`, `{"a":2}`},
		{`{"a":1}`, `{"a":"1"}`},
		{`{"a":1}`, `{"a":1.0}`},
		{`{"a":[1,2]}`, `{"a":[2,1]}`},
		{`{"a":"x"}`, `{"b":"x"}`},
		{`{"a":null}`, `{}`},
		{`{"a":{"b":1}}`, `{"a":{"b":1},"c":0}`},
	}
	for _, p := range differ {
		if identity("m", "n", []byte(p[0])) == identity("m", "n", []byte(p[1])) {
			t.Errorf("identity(%s) == identity(%s)", p[0], p[1])
		}
	}
	if identity("m", "n", nil) == identity("m", "o", nil) || identity("m", "n", nil) == identity("p", "n", nil) {
		t.Errorf("the identity does not bind the method and the name")
	}
}

func FuzzIdentityCanonical(f *testing.F) {
	for _, s := range identitySeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, args []byte) {
		if got, want := identity("tools/call", "t", args), decodeMarshalIdentity("tools/call", "t", args); got != want {
			t.Fatalf("identity(%q):\n got %q\nwant %q", args, got, want)
		}
	})
}

func BenchmarkIdentity(b *testing.B) {
	var sb strings.Builder
	sb.WriteString(`{"items":[`)
	for i := 0; sb.Len() < 1<<10; i++ {
		if i > 0 {
			sb.WriteByte(',')
		}
		sb.WriteString(`{"name":"item","value":12,"tags":["a","b"]}`)
	}
	sb.WriteString(`]}`)
	args := []byte(sb.String())
	b.Run("tape", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_ = identity("tools/call", "confirm_nested", args)
		}
	})
	b.Run("decode-marshal", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_ = decodeMarshalIdentity("tools/call", "confirm_nested", args)
		}
	})
}
