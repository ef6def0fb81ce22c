package schema

import (
	"strings"
	"testing"
)

// TestDeepNestingRefusedInLinearTime checks that nesting deeper than
// MaxDepth is refused as the file is read, each value read once: 2 000
// levels above a 1 MB description cost what the same bytes cost with the
// description beside the deep chain (decoding every level's subtree again,
// as nested UnmarshalJSON methods did, cost 2 000 passes over the
// megabyte, some 30 s, before the error).
func TestDeepNestingRefusedInLinearTime(t *testing.T) {
	leaf := func(n int) string {
		return `{"type": "string", "description": "` + strings.Repeat("x", n) + `"}`
	}
	chain := func(inner string) string {
		return strings.Repeat(`{"type": "array", "items": `, 2000) + inner + strings.Repeat("}", 2000)
	}
	load := func(text string) func() {
		return func() {
			_, err := loadText(text)
			if err == nil || !strings.Contains(err.Error(), "nested more than") {
				t.Errorf("Load: %v, want the nesting error", err)
			}
		}
	}
	beside := `{"$defs": {"A": ` + chain(leaf(1)) + `, "B": ` + leaf(1<<20) + `}}`
	under := `{"$defs": {"A": ` + chain(leaf(1<<20)) + `}}`
	loadsInTime(t, "Load of a 1 MB description nested 2000 deep", 5, 0, load(beside), load(under))
}

// TestDeepNestingLocated checks that the nesting error names the first
// schema too deep by pointer, line and column.
func TestDeepNestingLocated(t *testing.T) {
	text := "{\"$defs\": {\"A\":\n" + strings.Repeat(`{"items": `, MaxDepth+5) + "{}" + strings.Repeat("}", MaxDepth+5) + "}}"
	_, err := loadText(text)
	wantErrorAt(t, err, 2, len(`{"items": `)*(MaxDepth+1)+1, "")
	if want := "#/$defs/A" + strings.Repeat("/items", MaxDepth+1); !strings.Contains(err.Error(), want+": schema nested more than") {
		t.Errorf("error %q, want it at %s", err, want)
	}
}
