package jsonrpc

import (
	"bytes"
	"testing"
	"unicode/utf8"
)

// appendStringBytewise is AppendString as it was before plainASCII: one
// byte at a time, the reference FuzzAppendString holds it to.
func appendStringBytewise(dst []byte, s string) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			switch c {
			case '"', '\\':
				dst = append(dst, '\\', c)
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			case '\b':
				dst = append(dst, '\\', 'b')
			case '\f':
				dst = append(dst, '\\', 'f')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			dst = append(dst, s[start:i]...)
			dst = append(dst, "\uFFFD"...)
			i++
			start = i
			continue
		}
		i += size
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

// FuzzAppendString holds AppendString, of a string and of bytes, to the
// bytewise reference, wherever the bytes that need escaping fall in or
// across its 8-byte blocks.
func FuzzAppendString(f *testing.F) {
	for _, s := range []string{"", "Paris: 21.50 (metric)", "abcdefg\"", "abcdefgh\\ijklmnop", "0123456\x7f\x80",
		"seven\n\x01", "\xff\xfe0123456789", "héllo wörld, ça va?", "\u2028<&>\t0123456789abcdef\x00", "01234567012345\x1f"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want := appendStringBytewise([]byte("x"), s)
		if got := AppendString([]byte("x"), s); !bytes.Equal(got, want) {
			t.Fatalf("AppendString(%q) = %s, want %s", s, got, want)
		}
		if got := AppendString([]byte("x"), []byte(s)); !bytes.Equal(got, want) {
			t.Fatalf("AppendString([]byte(%q)) = %s, want %s", s, got, want)
		}
	})
}
