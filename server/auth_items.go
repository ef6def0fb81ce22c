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
	e := entry{key: key, scopes: slices.Clone(scopes), kind: ItemKind(noun)}
	for _, sc := range scopes {
		if !validScope(sc) {
			e.err = fmt.Errorf("%s %q: scope %q is not a valid OAuth scope token (printable ASCII, no spaces, quotes or backslashes)", noun, key, sc)
			break
		}
	}
	return e
}

// visible returns the items the current request's caller may see: those
// Options.Visible hides are left out, and those the caller may not use
// when AuthOptions.HideForbidden asks lists to leave them out; otherwise
// (and when nothing is hidden) the set itself.
func (set *namedSet[T]) visible(ctx context.Context, s *Server) *namedSet[T] {
	if ctx == nil {
		return set
	}
	filter := s != nil && s.opts.Visible != nil
	hideAuth := hideForbidden(ctx)
	if !filter && !hideAuth {
		return set
	}
	keep := make([]T, 0, len(set.list))
	for _, x := range set.list {
		if (!hideAuth || allowed(ctx, x.base().scopes)) && !(filter && s.hidden(ctx, x.base())) {
			keep = append(keep, x)
		}
	}
	if len(keep) == len(set.list) {
		return set
	}
	return newNamedSet(keep)
}
