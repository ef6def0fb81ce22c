package jsonenc

import (
	"encoding/json"
	"testing"
)

type weather struct {
	Location    string  `json:"location"`
	Units       string  `json:"units"`
	Temperature float64 `json:"temperature"`
}

type nested struct {
	Items []struct {
		Name  string   `json:"name"`
		Value int      `json:"value"`
		Tags  []string `json:"tags,omitempty"`
	} `json:"items"`
	Meta map[string]any `json:"meta"`
}

type namedValue struct {
	name string
	v    any
}

func benchValues() []namedValue {
	n := nested{Meta: map[string]any{"b": 1.5, "a": "x", "c": []any{true, nil}}}
	for i := range 100 {
		n.Items = append(n.Items, struct {
			Name  string   `json:"name"`
			Value int      `json:"value"`
			Tags  []string `json:"tags,omitempty"`
		}{Name: "item <x>", Value: i, Tags: []string{"t1", "t2"}})
	}
	return []namedValue{{"weather", weather{"Paris", "metric", 21.5}}, {"nested", &n}}
}

func BenchmarkMarshal(b *testing.B) {
	for _, nv := range benchValues() {
		name, v := nv.name, nv.v
		b.Run(name+"/jsonenc", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Marshal(v); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(name+"/encoding-json", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := json.Marshal(v); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
