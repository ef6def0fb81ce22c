package argcheck

import (
	"encoding/json"
	"math"
	"testing"
)

// BenchmarkDecodeNumbers decodes ordinary numbers (0.5, 3, 1e3, 0.1)
// into float64 fields and an any under bounds: the floats read back as
// the literals, so nothing is checked again.
func BenchmarkDecodeNumbers(b *testing.B) {
	v, err := Compile(json.RawMessage(`{"type":"object","properties":{"a":{"type":"number","exclusiveMinimum":0},"b":{"type":"number","maximum":10},"c":{"type":"number"},"d":{"type":"number","exclusiveMaximum":1},"e":{}}}`))
	if err != nil {
		b.Fatal(err)
	}
	type args struct {
		A float64 `json:"a"`
		B float64 `json:"b"`
		C float64 `json:"c"`
		D float64 `json:"d"`
		E any     `json:"e"`
	}
	d := NewDecoder[args](v)
	in := json.RawMessage(`{"a":0.5,"b":3,"c":1e3,"d":0.1,"e":2.25}`)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := d.Decode(in); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDecodeFullPrecision decodes 1 000 floats written at full
// precision, as encoding/json and JSON.stringify write them (more than 15
// significant digits, each already its float's shortest decimal).
func BenchmarkDecodeFullPrecision(b *testing.B) {
	v, err := Compile(json.RawMessage(`{"type":"object","properties":{"v":{"type":"array","items":{"type":"number"}}}}`))
	if err != nil {
		b.Fatal(err)
	}
	type args struct {
		V []float64 `json:"v"`
	}
	vals := make([]float64, 1000)
	for i := range vals {
		vals[i] = math.Sin(float64(i + 1))
	}
	in, _ := json.Marshal(map[string]any{"v": vals})
	d := NewDecoder[args](v)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := d.Decode(in); err != nil {
			b.Fatal(err)
		}
	}
}
