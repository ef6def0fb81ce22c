package argcheck

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
	"testing"

	"github.com/mcpgen/mcpgen/internal/jsonscan"
)

// contractReader records what DecodeFrom shows a LazyReader and checks the
// order of the calls (LazyReader's contract).
type contractReader struct {
	t        *testing.T
	tape     *tape
	started  bool
	open     int // the array being read, -1 none
	read     map[int][][]byte
	order    []int
	ended    map[int]bool
	done     int
	complete bool
	refuse   error
}

func (c *contractReader) Start(t *jsonscan.Tape) {
	if c.started || c.done > 0 {
		c.t.Fatalf("Start again, or after Done")
	}
	c.started, c.tape, c.open = true, t, -1
}

func (c *contractReader) ArrayStart(i int) {
	if !c.started || c.done > 0 || c.open >= 0 || c.read[i] != nil {
		c.t.Fatalf("ArrayStart(%d): started %v, done %d, open %d, read before %v", i, c.started, c.done, c.open, c.read[i] != nil)
	}
	c.open = i
	c.read[i] = [][]byte{}
	c.order = append(c.order, i)
}

func (c *contractReader) Element(wt *jsonscan.Tape, e int) {
	if c.open < 0 || c.done > 0 {
		c.t.Fatalf("Element outside an array")
	}
	c.read[c.open] = append(c.read[c.open], append([]byte(nil), wt.Raw(e)...))
}

func (c *contractReader) ArrayEnd(i int) {
	if c.open != i || c.done > 0 {
		c.t.Fatalf("ArrayEnd(%d) with %d open", i, c.open)
	}
	c.open = -1
	c.ended[i] = true
}

func (c *contractReader) Done(complete bool) error {
	c.done++
	c.complete = complete
	return c.refuse
}

// contractUnmarshals counts contractElem's UnmarshalJSON calls, and
// contractEarly those made before the reader's Done.
var contractUnmarshals, contractEarly int
var contractActive *contractReader

type contractElem struct{ Raw []byte }

func (e *contractElem) UnmarshalJSON(b []byte) error {
	contractUnmarshals++
	if contractActive != nil && contractActive.done == 0 {
		contractEarly++
	}
	e.Raw = append([]byte(nil), b...)
	return nil
}

// contractTypes are FuzzLazyDecodeTypes' types (wideTypes, with what the
// package's init functions add) and two with an Unmarshaler per element.
var contractTypes []reflect.Type

func init() {
	contractTypes = append(append([]reflect.Type(nil), wideTypes...),
		reflect.TypeFor[map[string][]contractElem](), reflect.TypeFor[struct {
			Items []contractElem `json:"items"`
			Ptrs  []any          `json:"ptrs"`
		}]())
}

// checkReaderContract decodes args with a reader and without: the same
// result when Done accepts; Done's error and nothing decoded, no
// Unmarshaler run, when it refuses; and the reader shown each lazy array
// of the arguments' lazy parse at most once, every element in order, Done
// once before any Unmarshaler, complete only when every array was read
// through.
func checkReaderContract(t *testing.T, v *Validator, typ reflect.Type, args []byte, min int, refuse bool) {
	defer jsonscan.SetLazySizesForTest(jsonscan.LazySizes{Array: min})()
	d := NewTypeDecoder(typ, v)
	want := reflect.New(typ)
	werr := d.DecodeFrom(args, Source{}, want.Interface())
	c := &contractReader{t: t, read: map[int][][]byte{}, ended: map[int]bool{}, open: -1}
	refusal := errors.New("refused by the reader")
	if refuse {
		c.refuse = refusal
	}
	contractActive, contractUnmarshals, contractEarly = c, 0, 0
	defer func() { contractActive = nil }()
	got := reflect.New(typ)
	gerr := d.DecodeFrom(args, Source{Reader: c}, got.Interface())
	if c.done != 1 {
		t.Fatalf("%.200q: Done called %d times", args, c.done)
	}
	if contractEarly > 0 {
		t.Fatalf("%.200q into %v: %d Unmarshaler calls before Done", args, typ, contractEarly)
	}
	if refuse {
		if gerr != refusal || !got.Elem().IsZero() || contractUnmarshals > 0 {
			t.Fatalf("%.200q into %v: Done refused; DecodeFrom returned %v, decoded %v, %d Unmarshaler calls", args, typ, gerr, !got.Elem().IsZero(), contractUnmarshals)
		}
	} else {
		if (werr == nil) != (gerr == nil) || werr != nil && werr.Error() != gerr.Error() || !reflect.DeepEqual(got.Interface(), want.Interface()) {
			t.Fatalf("%.200q into %v: with a reader %v %+v, without %v %+v", args, typ, gerr, got.Elem(), werr, want.Elem())
		}
	}
	if !c.started {
		if len(c.read) > 0 || c.complete {
			t.Fatalf("%.200q: arrays shown, or complete, without Start", args)
		}
		return
	}
	// What was shown against the lazy parse's own windows.
	tp, perr := jsonscan.ParseLazyMin(trimArgs(args), maxDepth, min)
	if perr != nil {
		t.Fatalf("%.200q: shown a reading the lazy parse refuses: %v", args, perr)
	}
	defer tp.Release()
	lazy := tp.LazyArrays()
	for _, i := range c.order {
		var elems [][]byte
		w := tp.Windows(i)
		for w.Next() {
			wt := w.Tape()
			for e := wt.FirstElement(0); e >= 0; e = wt.NextElement(0, e) {
				elems = append(elems, append([]byte(nil), wt.Raw(e)...))
			}
		}
		werr := w.Err()
		w.Release()
		shown := c.read[i]
		if c.ended[i] && (werr != nil || len(shown) != len(elems)) {
			t.Fatalf("%.200q: array %d ended after %d elements of %d (windows: %v)", args, i, len(shown), len(elems), werr)
		}
		for k := range shown {
			if k >= len(elems) || !bytes.Equal(shown[k], elems[k]) {
				t.Fatalf("%.200q: array %d element %d shown as %q", args, i, k, shown[k])
			}
		}
	}
	if c.complete {
		if len(c.ended) != len(lazy) {
			t.Fatalf("%.200q: complete with %d of %d lazy arrays read", args, len(c.ended), len(lazy))
		}
		for _, i := range lazy {
			if !c.ended[i] {
				t.Fatalf("%.200q: complete without array %d", args, i)
			}
		}
	}
}

