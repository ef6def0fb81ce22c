package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/mod/modfile"

	"github.com/mcpgen/mcpgen/templates"
)

// writeFiles creates the files in dir (creating dir as needed). A file
// that exists is never replaced: it is recorded in s.skipped. Files are
// opened with O_EXCL so that a file appearing meanwhile is not clobbered
// either.
//
// Everything is written inside dir: a symbolic link among the folders of a
// file's path (dir/skills pointing elsewhere, say), or in place of a file
// the go command writes (go.mod, go.sum), is refused before any file is
// written, and the writes go through an os.Root of dir, which no link can
// lead out of.
func writeFiles(dir string, files []templates.File, s *summary) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return err
	}
	defer root.Close()
	for _, f := range files {
		if err := checkNoLinkedFolder(root, dir, f.Name); err != nil {
			return err
		}
	}
	if err := checkNoLinkedGoFiles(root, dir); err != nil {
		return err
	}
	for _, f := range files {
		name := filepath.FromSlash(f.Name)
		if parent := filepath.Dir(name); parent != "." {
			if err := root.MkdirAll(parent, 0o755); err != nil {
				return err
			}
		}
		out, err := root.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if errors.Is(err, fs.ErrExist) {
			s.skipped = append(s.skipped, f.Name)
			continue
		}
		if err != nil {
			return fmt.Errorf("writing %s: %w", filepath.Join(dir, name), err)
		}
		_, err = out.Write(f.Content)
		if cerr := out.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return fmt.Errorf("writing %s: %w", filepath.Join(dir, name), err)
		}
		s.wrote = append(s.wrote, f.Name)
	}
	return nil
}

// checkNoLinkedFolder refuses a symbolic link among the folders of name
// (a slash-separated path inside root): init writes the project's files
// into dir itself, never through a link into another folder.
func checkNoLinkedFolder(root *os.Root, dir, name string) error {
	elems := strings.Split(name, "/")
	for i := 1; i < len(elems); i++ {
		rel := filepath.Join(elems[:i]...)
		info, err := root.Lstat(rel)
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		if err != nil {
			return err
		}
		if info.Mode()&fs.ModeSymlink != 0 {
			return fmt.Errorf("%s is a symbolic link; init writes %s only into the project folder itself, not through links (move the link away or choose another folder)",
				filepath.Join(dir, rel), name)
		}
		if !info.IsDir() {
			return fmt.Errorf("%s is not a folder, but the scaffold writes %s", filepath.Join(dir, rel), name)
		}
	}
	return nil
}

// goCommandFiles are the files of the project folder that the go command
// writes in place (through a symbolic link, if one stands there) while init
// resolves the dependencies, and later on every `go get` or `go mod tidy`.
var goCommandFiles = []string{"go.mod", "go.sum"}

// checkNoLinkedGoFiles refuses a symbolic link in dir named like a file the
// go command writes: init would skip it as existing, and the go command
// would then write the checksums (or requirements) through it, into a file
// outside the project folder.
func checkNoLinkedGoFiles(root *os.Root, dir string) error {
	for _, name := range goCommandFiles {
		info, err := root.Lstat(name)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return err
		}
		if info.Mode()&fs.ModeSymlink != 0 {
			return fmt.Errorf("%s is a symbolic link; the go command would write through it, outside the project folder (move the link away or choose another folder)",
				filepath.Join(dir, name))
		}
	}
	return nil
}

// wroteFile reports whether init wrote name in this run.
func (s *summary) wroteFile(name string) bool {
	return slices.Contains(s.wrote, name)
}

// checkReplace checks that path holds an mcpgen checkout and returns it
// absolute.
func checkReplace(path string) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	gomod := filepath.Join(abs, "go.mod")
	data, err := os.ReadFile(gomod)
	if err != nil {
		return "", fmt.Errorf("%s is not an mcpgen checkout: %w", path, err)
	}
	if mp := modfile.ModulePath(data); mp != templates.ModulePath {
		return "", fmt.Errorf("%s is module %q, not %s", gomod, mp, templates.ModulePath)
	}
	return abs, nil
}

// goSumSeed returns the go.sum of the mcpgen checkout at replace (nil
// without one; with auth, merged with the go.sum of its oauth module). The scaffold starts from it so that the go command finds the
// checksums of mcpgen's dependencies without asking the checksum database:
// they are the sums the checkout itself was verified with. Lines the
// scaffold does not need stay until its first `go mod tidy`.
func goSumSeed(replace string, auth, cluster bool) ([]byte, error) {
	if replace == "" {
		return nil, nil
	}
	sums := []string{filepath.Join(replace, "go.sum")}
	if auth {
		sums = append(sums, filepath.Join(replace, "oauth", "go.sum"))
	}
	if cluster {
		sums = append(sums, filepath.Join(replace, "cluster", "natscluster", "go.sum"),
			filepath.Join(replace, "cluster", "rediscluster", "go.sum"))
	}
	var out []byte
	for _, name := range sums {
		data, err := os.ReadFile(name)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, err
		}
		out = append(out, data...)
	}
	if out == nil {
		return nil, nil
	}
	return mergeSums(out), nil
}

// mergeSums sorts go.sum lines and drops duplicates (the checkout's and
// its oauth module's go.sum overlap).
func mergeSums(data []byte) []byte {
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	slices.Sort(lines)
	lines = slices.Compact(lines)
	return []byte(strings.Join(lines, "\n") + "\n")
}
