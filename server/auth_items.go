package server

import (
	"context"
	"fmt"
	"slices"
)

// newEntry starts the catalog entry of a tool, prompt, resource or
// template keyed key that needs scopes; an invalid scope is its
// construction error.
func newEntry(noun, key string, scopes []string) entry {
	e := entry{key: key, scopes: slices.Clone(scopes)}
	for _, sc := range scopes {
		if !validScope(sc) {
			e.err = fmt.Errorf("%s %q: scope %q is not a valid OAuth scope token (printable ASCII, no spaces, quotes or backslashes)", noun, key, sc)
			break
		}
	}
	return e
}

// visible returns the items the current request's caller may use, when
// AuthOptions.HideForbidden asks lists to leave out the others; otherwise
// (and when nothing is hidden) the set itself.
func (set *namedSet[T]) visible(ctx context.Context) *namedSet[T] {
	if ctx == nil || !hideForbidden(ctx) {
		return set
	}
	keep := make([]T, 0, len(set.list))
	for _, x := range set.list {
		if allowed(ctx, x.base().scopes) {
			keep = append(keep, x)
		}
	}
	if len(keep) == len(set.list) {
		return set
	}
	return newNamedSet(keep)
}
