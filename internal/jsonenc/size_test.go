package jsonenc

import (
	"strings"
	"testing"
)

// TestSizeHintAfterLargeValue: Marshal sizes its buffer from the type's
// last encoding; after a large value, a small one of the same type comes
// back in a buffer of about its own size, not one that keeps the large
// one's capacity alive (found by review: cap 35 651 595 for "ok").
func TestSizeHintAfterLargeValue(t *testing.T) {
	type result struct{ Text string }
	if _, err := Marshal(result{Text: strings.Repeat("x", 8<<20)}); err != nil {
		t.Fatal(err)
	}
	b, err := Marshal(result{Text: "ok"})
	if err != nil {
		t.Fatal(err)
	}
	if string(b) != `{"Text":"ok"}` || cap(b) > maxSpare {
		t.Fatalf("%s with capacity %d after a large value, want at most %d", b, cap(b), maxSpare)
	}
	// A value of about the last one's size keeps its presized buffer.
	big, err := Marshal(result{Text: strings.Repeat("y", 8<<20)})
	if err != nil {
		t.Fatal(err)
	}
	if len(big) != 8<<20+len(`{"Text":""}`) || cap(big) > 2*len(big) {
		t.Fatalf("len %d cap %d", len(big), cap(big))
	}
}
