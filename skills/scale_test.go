package skills_test

import (
	"bytes"
	"fmt"
	"io/fs"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/mcpgen/mcpgen/skills"
)

// manyFS is an in-memory FS of n one-file skills s0 … s<n-1> whose Open,
// Stat and ReadDir cost O(1) per entry (unlike fstest.MapFS, which scans
// every file to synthesize a directory), so that walking it is linear.
type manyFS struct {
	n    int
	root []fs.DirEntry
}

func newManyFS(n int) *manyFS {
	m := &manyFS{n: n, root: make([]fs.DirEntry, n)}
	names := make([]string, n)
	for i := range n {
		names[i] = fmt.Sprintf("s%d", i)
	}
	slices.Sort(names) // ReadDir returns entries sorted by name
	for i, nm := range names {
		m.root[i] = manyEntry{name: nm, dir: true}
	}
	return m
}

type manyEntry struct {
	name string
	dir  bool
	size int64
}

func (e manyEntry) Name() string               { return e.name }
func (e manyEntry) IsDir() bool                { return e.dir }
func (e manyEntry) Type() fs.FileMode          { return e.Mode().Type() }
func (e manyEntry) Info() (fs.FileInfo, error) { return e, nil }
func (e manyEntry) Size() int64                { return e.size }
func (e manyEntry) ModTime() time.Time         { return time.Time{} }
func (e manyEntry) Sys() any                   { return nil }
func (e manyEntry) Mode() fs.FileMode {
	if e.dir {
		return fs.ModeDir | 0o555
	}
	return 0o444
}

func (m *manyFS) content(dir string) []byte { return skillWith(dir, "") }

func (m *manyFS) ReadDir(name string) ([]fs.DirEntry, error) {
	if name == "." {
		return m.root, nil
	}
	if !strings.Contains(name, "/") && strings.HasPrefix(name, "s") {
		return []fs.DirEntry{manyEntry{name: "SKILL.md", size: int64(len(m.content(name)))}}, nil
	}
	return nil, &fs.PathError{Op: "readdir", Path: name, Err: fs.ErrNotExist}
}

func (m *manyFS) Open(name string) (fs.File, error) {
	if name == "." || !strings.Contains(name, "/") {
		return &manyFile{e: manyEntry{name: name, dir: true}}, nil
	}
	dir, base, _ := strings.Cut(name, "/")
	if base != "SKILL.md" {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
	}
	b := m.content(dir)
	return &manyFile{e: manyEntry{name: base, size: int64(len(b))}, r: bytes.NewReader(b)}, nil
}

type manyFile struct {
	e manyEntry
	r *bytes.Reader
}

func (f *manyFile) Stat() (fs.FileInfo, error) { return f.e, nil }
func (f *manyFile) Close() error               { return nil }
func (f *manyFile) Read(p []byte) (int, error) {
	if f.r == nil {
		return 0, fmt.Errorf("is a directory")
	}
	return f.r.Read(p)
}

// The Skills extension, "Limits": the per-skill limits "do not limit how
// many skills a server may serve …, and a listing may be arbitrarily
// large"; and a hostile input never hangs. New (and Reload) scanned every
// file path of the FS once per skill (loadSkill's paths, load's served
// set, buildDirs' dirSet × skillDirs), so loading was quadratic in the
// number of skills: 2,000 one-file skills loaded in ~0.3 s, 16,000 in
// ~20 s, 40,000 in minutes, while walking the FS and parsing every SKILL.md
// is linear (under a second of CPU for 20,000). The test gives New 10 s of
// CPU for 20,000 skills (CPU time, which a busy machine does not stretch as
// it does wall time; quadratic loading takes about 30 s of it), and stops
// waiting after 2 minutes of wall time.
func TestLoadIsLinearInSkillCount(t *testing.T) {
	const n = 20000
	fsys := newManyFS(n)
	done := make(chan error, 1)
	start, cpu := time.Now(), cpuTime()
	go func() {
		_, err := skills.New(fsys, skills.Options{})
		done <- err
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
		used := cpuTime() - cpu
		t.Logf("New of %d skills took %v, %v of CPU", n, time.Since(start), used)
		if used > 10*time.Second {
			t.Fatalf("New of %d one-file skills used %v of CPU (loading is quadratic in the number of skills)", n, used)
		}
	case <-time.After(2 * time.Minute):
		t.Fatalf("New of %d one-file skills has not returned after 2 minutes (loading is quadratic in the number of skills)", n)
	}
}

