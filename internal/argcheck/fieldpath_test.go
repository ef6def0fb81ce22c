package argcheck

import (
	"slices"
	"strconv"
	"testing"

	"github.com/mcpgen/mcpgen/internal/jsonscan"
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

// TestFieldPathPointerHasIndexesAndMembersNotEmbeddedNames: encoding/json's
// Field is the field names (an embedded struct's Go name too); the JSON
// pointer is the members and indexes, escaped, deep paths included.
func TestFieldPathPointerHasIndexesAndMembersNotEmbeddedNames(t *testing.T) {
	tape, err := jsonscan.ParseTape([]byte(`{"a/b~":1}`), 8)
	if err != nil {
		t.Fatal(err)
	}
	defer tape.Release()
	var p fieldPath
	p.push("items")
	p.pushIndex(3)
	p.pushEmbedded("Inner")
	p.push("tags")
	p.pushMember(tape, tape.FirstMember(0))
	for i := range 10 {
		p.pushIndex(i)
	}
	if got, want := p.pointer(), "/items/3/tags/a~1b~0/0/1/2/3/4/5/6/7/8/9"; got != want {
		t.Errorf("pointer %s, want %s", got, want)
	}
	if got, want := p.names(), []string{"items", "Inner", "tags"}; !slices.Equal(got, want) {
		t.Errorf("names %v, want %v", got, want)
	}
}
