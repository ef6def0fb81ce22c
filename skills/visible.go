package skills

import (
	"context"
	"slices"

	"github.com/mcpgen/mcpgen/server"
)

// What a caller sees follows the server's Options.Visible (and
// AuthOptions.HideForbidden) as resources/list does: a skill whose SKILL.md
// the caller does not see is not served to it (left out of skills/list,
// -32602 from skills/get), a file it does not see is left out of its
// skill's entry and of directory listings, and a directory is seen when a
// file beneath it is (an empty one when its skill's SKILL.md is).

// seenOnly returns the items seen reports true for: items itself when it
// reports true for all.
func seenOnly[T any](items []T, seen func(T) bool) []T {
	for i, x := range items {
		if seen(x) {
			continue
		}
		keep := slices.Clone(items[:i])
		for _, x := range items[i+1:] {
			if seen(x) {
				keep = append(keep, x)
			}
		}
		return keep
	}
	return items
}

// visibleSkills returns the skills whose SKILL.md the caller sees.
func visibleSkills(ctx context.Context, skills []*skill) []*skill {
	return seenOnly(skills, func(sk *skill) bool { return server.ResourceVisible(ctx, sk.uri) })
}

// visibleEntry is sk's entry listing the files the caller sees.
func (sk *skill) visibleEntry(ctx context.Context) Entry {
	e := sk.entry()
	e.Resources = seenOnly(e.Resources, func(r SkillResource) bool { return server.ResourceVisible(ctx, r.URI) })
	return e
}

// visible reports whether the caller sees directory d.
func (d *dir) visible(ctx context.Context) bool {
	if len(d.files) == 0 {
		return d.skillMD != "" && server.ResourceVisible(ctx, d.skillMD)
	}
	return slices.ContainsFunc(d.files, func(uri string) bool { return server.ResourceVisible(ctx, uri) })
}

// visibleChildren returns the children of d the caller sees.
func (c *catalog) visibleChildren(ctx context.Context, d *dir) []child {
	return seenOnly(d.children, func(ch child) bool {
		if sub := c.dirs[ch.uri]; sub != nil {
			return sub.visible(ctx)
		}
		return server.ResourceVisible(ctx, ch.uri)
	})
}
