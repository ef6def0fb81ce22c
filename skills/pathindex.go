package skills

import "slices"

// pathIndex finds the files beneath a directory among all the file paths
// of an FS in time logarithmic in their number, so that loading is linear
// in the number of skills rather than quadratic.
type pathIndex struct {
	sorted []string       // every file path, by byte order
	walked map[string]int // file path -> its place in the walk
}

// newPathIndex indexes filePaths, given in the order the walk found them.
func newPathIndex(filePaths []string) *pathIndex {
	x := &pathIndex{sorted: slices.Clone(filePaths), walked: make(map[string]int, len(filePaths))}
	slices.Sort(x.sorted)
	for i, p := range filePaths {
		x.walked[p] = i
	}
	return x
}

// under returns the paths of the files beneath directory d, by byte
// order: those beginning with d+"/", which sit together in sorted order,
// before those beginning with d+"0" ('0' follows '/').
func (x *pathIndex) under(d string) []string {
	lo, _ := slices.BinarySearch(x.sorted, d+"/")
	hi, _ := slices.BinarySearch(x.sorted, d+"0")
	return x.sorted[lo:hi]
}

// inWalkOrder returns a copy of paths in the order the walk found them.
func (x *pathIndex) inWalkOrder(paths []string) []string {
	out := slices.Clone(paths)
	slices.SortFunc(out, func(a, b string) int { return x.walked[a] - x.walked[b] })
	return out
}

// servedBy returns the paths of the files beneath any of skillDirs, by
// byte order.
func (x *pathIndex) servedBy(skillDirs []string) []string {
	in := map[string]bool{}
	for _, sd := range skillDirs {
		for _, p := range x.under(sd) {
			in[p] = true
		}
	}
	return slices.DeleteFunc(slices.Clone(x.sorted), func(p string) bool { return !in[p] })
}
