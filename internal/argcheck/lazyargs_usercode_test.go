package argcheck

// Regressions the review of the element-wise path found: user code run on
// refused arguments or twice, a refused value left half filled, a Go slice
// made for arguments already refused, and the cost of checking an element
// growing with its array's depth.

import (
	"encoding/json"
	"fmt"
	"reflect"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/internal/jsonscan"
)

var unmarshalCalls atomic.Int64

// countedItem counts its UnmarshalJSON calls (a side effect user code may
// have: it is written for arguments that passed the schema).
type countedItem struct{ N int }

func (c *countedItem) UnmarshalJSON(b []byte) error {
	unmarshalCalls.Add(1)
	var v struct{ N int }
	err := json.Unmarshal(b, &v)
	c.N = v.N
	return err
}

type countedArgs struct {
	Items []countedItem `json:"items"`
	Label string        `json:"label"`
}

// bigItems is {"label":"L","items":[{"N":0},…,{"N":n-1}]} with element bad
// replaced by {"N":-1} (below the schema's minimum).
func bigItems(n, bad int) []byte {
	var b strings.Builder
	b.WriteString(`{"label":"L","items":[`)
	for k := range n {
		if k > 0 {
			b.WriteByte(',')
		}
		if k == bad {
			b.WriteString(`{"N":-1}`)
		} else {
			fmt.Fprintf(&b, `{"N":%d}`, k)
		}
	}
	b.WriteString(`]}`)
	return []byte(b.String())
}

const countedSchema = `{"type":"object","properties":{"label":{"type":"string"},"items":{"type":"array","items":{"type":"object","properties":{"N":{"type":"integer","minimum":0}}}}}}`

// TestLazyRunsNoUserCodeOnRefusedArguments: arguments the schema
// refuses (the last element is invalid) are refused both ways, but the
// element-wise path has already run the elements' UnmarshalJSON on all
// the others and left them (and label) in the value; the whole path
// validates first and runs no user code.
func TestLazyRunsNoUserCodeOnRefusedArguments(t *testing.T) {
	v, err := Compile(json.RawMessage(countedSchema))
	if err != nil {
		t.Fatal(err)
	}
	d := NewTypeDecoder(reflect.TypeFor[countedArgs](), v)
	const n = 20000
	args := bigItems(n, n-1)
	if len(args) < jsonscan.LazyArrayMin {
		t.Fatal("small")
	}
	unmarshalCalls.Store(0)
	var whole countedArgs
	werr := decodeWhole(d, args, &whole)
	wholeCalls := unmarshalCalls.Swap(0)
	var lazy countedArgs
	lerr := d.DecodeOwnedInto(args, 0, &lazy)
	lazyCalls := unmarshalCalls.Load()
	t.Logf("whole: err %v, %d UnmarshalJSON calls, label %q, %d items", werr, wholeCalls, whole.Label, len(whole.Items))
	t.Logf("lazy:  err %v, %d UnmarshalJSON calls, label %q, %d items", lerr, lazyCalls, lazy.Label, len(lazy.Items))
	if werr == nil || lerr == nil || werr.Error() != lerr.Error() {
		t.Fatalf("errors differ: %v / %v", werr, lerr)
	}
	if lazyCalls != wholeCalls {
		t.Errorf("UnmarshalJSON ran %d times on refused arguments element-wise, %d whole", lazyCalls, wholeCalls)
	}
	if !reflect.DeepEqual(lazy, whole) {
		t.Errorf("refused arguments leave a different value element-wise (label %q, %d items) than whole (label %q, %d items)", lazy.Label, len(lazy.Items), whole.Label, len(whole.Items))
	}
}

// lateUnmarshaler is an Unmarshaler whose value holds a large array: the
// element-wise path gives up when the decoder reaches it (after items).
type lateUnmarshaler struct{ L []int }

func (l *lateUnmarshaler) UnmarshalJSON(b []byte) error {
	var v struct{ L []int }
	err := json.Unmarshal(b, &v)
	l.L = v.L
	return err
}

type twiceArgs struct {
	Items []countedItem   `json:"items"`
	Late  lateUnmarshaler `json:"late"`
}

