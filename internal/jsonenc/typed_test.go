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

// TestMarshalRoom checks the encoding behind the room is Marshal's, the
// room is zeros and the spare capacity is there once the encoder knows
// the type's size.
func TestMarshalRoom(t *testing.T) {
	type out struct{ A, B string }
	enc := NewEncoder(reflect.TypeFor[out]())
	for _, v := range []any{out{"x", "<y>"}, nil, 2.5, out{B: string(make([]byte, 3000))}} {
		want, _ := json.Marshal(v)
		for call := range 2 { // the second call guesses from the first
			buf, err := enc.MarshalRoom(v, 40, 100)
			if err != nil || len(buf) < 40 || string(buf[40:]) != string(want) || string(buf[:40]) != string(make([]byte, 40)) {
				t.Fatalf("MarshalRoom(%v) = %q, %v; want 40 zeros and %s", v, buf, err, want)
			}
			if call == 1 && cap(buf)-len(buf) < 100 {
				t.Errorf("MarshalRoom(%v): %d bytes spare, want 100", v, cap(buf)-len(buf))
			}
		}
	}
}
