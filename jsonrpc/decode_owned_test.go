package jsonrpc

import (
	"strings"
	"testing"
)

// TestDecodeOwnedCountsTheWholeBuffer: a view of a message keeps its whole
// buffer, so the owned size DecodeOwned records (which a string must be
// half of to be a view) is the buffer's capacity, not the message's
// length: a message in a buffer much larger than itself (a line reader's
// kept buffer, reused for a shorter line) must not count as owning only
// its length.
func TestDecodeOwnedCountsTheWholeBuffer(t *testing.T) {
	msg := `{"jsonrpc":"2.0","id":1,"method":"m","params":{"s":"` + strings.Repeat("x", 1000) + `"}}`
	for _, data := range [][]byte{[]byte(msg), append(make([]byte, 0, 64*len(msg)), msg...)} {
		m, err := DecodeOwned(data)
		if err != nil {
			t.Fatal(err)
		}
		tape, _, ok := m.ParamsTape()
		if !ok {
			t.Fatal("no params tape")
		}
		if got := tape.Owner(); got != cap(data) {
			t.Errorf("owned size %d for a message of %d bytes in a buffer of %d", got, len(data), cap(data))
		}
	}
}
