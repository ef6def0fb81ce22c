package jsonscan

import (
	"fmt"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"
)

// shape writes node i's subtree of t as kinds, lengths and raw bytes,
// walking it with the public methods, so two tapes of the same document
// compare equal.
func shape(b *strings.Builder, t *Tape, i int) {
	fmt.Fprintf(b, "%d/%d/%q/%v(", t.Kind(i), t.Len(i), t.Raw(i), t.Kind(i) == KindString && t.Escaped(i))
	switch t.Kind(i) {
	case KindObject:
		for m := t.FirstMember(i); m >= 0; m = t.NextMember(i, m) {
			fmt.Fprintf(b, "%q:", t.Text(m))
			shape(b, t, m+1)
		}
	case KindArray:
		for e := t.FirstElement(i); e >= 0; e = t.NextElement(i, e) {
			shape(b, t, e)
		}
	case KindString:
		b.WriteString(t.Text(i))
	}
	fmt.Fprintf(b, ")%d,", t.Next(i)-i)
}

func shapeOf(t *Tape, i int) string {
	var b strings.Builder
	shape(&b, t, i)
	return b.String()
}

// FuzzTapeSub checks ParseKept against ParseTape (the same tape), Sub
// views against a parse of their own bytes (every node of a document),
// and ValidUTF8 against utf8.Valid.
func FuzzTapeSub(f *testing.F) {
	for _, s := range append(append([]string(nil), memberSeeds...), `[[1,{"a":[]}],"\u00e9","`+"\xc3"+`",{"b":{"c":[true,null]}}]`, `{"a":"\ud800","b":"é"}`,
		`{"b":1,"a":{"x":1,"x":2,"y":[`+"\"\xc3\""+`]},"c":[1]}`, `{"a":`+strings.Repeat("[", 100)+strings.Repeat("]", 100)+`}`, `{"a":[1,],"b":2}`, `{"a":1,"a":{}}`, `{"\u0061":[1,2],"b":{"c":{"c":1}}}`, `{"b":{"c":{"x":1,"x":2},"d":{"c":[1]}},"c":[2]}`, `{"b":[{"c":[1]}]}`) {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		checkEnvelope(t, data)
		pooled, perr := ParseTape(data, 64)
		kept, kerr := ParseKept(data, 64)
		if (perr == nil) != (kerr == nil) || perr != nil && perr.Error() != kerr.Error() {
			t.Fatalf("%q: ParseTape error %v, ParseKept %v", data, perr, kerr)
		}
		if perr != nil {
			return
		}
		defer pooled.Release()
		if a, b := shapeOf(pooled, 0), shapeOf(&kept, 0); a != b {
			t.Fatalf("%q: ParseKept\n%s\nParseTape\n%s", data, b, a)
		}
		if kept.ValidUTF8() != utf8.Valid(data) {
			t.Fatalf("%q: ValidUTF8 %v", data, kept.ValidUTF8())
		}
		for i := 0; i < kept.Nodes(); i = nextNode(&kept, i) {
			sub := kept.Sub(i)
			own, err := ParseTape(kept.Raw(i), 64)
			if err != nil {
				t.Fatalf("%q: node %d %q does not parse alone: %v", data, i, kept.Raw(i), err)
			}
			if a, b := shapeOf(own, 0), shapeOf(&sub, 0); a != b {
				t.Fatalf("%q: Sub(%d)\n%s\nits own parse\n%s", data, i, b, a)
			}
			if sub.Nodes() != own.Nodes() {
				t.Fatalf("%q: Sub(%d) has %d nodes, its own parse %d", data, i, sub.Nodes(), own.Nodes())
			}
			own.Release()
			sub.Release() // does nothing: kept's nodes stay
		}
	})
}

