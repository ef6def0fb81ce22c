package smallmap

import (
	"fmt"
	"testing"
)

// TestList holds a List's lookups to the map it was made from, for keys
// of equal lengths, absent keys and the empty key; a map of more than max
// keys, or of none, makes no list.
func TestList(t *testing.T) {
	const max = 8
	m := map[string]int{"units": 1, "unitz": 2, "location": 3, "": 4, "a": 5}
	names := []string{"", "a", "location", "units", "unitz"}
	l := New(m, names, max)
	if len(l) != len(m) {
		t.Fatalf("list of %d names, want %d", len(l), len(m))
	}
	for _, name := range append(names, "unit", "unitss", "b", "Units", "locatio") {
		want, wantOK := m[name]
		if v, ok := l.Find(name); v != want || ok != wantOK {
			t.Errorf("Find(%q) = %d, %v; the map: %d, %v", name, v, ok, want, wantOK)
		}
		if v, ok := l.FindBytes([]byte(name)); v != want || ok != wantOK {
			t.Errorf("FindBytes(%q) = %d, %v; the map: %d, %v", name, v, ok, want, wantOK)
		}
	}
	big := map[string]int{}
	var bigNames []string
	for i := range max + 1 {
		name := fmt.Sprint("p", i)
		big[name], bigNames = i, append(bigNames, name)
	}
	if l := New(big, bigNames, max); l != nil {
		t.Errorf("a list of %d names, want none past %d", len(l), max)
	}
	if l := New(map[string]int{}, nil, max); l != nil {
		t.Errorf("a list for an empty map: %v", l)
	}
}
