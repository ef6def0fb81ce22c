package jsonscan

import "testing"

// skipStringByteWise is the plain left-to-right scan skipString must agree
// with: a backslash skips the next byte, the first other '"' ends the
// string.
func skipStringByteWise(data []byte, i int) int {
	for i++; i < len(data); i++ {
		switch data[i] {
		case '\\':
			i++
		case '"':
			return i + 1
		}
	}
	return -1
}

// FuzzSkipString checks skipString against the byte-wise scan from every
// quote of arbitrary input.
func FuzzSkipString(f *testing.F) {
	for _, s := range []string{`"abc"`, `"a\"b"`, `"a\\"b"`, `"a\\\"b"`, `"\`, `"\\`, `"ab\"`, `"x"y"`, `""`, `"`, `"\\\\"`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		for i, c := range data {
			if c != '"' {
				continue
			}
			if got, want := skipString(data, i), skipStringByteWise(data, i); got != want {
				t.Fatalf("skipString(%q, %d) = %d, want %d", data, i, got, want)
			}
		}
	})
}
