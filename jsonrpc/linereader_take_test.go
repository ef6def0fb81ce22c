package jsonrpc

import (
	"bytes"
	"strings"
	"testing"
)

// TestLineReaderTake: a long line's buffer is handed over (it keeps its
// bytes while the reader assembles the next long line in a new one); a
// short line, in the read buffer, is not.
func TestLineReaderTake(t *testing.T) {
	long1 := `{"a":"` + strings.Repeat("x", 100<<10) + `"}`
	long2 := `{"b":"` + strings.Repeat("y", 90<<10) + `"}`
	lr := NewLineReader(strings.NewReader(long1+"\n{}\n"+long2+"\n"), 0)
	first, err := lr.Next()
	if err != nil || string(first) != long1 {
		t.Fatalf("first line: %v (%d bytes)", err, len(first))
	}
	if !lr.Take(first) {
		t.Fatal("Take of a long line = false")
	}
	short, err := lr.Next()
	if err != nil || string(short) != "{}" || lr.Take(short) {
		t.Fatalf("short line %q, %v: Take must be false", short, err)
	}
	second, err := lr.Next()
	if err != nil || string(second) != long2 {
		t.Fatalf("second line: %v", err)
	}
	if !bytes.Equal(first, []byte(long1)) {
		t.Fatal("the taken line changed when the next long line was read")
	}
	if lr.Take(first) {
		t.Fatal("Take of a line that is not the last one = true")
	}
}
