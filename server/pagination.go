package server

import (
	"encoding/base64"
	"strconv"
	"strings"
)

// Cursors are opaque to clients (server/utilities/pagination.mdx); this
// runtime encodes an offset as base64url("mcpgen:" + offset).

const cursorPrefix = "mcpgen:"

func encodeCursor(offset int) string {
	return base64.RawURLEncoding.EncodeToString([]byte(cursorPrefix + strconv.Itoa(offset)))
}

// decodeCursor returns the offset of a cursor; "" is the first page.
func decodeCursor(cursor string) (int, bool) {
	if cursor == "" {
		return 0, true
	}
	raw, err := base64.RawURLEncoding.DecodeString(cursor)
	if err != nil {
		return 0, false
	}
	s, ok := strings.CutPrefix(string(raw), cursorPrefix)
	if !ok {
		return 0, false
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 {
		return 0, false
	}
	return n, true
}

// Paginate returns the page of items that cursor points at (the first page
// for ""), and the cursor of the next page ("" after the last page). A
// pageSize <= 0 returns everything. A cursor Paginate did not produce is an
// error that Handle answers with -32602, as the pagination page requires;
// a cursor past the end of a list that shrank gives an empty last page.
func Paginate[T any](items []T, cursor string, pageSize int) (page []T, next string, err error) {
	off, ok := decodeCursor(cursor)
	if !ok {
		return nil, "", invalidParams("invalid cursor")
	}
	if off > len(items) {
		off = len(items)
	}
	end := len(items)
	if pageSize > 0 && off+pageSize < end {
		end = off + pageSize
		next = encodeCursor(end)
	}
	return items[off:end], next, nil
}
