package jsonscan

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
)

// flatNode is one value of a document in document order: its kind and
// bytes, the way a walk of a whole tape and a walk of a lazy tape through
// its windows must both see it.
type flatNode struct {
	kind NodeKind
	raw  string
	n    int // members or elements
}

// flatten appends node i's subtree of t in document order, reading lazy
// arrays through their windows; it reports a window's error.
func flatten(out []flatNode, t *Tape, i int) ([]flatNode, *SyntaxError) {
	out = append(out, flatNode{t.Kind(i), string(t.Raw(i)), t.Len(i)})
	switch {
	case t.Lazy(i):
		w := t.Windows(i)
		defer w.Release()
		k := 0
		for w.Next() {
			if w.First() != k {
				return out, &SyntaxError{msg: fmt.Sprintf("window starts at element %d, want %d", w.First(), k)}
			}
			wt := w.Tape()
			for e := wt.FirstElement(0); e >= 0; e = wt.NextElement(0, e) {
				var err *SyntaxError
				if out, err = flatten(out, wt, e); err != nil {
					return out, err
				}
				k++
			}
		}
		if w.Err() != nil {
			return out, w.Err()
		}
		if k != t.Len(i) {
			return out, &SyntaxError{msg: fmt.Sprintf("windows held %d elements, Len %d", k, t.Len(i))}
		}
	case t.Kind(i) == KindArray:
		for e := t.FirstElement(i); e >= 0; e = t.NextElement(i, e) {
			var err *SyntaxError
			if out, err = flatten(out, t, e); err != nil {
				return out, err
			}
		}
	case t.Kind(i) == KindObject:
		for m := t.FirstMember(i); m >= 0; m = t.NextMember(i, m) {
			out = append(out, flatNode{KindString, string(t.Raw(m)), 0})
			var err *SyntaxError
			if out, err = flatten(out, t, m+1); err != nil {
				return out, err
			}
		}
	}
	return out, nil
}

// checkLazy holds parseLazy(data, depth, min) to ParseTape: the same
// verdict (a refusal by the parse or by a window), and on success the same
// values in the same order.
func checkLazy(t *testing.T, data []byte, depth, min int) {
	t.Helper()
	want, werr := ParseTape(data, depth)
	got, gerr := parseLazy(data, depth, min)
	var flat []flatNode
	if gerr == nil {
		flat, gerr = flatten(nil, got, 0)
		got.Release()
	}
	if (werr == nil) != (gerr == nil) {
		t.Fatalf("%q (min %d): ParseTape err %v, lazy err %v", data, min, werr, gerr)
	}
	if werr != nil {
		return
	}
	wantFlat, _ := flatten(nil, want, 0)
	want.Release()
	if len(flat) != len(wantFlat) {
		t.Fatalf("%q (min %d): %d values, want %d", data, min, len(flat), len(wantFlat))
	}
	for k := range flat {
		if flat[k] != wantFlat[k] {
			t.Fatalf("%q (min %d): value %d is %+v, want %+v", data, min, k, flat[k], wantFlat[k])
		}
	}
}

var lazySeeds = []string{
	`{"items":[1,2,3]}`, `{"a":[],"b":[ ],"c":[1]}`, `{"x":{"y":[[1,2],[3,[4]]],"z":"]"}}`,
	`{"s":["a\"]","b\\","c"],"n":[-1.5e3,0,true,false,null]}`, `[[1,2],[3]]`, `{"a":[1,2,]}`, `{"a":[1 2]}`,
	`{"a":[{"k":1,"k":2}]}`, `{"a":["` + "\xff" + `"]}`, `{"a":[1,2],"b":[3`, `{"a":[1,2]]`, `{"a":[}`,
	`{"a":["\u00e9", "x"]}`, `{"items":[{"name":"item-0000001","value":1,"tags":["alpha","beta"]}]}`,
	` { "a" : [ 1 , 2 ] , "b" : [ ] } `, `{"a":[[[[1]]]]}`, `{"a":"[1,2,3]"}`, `{"a":[1,2]}x`,
}

func TestParseLazyMatchesParseTape(t *testing.T) {
	for _, s := range lazySeeds {
		for _, min := range []int{1, 2, 3, 5, 8, 1 << 20} {
			checkLazy(t, []byte(s), 64, min)
		}
	}
	// Depth: elements of a lazy array count from its own depth.
	deep := `{"a":[` + strings.Repeat("[", 5) + strings.Repeat("]", 5) + `]}`
	for depth := 4; depth <= 8; depth++ {
		checkLazy(t, []byte(deep), depth, 1)
	}
}

