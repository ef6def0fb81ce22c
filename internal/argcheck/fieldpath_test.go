package argcheck

import (
	"slices"
	"strconv"
	"testing"
)

func TestFieldPathKeepsDeepPathsInOrder(t *testing.T) {
	var p fieldPath
	var want []string
	for i := range 20 {
		name := "f" + strconv.Itoa(i)
		p.push(name)
		want = append(want, name)
		if got := p.names(); !slices.Equal(got, want) {
			t.Fatalf("after %d pushes: %v, want %v", i+1, got, want)
		}
	}
	// Back to depth 10, then a different branch: the old names past it are gone.
	p.depth = 10
	p.push("x")
	want = append(want[:10:10], "x")
	if got := p.names(); !slices.Equal(got, want) {
		t.Fatalf("after popping to 10 and pushing x: %v, want %v", got, want)
	}
	p.depth = 3
	p.push("y")
	if got, want := p.names(), []string{"f0", "f1", "f2", "y"}; !slices.Equal(got, want) {
		t.Fatalf("after popping to 3: %v, want %v", got, want)
	}
}