// Hostile input never causes a hang; README: New reads "no
// more of a file than the limit leaves" so that a SKILL.md costs no more
// than 16 MiB. A plain integer scalar is converted through math/big
// (SetString base 10/8, then String), which is superlinear: one 3 MB line
// "big: 1777…7" took New ~18 s (0o1777…: ~12 s; the same 3 MB quoted
// takes 0.1 s), and a 16 MiB one several minutes, during which New or
// Reload does not return. The integer is also rendered into a frontmatter
// far beyond maxFrontmatterJSON (1 MiB), which the writer checked only
// before a node. The test gives New 3 s and wants the bound's error.
func TestHugeIntegerScalarIsRefusedQuickly(t *testing.T) {
	for _, v := range []string{"1" + strings.Repeat("7", 3_000_000), "0o1" + strings.Repeat("7", 3_000_000)} {
		md := skillWith("good", "big: "+v+"\n")
		done := make(chan error, 1)
		go func() {
			_, err := skills.New(fstest.MapFS{"good/SKILL.md": {Data: md}}, skills.Options{})
			done <- err
		}()
		select {
		case err := <-done:
			// Its JSON is over maxFrontmatterJSON: refused, naming the line.
			if err == nil || !strings.Contains(err.Error(), "good/SKILL.md:4: frontmatter: frontmatter expands to more than") {
				t.Errorf("New of a SKILL.md with one %d-digit %s… integer: error %v; want the 1 MiB JSON bound, naming good/SKILL.md:4", len(v), v[:4], err)
			}
		case <-time.After(3 * time.Second):
			t.Fatalf("New of a %d-byte SKILL.md with one %s… integer scalar has not returned after 3 s (a quoted scalar of the same length loads in ~0.1 s)", len(md), v[:4])
		}
	}
}

// chainFS is one skill "good" whose 511 supporting files f0 … f510 sit at
// the bottom of a chain of depth directories good/d/d/…/d, with O(1)
// Open and ReadDir (fstest.MapFS scans every path for each directory).
type chainFS struct{ depth int }

func (c chainFS) level(name string) (int, bool) {
	if name == "good" {
		return 0, true
	}
	rest, ok := strings.CutPrefix(name, "good/")
	if !ok {
		return 0, false
	}
	n := strings.Count(rest, "/") + 1
	return n, rest == strings.TrimSuffix(strings.Repeat("d/", n), "/") && n <= c.depth
}

func (c chainFS) ReadDir(name string) ([]fs.DirEntry, error) {
	if name == "." {
		return []fs.DirEntry{manyEntry{name: "good", dir: true}}, nil
	}
	n, ok := c.level(name)
	if !ok {
		return nil, &fs.PathError{Op: "readdir", Path: name, Err: fs.ErrNotExist}
	}
	var out []fs.DirEntry
	if n == 0 {
		out = append(out, manyEntry{name: "SKILL.md", size: int64(len(skillWith("good", "")))})
	}
	if n < c.depth {
		return append(out, manyEntry{name: "d", dir: true}), nil
	}
	for i := range 511 {
		out = append(out, manyEntry{name: fmt.Sprintf("f%d", i)})
	}
	slices.SortFunc(out, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	return out, nil
}

func (c chainFS) Open(name string) (fs.File, error) {
	if name == "." {
		return &manyFile{e: manyEntry{name: ".", dir: true}}, nil
	}
	if _, ok := c.level(name); ok {
		return &manyFile{e: manyEntry{name: "d", dir: true}}, nil
	}
	if name == "good/SKILL.md" {
		b := skillWith("good", "")
		return &manyFile{e: manyEntry{name: "SKILL.md", size: int64(len(b))}, r: bytes.NewReader(b)}, nil
	}
	dir, base := name[:strings.LastIndex(name, "/")], name[strings.LastIndex(name, "/")+1:]
	if n, ok := c.level(dir); ok && n == c.depth && strings.HasPrefix(base, "f") {
		return &manyFile{e: manyEntry{name: base}, r: bytes.NewReader(nil)}, nil
	}
	return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
}

// The Skills extension, "Limits": a host must accept a skill of up to 512
// files and 16 MiB, and New refuses larger ones so that one skill costs a
// bounded amount. A skill within both limits — 512 empty files — whose
// supporting files sit 1,000 directories deep (paths of ~2,000 bytes,
// legal on Linux) took New about a minute: buildDirs, for every file,
// re-escaped the full path of every ancestor directory twice (ensure →
// dirURI → escapePath), files × depth × path length ≈ 10⁹ bytes of work
// and allocation, where walking the same tree takes under 0.1 s. The test
// gives New 5 s.
func TestDeepSkillLoadsQuickly(t *testing.T) {
	fsys := chainFS{depth: 1000}
	done := make(chan error, 1)
	go func() {
		_, err := skills.New(fsys, skills.Options{})
		done <- err
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("New of one 512-file, 41-byte skill whose files are 1,000 directories deep has not returned after 5 s")
	}
}
