package jsonscan

import "testing"

// FuzzLazyWrapped is FuzzLazy on the fuzzed value wrapped in nested
// objects and arrays (large arrays not at the root, arrays of arrays,
// objects holding several), at several depths limits.
func FuzzLazyWrapped(f *testing.F) {
	for _, s := range lazySeeds {
		f.Add([]byte(s), uint8(1), uint8(0))
	}
	f.Add([]byte(`[[1,[2,"]"]],{"a":[[]]}]`), uint8(2), uint8(3))
	f.Add([]byte(`"\\\"[" , [1]`), uint8(1), uint8(1))
	f.Fuzz(func(t *testing.T, v []byte, min, wrap uint8) {
		var doc []byte
		switch wrap % 6 {
		case 0:
			doc = v
		case 1:
			doc = append(append([]byte(`{"a":{"b":[`), v...), `]},"c":[1,2,[3]]}`...)
		case 2:
			doc = append(append(append(append([]byte(`[[`), v...), `],[`...), v...), `]]`...)
		case 3:
			doc = append(append(append(append([]byte(`{"x":[`), v...), `],"y":{"z":[`...), v...), `]}}`...)
		case 4:
			doc = append(append([]byte(`{"k":[[[`), v...), `]]]}`...)
		case 5:
			doc = append(append([]byte(`{"k":`), v...), `}`...)
		}
		depth := 4 + int(wrap/6)%16
		checkLazy(t, doc, depth, int(min%24)+1)
		checkEnvelopeSpans(t, doc, int(min%24)+1)
	})
}

// TestWindowsOfANonLazyNode: Windows panics naming the misuse for a node
// that is not a lazy array, on a tape of ParseTape too (which has no lazy
// arrays: a nil pointer dereference before).
func TestWindowsOfANonLazyNode(t *testing.T) {
	tp, err := ParseTape([]byte(`{"a":[1,2]}`), 8)
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		r := recover()
		if s, ok := r.(string); !ok || s != "jsonscan: Windows of a node that is not a lazy array" {
			t.Errorf("Windows of a non-lazy node panicked with %v", r)
		}
	}()
	tp.Windows(2)
}
