package server

import (
	"bytes"
	"context"
	"fmt"
	"testing"
)

// BenchmarkReadResourceBlob measures one in-process resources/read of a
// binary resource of each size: the reply carries it base64-encoded
// (13.3 MB for 10 MB).
func BenchmarkReadResourceBlob(b *testing.B) {
	for _, size := range []int{1 << 10, 1 << 20, 10 << 20} {
		b.Run(fmt.Sprintf("%dKB", size>>10), func(b *testing.B) {
			blob := bytes.Repeat([]byte{0xde, 0xad, 0xbe, 0xef}, size/4)
			res := NewResource(ResourceInfo{URI: "file:///blob", Name: "blob", MIMEType: "application/octet-stream"},
				func(context.Context) ([]byte, error) { return blob, nil })
			s, err := New(Options{Name: "bench", Version: "1", Resources: []Resource{res}})
			if err != nil {
				b.Fatal(err)
			}
			msg := []byte(`{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}},"uri":"file:///blob"}}`)
			ctx := context.Background()
			if resp := s.HandleBytes(ctx, msg, nil); !bytes.Contains(resp.Body, []byte(`"blob":"3q2+796t`)) {
				b.Fatalf("%.300s", resp.Body)
			}
			b.SetBytes(int64(size))
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				s.HandleBytes(ctx, msg, nil)
			}
		})
	}
}
