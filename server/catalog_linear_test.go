package server

import (
	"fmt"
	"testing"
)

type setItem struct {
	entry
	v int
}

func newSetItem(key string, v int) *setItem {
	return &setItem{entry: entry{key: key, def: []byte(fmt.Sprintf("%q", key))}, v: v}
}

// checkSet asserts that set holds exactly want (keys in order).
func checkSet(t *testing.T, set *namedSet[*setItem], want []string, absent ...string) {
	t.Helper()
	if len(set.list) != len(want) {
		t.Fatalf("set has %d items, want %d", len(set.list), len(want))
	}
	for i, k := range want {
		if set.list[i].key != k {
			t.Fatalf("item %d is %q, want %q", i, set.list[i].key, k)
		}
		if x := set.lookup(k); x == nil || x.key != k {
			t.Fatalf("lookup(%q) = %v", k, x)
		}
	}
	for _, k := range absent {
		if x := set.lookup(k); x != nil {
			t.Fatalf("lookup(%q) found %q in a set without it", k, x.key)
		}
	}
	if got, wantJSON := string(set.joined()), string(joinArray(set.defs())); got != wantJSON {
		t.Fatalf("joined = %s, want %s", got, wantJSON)
	}
}

// TestNamedSetSnapshots: sets extended one item at a time share storage,
// yet every snapshot keeps exactly its own items, whatever is added,
// replaced or removed after it, and a set extended twice forks.
func TestNamedSetSnapshots(t *testing.T) {
	set := newNamedSet[*setItem](nil)
	var snaps []*namedSet[*setItem]
	var keys []string
	for i := range 300 {
		k := fmt.Sprintf("k%d", i)
		keys = append(keys, k)
		set = set.with([]*setItem{newSetItem(k, i)})
		snaps = append(snaps, set)
	}
	for i, s := range snaps {
		checkSet(t, s, keys[:i+1], keys[i+1:]...)
	}
	// Fork: extending an older snapshot must not disturb the newer ones.
	fork := snaps[10].with([]*setItem{newSetItem("fork", 0)})
	checkSet(t, fork, append(append([]string{}, keys[:11]...), "fork"), keys[11:]...)
	checkSet(t, snaps[11], keys[:12], "fork")
	checkSet(t, set, keys, "fork")
	// Replace in place: the old snapshot keeps the old item.
	repl := set.with([]*setItem{newSetItem("k5", 99)})
	if repl.lookup("k5").v != 99 || set.lookup("k5").v != 5 || repl.list[5].v != 99 {
		t.Fatal("replacement not isolated")
	}
	checkSet(t, repl, keys)
	// Remove, then extend the smaller set.
	less, ok := repl.without([]string{"k0", "k299"})
	if !ok {
		t.Fatal("nothing removed")
	}
	more := less.with([]*setItem{newSetItem("k0", 100)})
	checkSet(t, less, keys[1:299], "k0", "k299")
	checkSet(t, more, append(append([]string{}, keys[1:299]...), "k0"), "k299")
	checkSet(t, set, keys)
	// Several new items in one call, twice from the newest set.
	a := more.with([]*setItem{newSetItem("x", 0), newSetItem("y", 0)})
	b := a.with([]*setItem{newSetItem("z", 0)})
	checkSet(t, a, append(append([]string{}, more.keysForTest()...), "x", "y"), "z")
	checkSet(t, b, append(append([]string{}, more.keysForTest()...), "x", "y", "z"))
}

func (set *namedSet[T]) keysForTest() []string {
	var out []string
	for _, x := range set.list {
		out = append(out, x.base().key)
	}
	return out
}
