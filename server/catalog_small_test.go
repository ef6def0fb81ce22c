package server

import (
	"fmt"
	"testing"
)

// TestSmallSetScans: a set of at most smallKeys items, however it was
// built (all at once, one at a time, with a replacement), finds its items
// by scanning its keys, not through the shared index of additions; a
// larger one extended item by item still finds every item.
func TestSmallSetScans(t *testing.T) {
	set := newNamedSet[*setItem](nil)
	var keys []string
	for i := range smallKeys {
		key := fmt.Sprintf("tool_%d", i%3) + fmt.Sprint(i) // names of equal and different lengths
		keys = append(keys, key)
		set = set.with([]*setItem{newSetItem(key, i)})
		if len(set.keys) != len(keys) || set.nAdded != 0 {
			t.Fatalf("after %d additions: %d keys to scan, %d in the shared index; want %d and 0", i+1, len(set.keys), set.nAdded, len(keys))
		}
		checkSet(t, set, keys, "tool_0", "tool_1"+fmt.Sprint(i+1), "")
	}
	set = set.with([]*setItem{newSetItem(keys[3], 99)})
	if x := set.lookup(keys[3]); x == nil || x.v != 99 || len(set.keys) != smallKeys {
		t.Fatalf("replaced %q: lookup %v, %d keys to scan", keys[3], x, len(set.keys))
	}
	for i := smallKeys; i < smallKeys+100; i++ {
		key := fmt.Sprint("more_", i)
		keys = append(keys, key)
		set = set.with([]*setItem{newSetItem(key, i)})
	}
	checkSet(t, set, keys, "more_", "tool_0")
}
