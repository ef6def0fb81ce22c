package argcheck

import (
	"fmt"
	"testing"
)

// TestNameList holds a nameList's lookups to the map it was made from, for
// names of equal lengths, absent names and the empty name; a map of more
// than smallNames names, or of none, makes no list.
func TestNameList(t *testing.T) {
	m := map[string]int{"units": 1, "unitz": 2, "location": 3, "": 4, "a": 5}
	names := []string{"", "a", "location", "units", "unitz"}
	l := newNameList(m, names)
	if len(l) != len(m) {
		t.Fatalf("list of %d names, want %d", len(l), len(m))
	}
	for _, name := range append(names, "unit", "unitss", "b", "Units", "locatio") {
		want, wantOK := m[name]
		if v, ok := l.find(name); v != want || ok != wantOK {
			t.Errorf("find(%q) = %d, %v; the map: %d, %v", name, v, ok, want, wantOK)
		}
		if v, ok := l.findBytes([]byte(name)); v != want || ok != wantOK {
			t.Errorf("findBytes(%q) = %d, %v; the map: %d, %v", name, v, ok, want, wantOK)
		}
	}
	big := map[string]int{}
	var bigNames []string
	for i := range smallNames + 1 {
		name := fmt.Sprint("p", i)
		big[name], bigNames = i, append(bigNames, name)
	}
	if l := newNameList(big, bigNames); l != nil {
		t.Errorf("a list of %d names, want none past %d", len(l), smallNames)
	}
	if l := newNameList(map[string]int{}, nil); l != nil {
		t.Errorf("a list for an empty map: %v", l)
	}
}
