package jsonrpc

import (
	"bytes"
	"testing"
)

// TestAppendJSONTextTextInSpareRoomMatchesAppendString: a text that lies
// in dst's spare capacity, far enough ahead that AppendString (which
// writes each byte behind the one it reads) escapes it right, is escaped
// the same by AppendJSONText, whose blocks and escapes are written ahead
// of the bytes it returns (its doc: the same bytes as AppendString for
// every input).
func TestAppendJSONTextTextInSpareRoomMatchesAppendString(t *testing.T) {
	for _, s := range []string{
		"aaa\"bxx\"\\a\"xa\\b\\\\x",
		"\"\"\\\"\"bx\"\"\\ab\\a\"x\"",
		`{"location":"Paris","units":"metric","temperature":21.5}`,
		"0123456789abcdef",
	} {
		want := AppendString(nil, []byte(s))
		for p := 1; p <= 3*len(s); p++ {
			buf := make([]byte, p+3*len(s)+16)
			copy(buf[p:], s)
			text := buf[p : p+len(s)]
			if got := AppendString(buf[:0], text); !bytes.Equal(got, want) {
				continue // AppendString itself overwrites the text before reading it
			}
			buf = make([]byte, p+3*len(s)+16)
			copy(buf[p:], s)
			text = buf[p : p+len(s)]
			if got := AppendJSONText(buf[:0], text); !bytes.Equal(got, want) {
				t.Fatalf("text %q at %d in dst's room: AppendJSONText = %q, AppendString %q", s, p, got, want)
			}
		}
	}
}
