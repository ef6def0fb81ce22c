package jsonscan

import (
	"fmt"
	"strings"
	"testing"
)

// nestedDocument is an object argument of about size bytes: records with
// strings, numbers, booleans, nulls and nested arrays, as a tool might get.
func nestedDocument(size int) []byte {
	var b strings.Builder
	b.WriteString(`{"items":[`)
	for i := 0; b.Len() < size; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"id":%d,"name":"item %d","score":%d.5,"ok":%v,"tags":["a","b\n",null],"child":{"depth":[1,[2,[3]]]}}`, i, i, i, i%2 == 0)
	}
	b.WriteString(`]}`)
	return []byte(b.String())
}

func BenchmarkParse(b *testing.B) {
	for _, size := range []int{1 << 10, 1 << 20} {
		doc := nestedDocument(size)
		b.Run(fmt.Sprintf("Tree/%dKB", size>>10), func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(doc)))
			for b.Loop() {
				if _, err := Tree(doc, 512); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(fmt.Sprintf("Tape/%dKB", size>>10), func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(doc)))
			for b.Loop() {
				t, err := ParseTape(doc, 512)
				if err != nil {
					b.Fatal(err)
				}
				t.Release()
			}
		})
	}
}
