package server

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"io"
	"log/slog"
	"testing"
)

// pagedPromptServer serves prompts named by names, pageSize to a page, and
// tools named by tools.
func pagedPromptServer(t *testing.T, names, tools []string) *Server {
	t.Helper()
	var prompts []Prompt
	for _, n := range names {
		prompts = append(prompts, NewPrompt(PromptInfo{Name: n}, func(ctx context.Context, in map[string]string) (string, error) { return n, nil }))
	}
	var ts []Tool
	for _, n := range tools {
		ts = append(ts, NewTool(ToolInfo{Name: n}, func(ctx context.Context, in noArgs) (string, error) { return "", nil }))
	}
	s, err := New(Options{Name: "t", Version: "1", PageSize: 2, Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), Prompts: prompts, Tools: ts})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// promptNames returns the names on a prompts/list page and its nextCursor.
func promptNames(t *testing.T, s *Server, cursor *string) (names []string, next *string, code int64) {
	t.Helper()
	params := ""
	if cursor != nil {
		c, _ := json.Marshal(*cursor)
		params = `"cursor":` + string(c)
	}
	res, code, _ := rpcAt2026(t, s, "prompts/list", params)
	if code != 0 {
		return nil, nil, code
	}
	for _, p := range res["prompts"].([]any) {
		names = append(names, p.(map[string]any)["name"].(string))
	}
	if n, ok := res["nextCursor"].(string); ok {
		next = &n
	}
	return names, next, 0
}

// Paginate's documentation: "A cursor Paginate did not produce is an error
// that Handle answers with -32602, as the pagination page requires"
// (server/utilities/pagination.mdx: "Invalid cursors SHOULD result in an
// error with code -32602"). With two prompts to a page, Paginate produces
// the cursors of offsets 2, 4, …; a client that forged base64url("mcpgen:1")
// or base64url("mcpgen:+2") (strconv.Atoi takes the sign) got a page
// with the offset cursor this runtime used to issue, starting wherever it
// chose.
func TestForgedCursorIsInvalidParams(t *testing.T) {
	s := pagedPromptServer(t, []string{"a", "b", "c", "d", "e"}, nil)
	for _, raw := range []string{"mcpgen:1", "mcpgen:+2", "mcpgen:02", "mcpgen:3"} {
		cursor := base64.RawURLEncoding.EncodeToString([]byte(raw))
		names, _, code := promptNames(t, s, &cursor)
		if code != -32602 {
			t.Errorf("forged cursor %q (%s): code %d, page %v; want -32602", cursor, raw, code, names)
		}
	}
}

// A cursor is "an opaque token representing the current pagination
// position" of one result set (schema PaginatedRequestParams.cursor;
// server/utilities/pagination.mdx: "a position in the result set", and
// "Invalid cursors SHOULD result in an error with code -32602"). The
// nextCursor of tools/list is no position in the prompts/list result set;
// an offset cursor let prompts/list serve the prompts from the tools'
// offset, so a client mixing up its cursors silently skipped prompts.
func TestCursorOfAnotherListIsInvalidParams(t *testing.T) {
	s := pagedPromptServer(t, []string{"p1", "p2", "p3", "p4", "p5"}, []string{"t1", "t2", "t3"})
	res, code, body := rpcAt2026(t, s, "tools/list", "")
	if code != 0 {
		t.Fatal(body)
	}
	toolCursor, ok := res["nextCursor"].(string)
	if !ok {
		t.Fatalf("tools/list has no nextCursor: %s", body)
	}
	names, _, code := promptNames(t, s, &toolCursor)
	if code != -32602 {
		t.Errorf("prompts/list with the cursor of tools/list: code %d, page %v; want -32602", code, names)
	}
}

// server/utilities/pagination.mdx: "Servers SHOULD: Provide stable
// cursors". A prompt present for the whole walk must be listed by it. An
// offset cursor skips one that never changed when an earlier prompt is
// removed between two pages: prompts a..e, two to a
// page; page 1 is a, b; "a" is removed; page 2 starts at offset 2 of
// b, c, d, e and is d, e — "c" is never listed.
func TestCursorIsStableWhenAnEarlierItemIsRemoved(t *testing.T) {
	s := pagedPromptServer(t, []string{"a", "b", "c", "d", "e"}, nil)
	seen := map[string]bool{}
	names, next, code := promptNames(t, s, nil)
	if code != 0 || next == nil {
		t.Fatalf("first page: %v %v %d", names, next, code)
	}
	for _, n := range names {
		seen[n] = true
	}
	s.RemovePrompts("a")
	for next != nil {
		names, next, code = promptNames(t, s, next)
		if code != 0 {
			t.Fatalf("next page: code %d", code)
		}
		for _, n := range names {
			seen[n] = true
		}
	}
	for _, n := range []string{"b", "c", "d", "e"} {
		if !seen[n] {
			t.Errorf("prompt %q, registered for the whole walk, was never listed (seen %v)", n, seen)
		}
	}
}

