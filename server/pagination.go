package server

import (
	"encoding/base64"
	"encoding/json"
	"slices"
)

// Cursors are opaque to clients (server/utilities/pagination.mdx). This
// runtime's cursor is base64url (unpadded) of the JSON array
// [list, position, last, next]: the list it pages ("tools", "prompts",
// "resources", "resourceTemplates"; "" for Paginate; the name its caller
// gives PaginateKeyed), how many items the walk has listed, and the keys
// of the last item listed and of the first item of the next page ("" for
// Paginate). It holds no secret, so any
// replica with the same registrations reads a cursor another issued; it is
// canonical (encoding/json's encoding, strict base64), so a cursor is
// accepted only in the one spelling this runtime produces.

// cursor is a decoded pagination cursor.
type cursor struct {
	list       string
	position   int
	last, next string
}

var cursorEncoding = base64.RawURLEncoding.Strict()

func (c cursor) encode() string {
	raw, _ := json.Marshal([]any{c.list, c.position, c.last, c.next})
	return cursorEncoding.EncodeToString(raw)
}

// decodeCursor reads s, which must be a cursor of list in its canonical
// spelling, with a position of at least 1.
func decodeCursor(s, list string) (cursor, bool) {
	raw, err := cursorEncoding.DecodeString(s)
	if err != nil {
		return cursor{}, false
	}
	var fields []json.RawMessage
	if json.Unmarshal(raw, &fields) != nil || len(fields) != 4 {
		return cursor{}, false
	}
	var c cursor
	if json.Unmarshal(fields[0], &c.list) != nil || json.Unmarshal(fields[1], &c.position) != nil ||
		json.Unmarshal(fields[2], &c.last) != nil || json.Unmarshal(fields[3], &c.next) != nil {
		return cursor{}, false
	}
	return c, c.list == list && c.position >= 1 && c.encode() == s
}

// Paginate returns the page of items that cursor points at (the first page
// for ""), and the cursor of the next page ("" after the last page). A
// pageSize <= 0 returns everything. A cursor Paginate did not produce (one
// of another spelling or list, or of a position that is no multiple of pageSize)
// is an error that Handle answers with -32602, as the pagination page
// requires; a cursor past the end of a list that shrank gives an empty
// last page.
//
// The cursor is a position: when items before it are removed between two
// pages, the walk skips as many. The server's own lists (tools/list,
// prompts/list, resources/list, resources/templates/list) name the items
// around the position instead, so their cursors stay stable; so does
// PaginateKeyed, for a list whose items have keys.
func Paginate[T any](items []T, cursor string, pageSize int) (page []T, next string, err error) {
	start := 0
	if cursor != "" {
		c, ok := decodeCursor(cursor, "")
		if !ok || c.last != "" || c.next != "" || pageSize <= 0 || c.position%pageSize != 0 {
			return nil, "", invalidParams("invalid cursor")
		}
		start = min(c.position, len(items))
	}
	end := len(items)
	if pageSize > 0 && start+pageSize < end {
		end = start + pageSize
		next = cursorAt("", end, "", "")
	}
	return items[start:end], next, nil
}

// PaginateKeyed is Paginate for a list of items with unique keys (key
// returns an item's), paged as the server's own lists are: the cursor
// names list and the keys of the last item listed and of the next one, so
// items removed between two pages, even those two, skip none that stayed
// (when both are gone the walk starts over from the first item, and may
// list again items it listed before). A cursor of another list, or one
// PaginateKeyed did not produce, is an error that Handle answers with
// -32602. list tells apart the lists of one server that take cursors: the
// method, and the resource for a per-resource listing. An item added
// between two pages is listed when it comes after the page already given.
func PaginateKeyed[T any](list string, items []T, key func(T) string, cursor string, pageSize int) (page []T, next string, err error) {
	index := func(k string) (int, bool) {
		i := slices.IndexFunc(items, func(x T) bool { return key(x) == k })
		return i, i >= 0
	}
	return paginateKeyed(list, items, key, index, cursor, pageSize)
}

func cursorAt(list string, position int, last, next string) string {
	return cursor{list: list, position: position, last: last, next: next}.encode()
}

// paginateKeyed is Paginate for a list of keyed items in registration
// order (a replaced item keeps its place, a new one is appended): the
// cursor names list and the keys of the last item listed and of the next
// one, and the next page starts at the earlier of "just after last" and
// "at next" among those still listed, so removing items, even the ones
// the cursor names, skips none that stayed (server/utilities/
// pagination.mdx: "Provide stable cursors"); an item that is removed and
// added again moves to the end and is listed there. When both named items
// are gone nothing in the cursor tells where the walk was among the items
// that stayed (a position would skip as many as were removed before it),
// so the walk starts over from the first item: it may list again items it
// listed before, but skips none. index returns the position of a key in
// items.
func paginateKeyed[T any](list string, items []T, key func(T) string, index func(string) (int, bool), cur string, pageSize int) (page []T, next string, err error) {
	start := 0
	if cur != "" {
		c, ok := decodeCursor(cur, list)
		if !ok || c.last == "" || c.next == "" {
			return nil, "", invalidParams("invalid cursor")
		}
		i, okLast := index(c.last)
		j, okNext := index(c.next)
		switch {
		case okLast && okNext:
			start = min(i+1, j)
		case okLast:
			start = i + 1
		case okNext:
			start = j
		}
	}
	end := len(items)
	if pageSize > 0 && start+pageSize < end {
		end = start + pageSize
		next = cursorAt(list, end, key(items[end-1]), key(items[end]))
	}
	return items[start:end], next, nil
}
