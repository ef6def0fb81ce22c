package jsonenc

import (
	"encoding/json"
	"reflect"
	"testing"
)

// TestEncoder holds Encoder.Marshal to json.Marshal for values of its
// type, of other types (an interface type's dynamic types) and nil, on
// the first call and the later ones.
func TestEncoder(t *testing.T) {
	type out struct {
		Location    string  `json:"location"`
		Temperature float64 `json:"temperature,omitempty"`
	}
	typed := NewEncoder(reflect.TypeFor[out]())
	iface := NewEncoder(reflect.TypeFor[any]())
	values := []any{out{"Paris", 21.5}, out{Location: "<Oslo>"}, &out{"Rome", 1}, "text", 3, nil, []int{1}}
	for round := range 2 {
		for _, enc := range []*Encoder{typed, iface} {
			for _, v := range values {
				want, wantErr := json.Marshal(v)
				got, err := enc.Marshal(v)
				if string(got) != string(want) || (err == nil) != (wantErr == nil) {
					t.Errorf("round %d, %v encoder: Marshal(%#v) = %s, %v; json.Marshal: %s, %v", round, enc.t, v, got, err, want, wantErr)
				}
			}
		}
	}
	if _, err := typed.Marshal(make(chan int)); err == nil {
		t.Error("a channel must not encode")
	}
}
