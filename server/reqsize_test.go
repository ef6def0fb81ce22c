package server

import (
	"testing"
	"unsafe"
)

// TestRequestSizeClass: the request and the tool output it lends
// (toolText) keep their sizes, the request in the runtime's 640-byte
// size class (680 bytes were allocated as 704): every request of every transport allocates one, and the
// collector's share of the server's CPU scales with the bytes allocated
// (bench/README.md, "Bytes allocated per request", stop 38). A field
// added must make room elsewhere, or move this bound on purpose.
func TestRequestSizeClass(t *testing.T) {
	// An object with pointers over 512 bytes carries an 8-byte header
	// (the runtime's malloc header): 632 bytes is 640 allocated.
	if n := unsafe.Sizeof(request{}); n > 640-8 {
		t.Errorf("request is %d bytes, over the 640-byte size class with its 8-byte malloc header", n)
	}
	if n := unsafe.Sizeof(toolText{}); n > 56 {
		t.Errorf("toolText is %d bytes, want 56 at most", n)
	}
}
