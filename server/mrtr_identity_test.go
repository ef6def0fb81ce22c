package server

import (
	"bytes"
	"crypto/sha256"
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

// digestOf is the digest seal and unseal take for an identity's text.
func digestOf(id string) [sha256.Size]byte { return sha256.Sum256([]byte(id)) }

// wantDigest is the digest identityDigestOf must return: of identity's
// text, a zero byte and the principal.
func wantDigest(method, name string, args []byte, principal string) [sha256.Size]byte {
	return sha256.Sum256(append(append([]byte(identity(method, name, args)), 0), principal...))
}

// lazyIdentityArgs is arguments of at least n bytes around v: v in a large
// array, as a member, and in an array of an inner object, members out of
// order.
func lazyIdentityArgs(v string, n int) []byte {
	var b strings.Builder
	b.WriteString(`{"z":[`)
	for k := 0; k == 0 || b.Len() < n; k++ {
		if k > 0 {
			b.WriteByte(',')
		}
		b.WriteString(v)
	}
	b.WriteString(`],"a":` + v + `,"m":{"y":[` + v + `,` + v + `],"b":1}}`)
	return []byte(b.String())
}

var lazyIdentitySeeds = []string{
	`1`, `"x"`, `{"q":1,"p":[2,{"s":"\u00e9<>&","r":null}]}`, `[1,[2,[3]]]`, `"\u2028"`, `{"a":1,"a":2}`, `[`, `{"b":"` + "\xff" + `"}`, `1e400`, `{}`, `[]`,
}

// TestIdentityDigestLazy: large arguments are hashed through the lazy parse
// (with spans from their message's check, and without) to exactly the
// digest of identity's text.
func TestIdentityDigestLazy(t *testing.T) {
	for _, v := range lazyIdentitySeeds {
		args := lazyIdentityArgs(v, jsonscan.LazyArrayMin)
		want := wantDigest("tools/call", "t", args, "p")
		if got := identityDigestOf("tools/call", "t", args, jsonscan.Spans{}, "p"); got != want {
			t.Fatalf("%.80s…: digest differs from identity's", args)
		}
		msg := append(append([]byte(`{"params":{"arguments":`), args...), `}}`...)
		env, err := jsonscan.ParseEnvelope(msg, 600, jsonscan.Opaque{Root: "params", Inner: "arguments", Spans: true})
		if err != nil {
			continue
		}
		p, _ := env.Member(0, "params")
		a, _ := env.Member(p, "arguments")
		if got := identityDigestOf("tools/call", "t", env.Raw(a), env.Spans(a), "p"); got != want {
			t.Fatalf("%.80s…: digest with the message's spans differs from identity's", args)
		}
		if _, ok := lazyIdentityDigest("tools/call", "t", env.Raw(a), env.Spans(a), "p"); !ok && json.Valid(args) && !strings.Contains(v, `"a":1,"a"`) {
			t.Fatalf("%.80s…: the lazy path gave up on valid arguments", args)
		}
	}
}

// FuzzIdentityDigestLazy holds identityDigestOf, with every array lazy, to
// the digest of identity's text, on any value.
func FuzzIdentityDigestLazy(f *testing.F) {
	for _, v := range lazyIdentitySeeds {
		f.Add(v, uint8(3))
	}
	f.Fuzz(func(t *testing.T, v string, reps uint8) {
		defer jsonscan.SetLazySizesForTest(jsonscan.LazySizes{Array: 1})()
		args := lazyIdentityArgs(v, len(v)*int(reps%8))
		if got, want := identityDigestOf("m", "n", args, jsonscan.Spans{}, "p"), wantDigest("m", "n", args, "p"); got != want {
			t.Fatalf("%q: digest differs from identity's", args)
		}
	})
}
