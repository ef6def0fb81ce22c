package skills

import (
	"net/url"
	"path"
	"slices"
	"strings"
)

// buildDirs makes a directory resource of every directory on the way to a
// served file: skill roots, their subdirectories (empty ones too) and the
// prefix directories above skills (skill://acme, skill://acme/billing).
// served holds the paths of the files inside skills. Each directory's URI
// is its parent's plus one escaped segment, and a file is added to its
// ancestors through parent links, so the work is linear in the total
// length of the paths however deep they go.
func (c *catalog) buildDirs(served []string, dirSet map[string]bool, skillDirs []string) {
	b := &dirBuilder{c: c, isSkill: map[string]bool{}, byPath: map[string]*dir{}, parent: map[*dir]*dir{}, linked: map[string]bool{}, inSkill: map[string]bool{}}
	for _, sd := range skillDirs {
		b.isSkill[sd] = true
	}
	for _, p := range served {
		dp := path.Dir(p)
		b.link(dp)
		x := b.ensure(dp)
		f := c.files[x.uri+"/"+url.PathEscape(path.Base(p))]
		x.children = append(x.children, child{uri: f.uri, name: f.name, mimeType: f.mimeType, description: f.description})
		for d := x; d != nil; d = b.parent[d] {
			d.files = append(d.files, f.uri)
		}
	}
	for d := range dirSet {
		if b.insideSkill(d) {
			b.link(d)
		}
	}
	for _, x := range c.dirs {
		slices.SortFunc(x.children, func(a, b child) int { return strings.Compare(a.uri, b.uri) })
	}
}

// dirBuilder holds what buildDirs knows of each directory path, so that
// none is computed twice.
type dirBuilder struct {
	c       *catalog
	isSkill map[string]bool // skill roots
	byPath  map[string]*dir // directory path -> its resource
	parent  map[*dir]*dir   // nil for a top-level directory
	linked  map[string]bool // directories already listed by their parent
	inSkill map[string]bool // directory path -> whether it is or lies inside a skill root
}

// ensure returns the resource of directory d, made with its ancestors'.
func (b *dirBuilder) ensure(d string) *dir {
	if x := b.byPath[d]; x != nil {
		return x
	}
	x := &dir{}
	if up := path.Dir(d); up == "." {
		x.uri = "skill://" + url.PathEscape(d)
	} else {
		p := b.ensure(up)
		x.uri = p.uri + "/" + url.PathEscape(path.Base(d))
		x.skillMD = p.skillMD
		b.parent[x] = p
	}
	if b.isSkill[d] {
		x.skillMD = x.uri + "/" + skillFileName
	}
	b.byPath[d] = x
	b.c.dirs[x.uri] = x
	return x
}

// link makes d a directory resource listed by each of its ancestors.
func (b *dirBuilder) link(d string) {
	for ; d != "." && !b.linked[d]; d = path.Dir(d) {
		b.linked[d] = true
		x := b.ensure(d)
		if p := b.parent[x]; p != nil {
			p.children = append(p.children, child{uri: x.uri, name: path.Base(d), mimeType: DirectoryMIMEType})
		}
	}
}

// insideSkill reports whether directory d is a skill root or lies inside one.
func (b *dirBuilder) insideSkill(d string) bool {
	if d == "." {
		return false
	}
	in, ok := b.inSkill[d]
	if !ok {
		in = b.isSkill[d] || b.insideSkill(path.Dir(d))
		b.inSkill[d] = in
	}
	return in
}
