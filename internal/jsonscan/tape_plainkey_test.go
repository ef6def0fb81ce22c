package jsonscan

import "testing"

// TestPlainKey checks PlainKey against Key: the same text for a name
// without escapes, false for one with escapes.
func TestPlainKey(t *testing.T) {
	tape, err := ParseTape([]byte(`{"a":1,"\u0062":2,"":3,"io.modelcontextprotocol/clientInfo":{},"\"":4}`), 8)
	if err != nil {
		t.Fatal(err)
	}
	defer tape.Release()
	for m := tape.FirstMember(0); m >= 0; m = tape.NextMember(0, m) {
		key, plain := tape.PlainKey(m)
		if plain != !tape.Escaped(m) {
			t.Errorf("PlainKey(%q) plain = %v, escaped %v", tape.Key(m), plain, tape.Escaped(m))
		}
		if plain && key != tape.Key(m) || !plain && key != "" {
			t.Errorf("PlainKey(%q) = %q, %v", tape.Key(m), key, plain)
		}
	}
}
