package httpwire

import (
	"bytes"
	"strings"
	"testing"
)

// BenchmarkSSEReader reads a stream of events of 200 bytes and of 1 MiB.
func BenchmarkSSEReader(b *testing.B) {
	for _, size := range []int{200, 1 << 20} {
		event := "data: " + strings.Repeat("x", size) + "\n\n"
		stream := []byte(strings.Repeat(event, max(1, (4<<20)/len(event))))
		b.Run(byteSize(size), func(b *testing.B) {
			b.SetBytes(int64(len(stream)))
			b.ReportAllocs()
			for b.Loop() {
				r := NewSSEReader(bytes.NewReader(stream), 2<<20)
				for {
					if _, err := r.Next(); err != nil {
						break
					}
				}
			}
		})
	}
}

func byteSize(n int) string {
	if n >= 1<<20 {
		return "1MiB"
	}
	return "200B"
}
