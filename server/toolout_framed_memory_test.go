package server

import (
	"reflect"
	"runtime"
	"strings"
	"testing"
)

// framedMemOut is a structured Out without a String method.
type framedMemOut struct {
	S string `json:"s"`
}

// bytesAllocated is the heap bytes f allocates.
func bytesAllocated(f func()) uint64 {
	var a, b runtime.MemStats
	runtime.ReadMemStats(&a)
	f()
	runtime.ReadMemStats(&b)
	return b.TotalAlloc - a.TotalAlloc
}

// TestSmallStructuredResultAfterLargeKeepsNoLargeBuffer: the room a
// structured result is framed in is learned from the tool's last result,
// so a small result right after a 4 MB one is encoded behind megabytes of
// room; the frame it is answered from (held until the response is
// written) and the output the request keeps must not keep that buffer
// alive, as jsonenc.Marshal keeps no buffer sized for a larger value
// (maxSpare).
func TestSmallStructuredResultAfterLargeKeepsNoLargeBuffer(t *testing.T) {
	meta := []byte(`{"io.modelcontextprotocol/serverInfo":{"name":"t"}}`)
	for _, small := range []*framedMemOut{{S: "x"}, nil} {
		o := newOutEncoder(reflect.TypeFor[*framedMemOut]())
		var scratch toolText
		var f resultFrame
		call := func(v *framedMemOut) []byte {
			res, err := o.toolOutput(v, &scratch)
			if err != nil {
				t.Fatal(err)
			}
			return res.(*toolText).encodeIn(&f, meta)
		}
		call(&framedMemOut{S: strings.Repeat("abcdefgh", 4<<20/8)})
		scratch, f = toolText{}, resultFrame{}
		before := liveHeap()
		result := call(small)
		held := int64(liveHeap()) - int64(before)
		runtime.KeepAlive(result)
		if held > 1<<20 {
			t.Errorf("small result %q holds %d bytes of heap, want well under 1 MiB", result, held)
		}
		runtime.KeepAlive(&scratch)
		runtime.KeepAlive(&f)
	}
}

// liveHeap is the heap in use after a collection.
func liveHeap() uint64 {
	var m runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// TestQuoteHeavyStructuredResultAllocatesAboutTwoCopies: a structured
// result whose JSON text escapes to twice its length (all quotes), after
// a result that left room for a text escaped little, allocates about its
// result's size (the structuredContent encoded once, the result written
// once), not the room's growth by append and a second encoding that grows
// again (bench/README.md, "Large payloads in about two copies").
func TestQuoteHeavyStructuredResultAllocatesAboutTwoCopies(t *testing.T) {
	meta := []byte(`{"io.modelcontextprotocol/serverInfo":{"name":"t"}}`)
	o := newOutEncoder(reflect.TypeFor[framedMemOut]())
	plain := framedMemOut{S: strings.Repeat("abcdefgh", 2<<20/8)}
	quotes := framedMemOut{S: strings.Repeat(`"`, 1<<20)}
	for i, v := range []framedMemOut{plain, quotes, plain, quotes} {
		var scratch toolText
		var f resultFrame
		var n int
		got := bytesAllocated(func() {
			res, err := o.toolOutput(v, &scratch)
			if err != nil {
				t.Fatal(err)
			}
			n = len(res.(*toolText).encodeIn(&f, meta))
		})
		if float64(got) > 2.5*float64(n) {
			t.Errorf("result %d (%d bytes): %d bytes allocated, %.1f times the result; want at most 2.5", i, n, got, float64(got)/float64(n))
		}
	}
}
