package support

import (
	"bytes"
	"encoding/base64"
	"testing"
)

// appendBase64 must write exactly what encoding/base64 (and so
// encoding/json for a []byte) writes, at every length and alignment.
func TestAppendBase64MatchesEncodingBase64(t *testing.T) {
	src := make([]byte, 300)
	for i := range src {
		src[i] = byte(i*167 + i>>3)
	}
	for n := 0; n <= len(src); n++ {
		for _, prefix := range []string{"", `"`, "xyz"} {
			got := appendBase64([]byte(prefix), src[:n])
			want := base64.StdEncoding.AppendEncode([]byte(prefix), src[:n])
			if !bytes.Equal(got, want) {
				t.Fatalf("len %d, prefix %q:\n got %s\nwant %s", n, prefix, got, want)
			}
		}
	}
}

func FuzzAppendBase64(f *testing.F) {
	f.Add([]byte(""), []byte{0xff, 0, 0xfe, 1, 2, 3, 4, 5, 6})
	f.Add([]byte(`{"blob":"`), bytes.Repeat([]byte{0xfb, 0xff}, 40))
	f.Fuzz(func(t *testing.T, prefix, src []byte) {
		got := appendBase64(bytes.Clone(prefix), src)
		want := base64.StdEncoding.AppendEncode(bytes.Clone(prefix), src)
		if !bytes.Equal(got, want) {
			t.Fatalf("appendBase64(%q, %x) = %s, want %s", prefix, src, got, want)
		}
	})
}

func BenchmarkAppendBase64(b *testing.B) {
	src := bytes.Repeat([]byte{1, 0x80, 0xff, 7, 42}, 1<<18)
	dst := make([]byte, 0, base64.StdEncoding.EncodedLen(len(src)))
	b.SetBytes(int64(len(src)))
	b.Run("appendBase64", func(b *testing.B) {
		for b.Loop() {
			dst = appendBase64(dst[:0], src)
		}
	})
	b.Run("encoding/base64", func(b *testing.B) {
		for b.Loop() {
			dst = base64.StdEncoding.AppendEncode(dst[:0], src)
		}
	})
}
