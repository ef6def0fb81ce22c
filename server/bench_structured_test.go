package server

import (
	"bytes"
	"context"
	"fmt"
	"testing"
)

// structuredItem is one element of BenchmarkToolStructuredResult's Out.
type structuredItem struct {
	Name  string            `json:"name"`
	Value float64           `json:"value"`
	Tags  []string          `json:"tags,omitempty"`
	Attrs map[string]string `json:"attrs,omitempty"`
	Owner *structuredOwner  `json:"owner,omitempty"`
}

type structuredOwner struct {
	ID    int64  `json:"id"`
	Email string `json:"email"`
}

// BenchmarkToolStructuredResult measures one in-process tools/call whose
// typed Out (a struct of n items) becomes structuredContent and its JSON
// text: the runtime encodes Out once per call.
func BenchmarkToolStructuredResult(b *testing.B) {
	for _, n := range []int{10, 1000} {
		b.Run(fmt.Sprintf("%ditems", n), func(b *testing.B) {
			type out struct {
				Items []structuredItem `json:"items"`
				Total int              `json:"total"`
			}
			o := out{Total: n}
			for i := range n {
				o.Items = append(o.Items, structuredItem{Name: fmt.Sprintf("item-%d <x>", i), Value: float64(i) * 1.25,
					Tags: []string{"a", "b"}, Attrs: map[string]string{"k": "v", "j": "w"}, Owner: &structuredOwner{ID: int64(i), Email: "a@b.c"}})
			}
			s, err := New(Options{Name: "bench", Version: "1", Tools: []Tool{
				NewTool(ToolInfo{Name: "items", Description: "items"}, func(context.Context, struct{}) (out, error) { return o, nil }),
			}})
			if err != nil {
				b.Fatal(err)
			}
			msg := []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}},"name":"items","arguments":{}}}`)
			ctx := context.Background()
			resp := s.HandleBytes(ctx, msg, nil)
			if !bytes.Contains(resp.Body, []byte(`"structuredContent":{"items":[{"name":"item-0 \u003cx\u003e"`)) {
				b.Fatalf("%.300s", resp.Body)
			}
			b.SetBytes(int64(len(resp.Body)))
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				s.HandleBytes(ctx, msg, nil)
			}
		})
	}
}
