package jsonrpc

import (
	"bytes"
	"math/rand"
	"testing"
)

// appendJSONTextGuarded checks AppendJSONText(pre bytes, s) against the
// bytewise reference in a dst with 2*len(s)+jsonTextSlack+extra spare
// bytes, unaligned, between guards that must stay as they are, and that s
// is not written to.
func appendJSONTextGuarded(t *testing.T, s []byte, pre int, extra int) {
	want := appendStringBytewise(bytes.Repeat([]byte{'p'}, pre), string(s))
	spare := 2*len(s) + jsonTextSlack + extra
	if spare < 0 {
		spare = 0
	}
	backing := bytes.Repeat([]byte{0xAA}, 3+pre+spare+32)
	base := backing[3:] // unaligned
	for i := 0; i < pre; i++ {
		base[i] = 'p'
	}
	src := append([]byte(nil), s...)
	dst := base[: pre : pre+spare]
	got := AppendJSONText(dst, src)
	if !bytes.Equal(got, want) {
		t.Fatalf("AppendJSONText(%q) pre %d extra %d = %q want %q", s, pre, extra, got, want)
	}
	if !bytes.Equal(backing[3+pre+spare:], bytes.Repeat([]byte{0xAA}, 32)) || !bytes.Equal(backing[:3], []byte{0xAA, 0xAA, 0xAA}) {
		t.Fatalf("guard hit %q extra %d", s, extra)
	}
	if !bytes.Equal(src, s) {
		t.Fatalf("src changed")
	}
}

// TestAppendJSONTextMatchesBytewise: texts of 0 to 40 bytes, from
// quotes, backslashes, control characters, DEL, bytes >= 0x80 (invalid
// UTF-8, U+2028/2029, a surrogate's encoding, bytes that are a quote or
// backslash with the top bit set) and printable ASCII, at every block
// offset, in a dst one byte short of the block loop's room, at it and
// beyond, after 0, 1 or 5 bytes: AppendString's bytes, nothing written
// outside dst's capacity; and every length of all quotes or all
// backslashes (each byte escaped, the longest output) likewise.
func TestAppendJSONTextMatchesBytewise(t *testing.T) {
	alpha := [][]byte{{'a'}, {'"'}, {'\\'}, {'\n'}, {'\r'}, {0}, {0x1f}, {0x20}, {0x7f}, {0x80}, {0xff}, {0xe2, 0x80, 0xa8}, {0xe2, 0x80, 0xa9}, {0xed, 0xa0, 0x80}, {0xc3, 0xa9}, {0xe2}, {'<'}, {'&'}, {0xa2}, {0xdc}, {0x5c | 0x80}}
	rng := rand.New(rand.NewSource(1))
	for L := 0; L <= 40; L++ {
		for iter := 0; iter < 400; iter++ {
			var s []byte
			mode := iter % 4
			for len(s) < L {
				var a []byte
				switch mode {
				case 0:
					a = alpha[rng.Intn(len(alpha))]
				case 1:
					a = alpha[rng.Intn(3)]
				case 2:
					if rng.Intn(8) == 0 {
						a = alpha[rng.Intn(len(alpha))]
					} else {
						a = []byte{byte(0x20 + rng.Intn(0x60))}
					}
				case 3:
					a = []byte{byte(rng.Intn(256))}
				}
				s = append(s, a...)
			}
			for _, extra := range []int{-1, 0, 1, 7, 100} {
				for _, pre := range []int{0, 1, 5} {
					appendJSONTextGuarded(t, s, pre, extra)
				}
			}
		}
	}
	for L := 0; L < 70; L++ {
		for _, c := range []byte{'"', '\\'} {
			for _, extra := range []int{-1, 0, 1} {
				appendJSONTextGuarded(t, bytes.Repeat([]byte{c}, L), 0, extra)
			}
		}
	}
}