// FuzzLazyReader: LazyReader's contract on every schema and type of
// FuzzLazyDecodeTypes (and two with an Unmarshaler per element), any
// threshold, Done accepting or refusing.
func FuzzLazyReader(f *testing.F) {
	for _, s := range append(append([]string(nil), wideArgSeeds...), lazyArgSeeds...) {
		for which := range len(wideSchemas) {
			f.Add(uint8(which), uint8(which), uint8(1), false, []byte(s))
			f.Add(uint8(which), uint8(len(contractTypes)-1-which%2), uint8(2), which%2 == 0, []byte(s))
		}
	}
	var vs []*Validator
	for _, src := range wideSchemas {
		v, err := Compile(json.RawMessage(src))
		if err != nil {
			f.Fatalf("%s: %v", src, err)
		}
		vs = append(vs, v)
	}
	f.Fuzz(func(t *testing.T, which, ty, min uint8, refuse bool, args []byte) {
		checkReaderContract(t, vs[int(which)%len(vs)], contractTypes[int(ty)%len(contractTypes)], args, int(min%48)+1, refuse)
	})
}

// TestLazyReaderShown: a reading the lazy path decides is shown whole
// (complete), for a plain type and for one with Unmarshalers, which run
// after Done.
func TestLazyReaderShown(t *testing.T) {
	v, err := Compile(json.RawMessage(`{"type":"object","properties":{"items":{"type":"array","items":{"type":"object"}}}}`))
	if err != nil {
		t.Fatal(err)
	}
	args := []byte(`{"items":[{"a":1},{"b":[2]},{}],"ptrs":[1,[2,3]]}`)
	for _, typ := range []reflect.Type{reflect.TypeFor[map[string]any](), contractTypes[len(contractTypes)-1]} {
		for _, refuse := range []bool{false, true} {
			checkReaderContract(t, v, typ, args, 4, refuse)
			if c := contractActive; c != nil {
				t.Fatal("reader left active")
			}
		}
	}
	defer jsonscan.SetLazySizesForTest(jsonscan.LazySizes{Array: 4})()
	c := &contractReader{t: t, read: map[int][][]byte{}, ended: map[int]bool{}, open: -1}
	contractActive, contractUnmarshals, contractEarly = c, 0, 0
	defer func() { contractActive = nil }()
	into := reflect.New(contractTypes[len(contractTypes)-1])
	if err := NewTypeDecoder(into.Elem().Type(), v).DecodeFrom(args, Source{Reader: c}, into.Interface()); err != nil {
		t.Fatal(err)
	}
	if !c.complete || len(c.ended) != 2 || contractUnmarshals != 3 || contractEarly != 0 {
		t.Fatalf("complete %v, %d arrays read, %d Unmarshaler calls (%d before Done)", c.complete, len(c.ended), contractUnmarshals, contractEarly)
	}
}
