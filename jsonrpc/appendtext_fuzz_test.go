package jsonrpc

import (
	"bytes"
	"encoding/json"
	"testing"
	"unicode/utf8"
)

// FuzzAppendJSONText holds AppendJSONText to AppendString and to the
// bytewise reference for arbitrary bytes, in a buffer whose spare room is
// from one byte short of what the block loop needs to a few bytes more
// (room&7), or short by far (room&8): the same bytes, nothing written
// behind the buffer's capacity, and no new buffer when there was room and
// the text is printable ASCII (any other may need more than twice its
// length). encoding/json reads the string back as the text when that is
// UTF-8. jsonenc's FuzzJSONText gives it the encoder's output for random
// values.
func FuzzAppendJSONText(f *testing.F) {
	for _, s := range []string{"", `{"location":"Paris","units":"metric","temperature":21.5}`, `"`, `\\`,
		`{"a":"\"\\\u003c"}`, "0123456\"", "01234567\"\"\"\"\"\"\"\"", `["é",1]`, "{\"x\":\"\n\"}", "\xff\"",
		"0123456789abcdef\x7f\x80\"", `{"k":"zürich","n":1}`, "\"\"\"\"\"\"\"\"\"\x01"} {
		f.Add(s, uint8(0))
		f.Add(s, uint8(1))
		f.Add(s, uint8(9))
	}
	f.Fuzz(func(t *testing.T, s string, room uint8) {
		want := appendStringBytewise([]byte("x"), s)
		if got := AppendString([]byte("x"), s); !bytes.Equal(got, want) {
			t.Fatalf("AppendString(%q) = %s, want %s", s, got, want)
		}
		spare := 2*len(s) + jsonTextSlack - 1 + int(room&7)
		if room&8 != 0 {
			spare = len(s) / 2
		}
		// dst's capacity ends at spare; a guard behind it must stay as it
		// is (the blocks are written without bounds checks).
		backing := bytes.Repeat([]byte{0xAA}, 1+spare+16)
		backing[0] = 'x'
		dst := backing[: 1 : 1+spare]
		got := AppendJSONText(dst, []byte(s))
		if !bytes.Equal(got, want) {
			t.Fatalf("AppendJSONText(%q), spare %d = %s, want %s", s, spare, got, want)
		}
		if guard := backing[1+spare:]; !bytes.Equal(guard, bytes.Repeat([]byte{0xAA}, 16)) {
			t.Fatalf("AppendJSONText(%q), spare %d: wrote behind dst's capacity: %x", s, spare, guard)
		}
		if spare >= 2*len(s)+jsonTextSlack && len(s) >= 8 && printableASCII(s) && &got[0] != &dst[0] {
			t.Fatalf("AppendJSONText(%q), spare %d: a new buffer", s, spare)
		}
		if !json.Valid(got[1:]) {
			t.Fatalf("AppendJSONText(%q) = %s: not JSON", s, got)
		}
		var back string
		if err := json.Unmarshal(got[1:], &back); err != nil || utf8.ValidString(s) && back != s {
			t.Fatalf("AppendJSONText(%q) = %s: read back %q, %v", s, got, back, err)
		}
	})
}

// printableASCII reports whether every byte of s is 0x20 to 0x7f.
func printableASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}
