package server

import "testing"

// README ("The registrations, for paging"): "Items removed between two
// pages, even the ones the cursor names, skip none that stayed". With two
// prompts to a page, the first page of a…e is a, b; the cursor names b
// (last listed) and c (next). When a, b and c are removed before the
// next page, neither named item is left, and paginateKeyed starts at the
// cursor's position less one (1) in what remains, d, e: the page is e,
// and d, which stayed for the whole walk, is never listed.
func TestCursorSkipsNoneWhenEarlierAndNamedItemsAreRemoved(t *testing.T) {
	s := pagedPromptServer(t, []string{"a", "b", "c", "d", "e"}, nil)
	seen := map[string]bool{}
	names, next, _ := promptNames(t, s, nil)
	for _, n := range names {
		seen[n] = true
	}
	s.RemovePrompts("a", "b", "c")
	for next != nil {
		var code int64
		names, next, code = promptNames(t, s, next)
		if code != 0 {
			t.Fatalf("next page: code %d", code)
		}
		for _, n := range names {
			seen[n] = true
		}
	}
	for _, n := range []string{"d", "e"} {
		if !seen[n] {
			t.Errorf("prompt %q stayed for the whole walk but was never listed (seen %v)", n, seen)
		}
	}
}