// TestParseLazyWindows checks a large array's windows: several, each of
// whole elements, with First counting on, and nothing but the lazy
// array's own node on the tape.
func TestParseLazyWindows(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"before":1,"items":[`)
	const n = 20000
	for k := range n {
		if k > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"name":"item-%07d","value":%d,"tags":["alpha","beta"]}`, k, k%1000)
	}
	b.WriteString(`],"after":[1,2]}`)
	data := []byte(b.String())
	tp, err := ParseLazy(data, 64)
	if err != nil {
		t.Fatal(err)
	}
	defer tp.Release()
	items, ok := tp.Member(0, "items")
	if !ok || !tp.Lazy(items) || tp.Len(items) != n {
		t.Fatalf("items: lazy %v, len %d", tp.Lazy(items), tp.Len(items))
	}
	if after, _ := tp.Member(0, "after"); tp.Lazy(after) {
		t.Fatal("a small array is lazy")
	}
	if tp.Nodes() > 16 {
		t.Fatalf("%d nodes on the tape: the elements are on it", tp.Nodes())
	}
	if got := tp.LazyArrays(); len(got) != 1 || got[0] != items {
		t.Fatalf("LazyArrays = %v, want [%d]", got, items)
	}
	w := tp.Windows(items)
	defer w.Release()
	windows, seen := 0, 0
	for w.Next() {
		wt := w.Tape()
		if w.First() != seen {
			t.Fatalf("window %d starts at %d, want %d", windows, w.First(), seen)
		}
		if wt.Nodes() > windowNodes+64 {
			t.Fatalf("window of %d nodes", wt.Nodes())
		}
		for e := wt.FirstElement(0); e >= 0; e = wt.NextElement(0, e) {
			if v, _ := wt.Member(e, "name"); wt.Text(v) != fmt.Sprintf("item-%07d", seen) {
				t.Fatalf("element %d named %q", seen, wt.Text(v))
			}
			seen++
		}
		windows++
	}
	if w.Err() != nil || seen != n || windows < 2 {
		t.Fatalf("err %v, %d elements in %d windows", w.Err(), seen, windows)
	}
	checkLazy(t, data, 64, LazyArrayMin)
}

// FuzzLazy holds the lazy parse (with tiny thresholds, so that most
// arrays are lazy) to ParseTape on any input: the same verdict, the same
// values in the same order.
func FuzzLazy(f *testing.F) {
	for _, s := range lazySeeds {
		f.Add([]byte(s), uint8(1))
	}
	f.Fuzz(func(t *testing.T, data []byte, min uint8) {
		checkLazy(t, data, 16, int(min%16)+1)
		checkEnvelopeSpans(t, data, int(min%16)+1)
	})
}

// checkEnvelopeSpans holds the spans ParseEnvelope's check of an Opaque
// with Spans records to lazySpans of the value itself, and ParseLazySpans
// with them to ParseTape.
func checkEnvelopeSpans(t *testing.T, value []byte, min int) {
	t.Helper()
	defer SetLazySizesForTest(LazySizes{Array: min})()
	msg := append(append([]byte(`{"params":{"a":[1],"arguments":`), value...), `}}`...)
	value = bytes.Trim(value, " \t\r\n") // the value's bytes: Raw of its node
	env, err := ParseEnvelope(msg, 20, Opaque{Root: "params", Inner: "arguments", Spans: true})
	if err != nil {
		return
	}
	params, _ := env.Member(0, "params")
	args, _ := env.Member(params, "arguments")
	got := env.Spans(args)
	if env.Kind(args) == KindObject || env.Kind(args) == KindArray {
		if !got.known {
			t.Fatalf("%q: no spans recorded", value)
		}
		want := lazySpans(value, min, 18)
		if len(want) != len(got.list) {
			t.Fatalf("%q (min %d): envelope spans %v, lazySpans %v", value, min, got.list, want)
		}
		for k := range want {
			if want[k] != got.list[k] {
				t.Fatalf("%q (min %d): envelope spans %v, lazySpans %v", value, min, got.list, want)
			}
		}
	}
	if other, _ := env.Member(params, "a"); env.Spans(other).known {
		t.Fatal("spans of another node")
	}
	// ParseLazySpans with them agrees with ParseTape.
	whole, werr := ParseTape(value, 18)
	lazy, lerr := ParseLazySpans(value, 18, got)
	var flat []flatNode
	if lerr == nil {
		flat, lerr = flatten(nil, lazy, 0)
		lazy.Release()
	}
	if (werr == nil) != (lerr == nil) {
		t.Fatalf("%q: ParseTape err %v, ParseLazySpans err %v", value, werr, lerr)
	}
	if werr == nil {
		want, _ := flatten(nil, whole, 0)
		whole.Release()
		if fmt.Sprint(want) != fmt.Sprint(flat) {
			t.Fatalf("%q: ParseLazySpans read %v, want %v", value, flat, want)
		}
	}
}

func TestEnvelopeSpans(t *testing.T) {
	for _, s := range lazySeeds {
		for _, min := range []int{1, 2, 5, 1 << 20} {
			checkEnvelopeSpans(t, []byte(s), min)
		}
	}
}

// TestParseLazySpansOfAnotherDocument: spans that do not belong to the
// document never make it read as another one (its windows fail, or the
// spans are not used).
func TestParseLazySpansOfAnotherDocument(t *testing.T) {
	docs := []string{`{"a":[1,2,3],"b":[4]}`, `{"a":[1,2],"b":[3,4,5]}`, `{"a":[[1],[2]],"b":"x"}`, `{"b":[1,2,3],"a":[4]}`, `{"a":"[1,2,3]","b":[1]}`}
	for _, from := range docs {
		spans := Spans{list: lazySpans([]byte(from), 1, 18), known: true}
		for _, doc := range docs {
			want, _ := ParseTape([]byte(doc), 18)
			wantFlat, _ := flatten(nil, want, 0)
			got, err := ParseLazySpans([]byte(doc), 18, spans)
			if err != nil {
				continue
			}
			flat, ferr := flatten(nil, got, 0)
			if ferr == nil && fmt.Sprint(flat) != fmt.Sprint(wantFlat) {
				t.Fatalf("%s with the spans of %s read as %v, want %v", doc, from, flat, wantFlat)
			}
		}
	}
}