// The walk of TestCursorIsStableWhenAnEarlierItemIsRemoved, when the
// items the cursor names (the last listed, b, or the next, c) are removed
// between pages, or re-added (moving to the end): every prompt present for
// the whole walk is listed.
func TestCursorIsStableWhenTheItemsItNamesChange(t *testing.T) {
	for _, c := range []struct {
		name    string
		change  func(s *Server)
		present []string
	}{
		{"last removed", func(s *Server) { s.RemovePrompts("b") }, []string{"a", "c", "d", "e"}},
		{"next removed", func(s *Server) { s.RemovePrompts("c") }, []string{"a", "b", "d", "e"}},
		{"both removed", func(s *Server) { s.RemovePrompts("b", "c") }, []string{"a", "d", "e"}},
		{"last re-added", func(s *Server) {
			s.RemovePrompts("b")
			_ = s.AddPrompts(NewPrompt(PromptInfo{Name: "b"}, func(ctx context.Context, in map[string]string) (string, error) { return "", nil }))
		}, []string{"a", "b", "c", "d", "e"}},
		{"next re-added", func(s *Server) {
			s.RemovePrompts("c")
			_ = s.AddPrompts(NewPrompt(PromptInfo{Name: "c"}, func(ctx context.Context, in map[string]string) (string, error) { return "", nil }))
		}, []string{"a", "b", "c", "d", "e"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := pagedPromptServer(t, []string{"a", "b", "c", "d", "e"}, nil)
			seen := map[string]bool{}
			names, next, _ := promptNames(t, s, nil)
			for _, n := range names {
				seen[n] = true
			}
			c.change(s)
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
			for _, n := range c.present {
				if !seen[n] {
					t.Errorf("prompt %q was never listed (seen %v)", n, seen)
				}
			}
		})
	}
}

// A cursor holds no secret of the process: behind a load balancer, a
// replica with the same registrations reads the cursor another issued.
func TestCursorIsReadByAnotherReplica(t *testing.T) {
	one := pagedPromptServer(t, []string{"a", "b", "c", "d", "e"}, nil)
	two := pagedPromptServer(t, []string{"a", "b", "c", "d", "e"}, nil)
	_, next, _ := promptNames(t, one, nil)
	names, _, code := promptNames(t, two, next)
	if code != 0 || len(names) != 2 || names[0] != "c" || names[1] != "d" {
		t.Errorf("second page from another replica: %v, code %d; want [c d]", names, code)
	}
}

// Paginate, whose cursor is a position, refuses a position it does not
// produce: one that is no multiple of the page size.
func TestPaginateRefusesAPositionItDidNotProduce(t *testing.T) {
	items := []int{1, 2, 3, 4, 5}
	_, next, _ := Paginate(items, "", 2)
	if _, _, err := Paginate(items, next, 3); err == nil {
		t.Errorf("a cursor of position 2 accepted with pages of 3")
	}
	if _, _, err := Paginate(items, cursorAt("prompts", 2, "b", "c"), 2); err == nil {
		t.Errorf("a cursor of prompts/list accepted by Paginate")
	}
}

// README ("The registrations, for paging"): "Items removed between two
// pages, even the ones the cursor names, skip none that stayed". With two
// prompts to a page, the first page of a…e is a, b; the cursor names b
// (last listed) and c (next). When a, b and c are removed before the
// next page, neither named item is left, and paginateKeyed starts at the
// cursor's position less one (1) in what remains, d, e: the page was e,
// and d, which stayed for the whole walk, was never listed. The walk now
// starts over, listing d and e.
func TestCursorWhoseItemsAreGoneSkipsNoneThatStayed(t *testing.T) {
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

// PaginateKeyed pages an extension's list as the server pages its own: a
// cursor of another list is refused, and removing the last item listed
// skips none that stayed.
func TestPaginateKeyedIsStableAndNamesItsList(t *testing.T) {
	id := func(s string) string { return s }
	page, next, err := PaginateKeyed("letters", []string{"a", "b", "c", "d"}, id, "", 2)
	if err != nil || len(page) != 2 || next == "" {
		t.Fatalf("first page %v %q %v", page, next, err)
	}
	if _, _, err := PaginateKeyed("digits", []string{"a", "b", "c", "d"}, id, next, 2); err == nil {
		t.Error("a cursor of letters was accepted by digits")
	}
	page, _, err = PaginateKeyed("letters", []string{"a", "c", "d"}, id, next, 2)
	if err != nil || len(page) != 2 || page[0] != "c" {
		t.Errorf("after b went away, the next page is %v (%v); want [c d]", page, err)
	}
}