// checkEnvelope checks ParseEnvelope with the opaque values a and b.c
// against ParseKept: it accepts what ParseKept accepts, with the same
// members and raw values (the same subtrees but for a's and b's), and
// whatever else it accepts is valid JSON (ParseKept may refuse a name
// repeated or nesting inside an opaque value).
func checkEnvelope(t *testing.T, data []byte) {
	env, eerr := ParseEnvelope(data, 64, Opaque{Root: "a"}, Opaque{Root: "b", Inner: "c"})
	kept, kerr := ParseKept(data, 64)
	if kerr == nil && eerr != nil {
		t.Fatalf("%q: ParseEnvelope: %v", data, eerr)
	}
	if eerr != nil {
		return
	}
	if !Valid(data) {
		t.Fatalf("%q: ParseEnvelope accepted what Valid refuses", data)
	}
	if env.ValidUTF8() != utf8.Valid(data) {
		t.Fatalf("%q: ParseEnvelope ValidUTF8 %v", data, env.ValidUTF8())
	}
	if env.Kind(0) != KindObject {
		if kerr != nil || shapeOf(&env, 0) != shapeOf(&kept, 0) {
			t.Fatalf("%q: not an object: ParseEnvelope differs from ParseKept (%v)", data, kerr)
		}
		return
	}
	for m := env.FirstMember(0); m >= 0; m = env.NextMember(0, m) {
		if k := env.Kind(m + 1); env.Text(m) == "a" && k >= KindArray && (env.Len(m+1) != 0 || !env.Opaque(m+1)) {
			t.Fatalf("%q: opaque value has %d members on the tape (%v)", data, env.Len(m+1), env.Opaque(m+1))
		}
		if env.Text(m) == "a" || kerr != nil {
			continue
		}
		if env.Text(m) == "b" && env.Kind(m+1) == KindObject {
			if c, ok := env.Member(m+1, "c"); ok && env.Kind(c) >= KindArray && !env.Opaque(c) {
				t.Fatalf("%q: b.c is not opaque", data)
			}
			v, _ := kept.Member(0, "b")
			if string(kept.Raw(v)) != string(env.Raw(m+1)) {
				t.Fatalf("%q: b raw %q, want %q", data, env.Raw(m+1), kept.Raw(v))
			}
			continue
		}
		v, ok := kept.Member(0, env.Text(m))
		if !ok || shapeOf(&kept, v) != shapeOf(&env, m+1) {
			t.Fatalf("%q: member %q differs", data, env.Text(m))
		}
	}
	if kerr == nil {
		if v, ok := kept.Member(0, "a"); ok {
			w, _ := env.Member(0, "a")
			if string(kept.Raw(v)) != string(env.Raw(w)) {
				t.Fatalf("%q: opaque raw %q, want %q", data, env.Raw(w), kept.Raw(v))
			}
		}
		if env.Len(0) != kept.Len(0) {
			t.Fatalf("%q: %d members, want %d", data, env.Len(0), kept.Len(0))
		}
	}
}

// nextNode steps to the next node in document order (into containers).
func nextNode(t *Tape, i int) int {
	if t.Kind(i) >= KindArray {
		return i + 2
	}
	return i + 1
}

// TestKeptTapeOutlivesPool: a kept tape (a message's, which a task or a
// stream may read after its request returned) and its Sub views are never
// handed to the pool, whatever Release calls they get, while other parses
// take and return pooled tapes from several goroutines (run with -race).
func TestKeptTapeOutlivesPool(t *testing.T) {
	doc := []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","arguments":{"a":[1,2,{"b":"c"}]}}}`)
	kept, err := ParseKept(doc, 8)
	if err != nil {
		t.Fatal(err)
	}
	want := shapeOf(&kept, 0)
	params, _ := kept.Member(0, "params")
	args, _ := kept.Member(params, "arguments")
	sub := kept.Sub(args)
	wantSub := shapeOf(&sub, 0)
	kept.Release()
	sub.Release()
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			other := []byte(fmt.Sprintf(`{"z":[%d,%d,%d,{"y":"%d"}],"w":null}`, g, g, g, g))
			for range 2000 {
				o, err := ParseTape(other, 8)
				if err != nil {
					t.Error(err)
					return
				}
				o.Release()
				if got := shapeOf(&sub, 0); got != wantSub {
					t.Errorf("Sub view changed: %s", got)
					return
				}
			}
		})
	}
	wg.Wait()
	if got := shapeOf(&kept, 0); got != want {
		t.Fatalf("kept tape changed:\n%s\nwant\n%s", got, want)
	}
}

// FuzzSkipPlain checks skipPlain's word tests, and the byte they stop at,
// against a byte loop.
func FuzzSkipPlain(f *testing.F) {
	for _, s := range []string{"abcdefgh\"", "abcdefghijklmnop\\", "\x1f", "abcdefg\x80hijklmno", "\x20\x20\x20\x20\x20\x20\x20\x1f", "\xff\xff\xff\xff\xff\xff\xff\x00"} {
		f.Add([]byte(s), true)
		f.Add([]byte(s), false)
	}
	f.Fuzz(func(t *testing.T, data []byte, ascii bool) {
		// The first byte to look at, when a whole block holds it, else the
		// start of the last partial block.
		want := len(data) - len(data)%8
		for i, c := range data[:want] {
			if c == '"' || c == '\\' || c < 0x20 || ascii && c >= 0x80 {
				want = i
				break
			}
		}
		high := uint64(0)
		if ascii {
			high = highBytes
		}
		if got := skipPlain(data, 0, high); got != want {
			t.Fatalf("skipPlain(%q, %v) = %d, want %d", data, ascii, got, want)
		}
	})
}