// TestLazyRunsUserCodeOnce: valid arguments whose decoding
// gives the lazy path up late (an Unmarshaler over a large array after a
// large array of Unmarshalers) run every element's UnmarshalJSON twice:
// once element-wise, once more on the whole parse.
func TestLazyRunsUserCodeOnce(t *testing.T) {
	v, err := Compile(json.RawMessage(`{"type":"object"}`))
	if err != nil {
		t.Fatal(err)
	}
	d := NewTypeDecoder(reflect.TypeFor[twiceArgs](), v)
	const n = 20000
	var b strings.Builder
	b.WriteString(`{"items":[`)
	for k := range n {
		if k > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"N":%d}`, k)
	}
	b.WriteString(`],"late":{"L":[`)
	for k := range n {
		if k > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `%d`, k)
	}
	b.WriteString(`]}}`)
	args := []byte(b.String())
	unmarshalCalls.Store(0)
	var whole twiceArgs
	if err := decodeWhole(d, args, &whole); err != nil {
		t.Fatal(err)
	}
	wholeCalls := unmarshalCalls.Swap(0)
	var lazy twiceArgs
	if err := d.DecodeOwnedInto(args, 0, &lazy); err != nil {
		t.Fatal(err)
	}
	lazyCalls := unmarshalCalls.Load()
	if !reflect.DeepEqual(lazy, whole) {
		t.Fatal("values differ")
	}
	if lazyCalls != wholeCalls {
		t.Errorf("valid arguments: UnmarshalJSON ran %d times through DecodeInto, %d through the whole tape", lazyCalls, wholeCalls)
	}
}

type rawTailArgs struct {
	Items []lazyItem      `json:"items"`
	Raw   json.RawMessage `json:"raw"`
}

// TestLazyRawMessageOverALargeArray: a json.RawMessage field holding a
// large array, after a large array of items: the element-wise path decodes
// (and checks) all the items, then gives up at the RawMessage and the
// whole parse does it all again.
func TestLazyRawMessageOverALargeArray(t *testing.T) {
	v, err := Compile(json.RawMessage(lazySchemas[0]))
	if err != nil {
		t.Fatal(err)
	}
	d := NewTypeDecoder(reflect.TypeFor[rawTailArgs](), v)
	args := []byte(`{"items":` + itemsArray(100000) + `,"raw":[` + strings.Repeat(`1,`, 40000) + `1]}`)
	measure := func(f func() error) (time.Duration, uint64) {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		start := time.Now()
		if err := f(); err != nil {
			t.Fatal(err)
		}
		el := time.Since(start)
		runtime.ReadMemStats(&after)
		return el, after.TotalAlloc - before.TotalAlloc
	}
	wt, wa := measure(func() error { return decodeWhole(d, args, new(rawTailArgs)) })
	lt, la := measure(func() error { return d.DecodeOwnedInto(args, 0, new(rawTailArgs)) })
	t.Logf("%d bytes: whole %v %d MB; DecodeInto %v %d MB", len(args), wt, wa>>20, lt, la>>20)
	if la > wa*3/2 {
		t.Errorf("DecodeInto allocated %d MB, the whole tape %d MB: the element-wise decoding was thrown away", la>>20, wa>>20)
	}
}

type wideItem struct {
	A, B, C, D, E, F, G, H string
	Buf                    [128]byte
}

type wideItemArgs struct {
	Nums  []float64  `json:"nums"`
	Items []wideItem `json:"items"`
}

// TestLazyMakesNoSliceForRefusedArguments: the first large array has a problem
// (element 0 is a string), so the arguments are refused and nothing more
// is decoded; yet lazyArray still makes the Go slice of the second one,
// len × sizeof(elem) (here 1 M × 256 B), where the whole path refuses the
// arguments at validation without making it.
func TestLazyMakesNoSliceForRefusedArguments(t *testing.T) {
	v, err := Compile(json.RawMessage(`{"type":"object","properties":{"nums":{"type":"array","items":{"type":"number"}},"items":{"type":"array"}}}`))
	if err != nil {
		t.Fatal(err)
	}
	d := NewTypeDecoder(reflect.TypeFor[wideItemArgs](), v)
	args := []byte(`{"nums":["x"` + strings.Repeat(`,1`, 40000) + `],"items":[0` + strings.Repeat(`,0`, 1<<20-1) + `]}`)
	alloc := func(f func() error) (uint64, error) {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		err := f()
		runtime.ReadMemStats(&after)
		return after.TotalAlloc - before.TotalAlloc, err
	}
	wa, werr := alloc(func() error { return decodeWhole(d, args, new(wideItemArgs)) })
	la, lerr := alloc(func() error { return d.DecodeOwnedInto(args, 0, new(wideItemArgs)) })
	t.Logf("%d bytes of arguments: whole %d MB (%v); element-wise %d MB (%v)", len(args), wa>>20, werr, la>>20, lerr)
	if werr == nil || lerr == nil || werr.Error() != lerr.Error() {
		t.Fatal("verdicts differ")
	}
	if la > 2*wa {
		t.Errorf("refused arguments: element-wise %d MB allocated, whole %d MB", la>>20, wa>>20)
	}
}

// deepLazyArgs is {"a":{"a":…{"l":[0,0,…]}…}} with depth objects above a
// large array of n zeros.
func deepLazyArgs(depth, n int) []byte {
	var b strings.Builder
	for range depth {
		b.WriteString(`{"a":`)
	}
	b.WriteString(`{"l":[`)
	for k := range n {
		if k > 0 {
			b.WriteByte(',')
		}
		b.WriteByte('0')
	}
	b.WriteString(`]}`)
	b.WriteString(strings.Repeat("}", depth))
	return []byte(b.String())
}

// A recursive object schema (a linked list of nodes, each with a list of
// integers): what a recursive Go struct derives.
const deepSchema = `{"$defs":{"N":{"type":"object","properties":{"a":{"$ref":"#/$defs/N"},"l":{"type":"array","items":{"type":"integer"}}}}},"$ref":"#/$defs/N"}`

// BenchmarkLazyDeepArray checks the elements of a large array under 1 and
// under 500 nested objects: the same cost per element (the array's
// instance location is set once, not copied for every element; it was
// 3× at depth 500).
func BenchmarkLazyDeepArray(b *testing.B) {
	v, err := Compile(json.RawMessage(deepSchema))
	if err != nil {
		b.Fatal(err)
	}
	for _, depth := range []int{1, 500} {
		args := deepLazyArgs(depth, 1<<18)
		b.Run(fmt.Sprintf("depth=%d", depth), func(b *testing.B) {
			for b.Loop() {
				tp, perr := jsonscan.ParseLazy(args, maxDepth)
				if perr != nil {
					b.Fatal(perr)
				}
				later := &lazyDefer{byNode: map[int][]deferral{}}
				checkFrom(v.native, tp, 0, nil, nil, later, nil)
				r := &lazyRun{defers: later.byNode, shapes: map[int]*shape{}, visited: map[int]bool{}}
				if err := r.checkRest(tp); err != nil {
					b.Fatal(err)
				}
				tp.Release()
			}
		})
	}
}
