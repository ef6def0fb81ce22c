package jsonrpc

import (
	"bytes"
	"testing"
)

const toolsCallLine = `{"jsonrpc":"2.0","id":42,"method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"ExampleClient","version":"1.0.0"},"io.modelcontextprotocol/clientCapabilities":{},"progressToken":"p-42"},"name":"get_weather","arguments":{"location":"New York","units":"metric"}}}`

func BenchmarkDecodeRequest(b *testing.B) {
	data := []byte(toolsCallLine)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		msg, err := Decode(data)
		if err != nil || msg.Kind != KindRequest {
			b.Fatal(err)
		}
	}
}

func BenchmarkAppendResult(b *testing.B) {
	id := StringID("call-tool-example")
	result := []byte(`{"resultType":"complete","content":[{"type":"text","text":"Current weather in New York: 72°F, partly cloudy"}],"isError":false}`)
	buf := make([]byte, 0, 512)
	b.ReportAllocs()
	for b.Loop() {
		buf = AppendResult(buf[:0], id, result)
	}
	b.SetBytes(int64(len(buf)))
}

// BenchmarkLineReaderBatch reads 16 lines of the bench's tools/call size
// per op as the stdio transport does: Next, then LineBuffered to see
// whether another whole line is there without reading.
func BenchmarkLineReaderBatch(b *testing.B) {
	line := []byte(toolsCallLine + "\n")
	chunk := bytes.Repeat(line, 16)
	r := bytes.NewReader(chunk)
	lr := NewLineReader(r, 0)
	b.ReportAllocs()
	for b.Loop() {
		r.Reset(chunk)
		for {
			if _, err := lr.Next(); err != nil {
				b.Fatal(err)
			}
			if !lr.LineBuffered() {
				break
			}
		}
	}
}
