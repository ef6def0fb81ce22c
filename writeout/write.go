package writeout

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
)

// Result says what Write did, each list sorted by file name.
type Result struct {
	// Written are the files created or replaced.
	Written []string
	// Unchanged are the files whose content on disk was already right; they
	// are left alone, keeping their modification time.
	Unchanged []string
	// Removed are generated files that are no longer produced.
	Removed []string
}

// Write puts files into dir as one step. New content goes first into a
// temporary folder inside dir (".mcpgen-*", so on the file system of the
// files it replaces even when dir is a mount point or a link to one), then
// each file is renamed into place; if any step fails, the files already
// moved are put back, so dir holds either the old set or the new one, never
// a mix. A dir that does not exist yet is created by renaming a whole
// temporary folder made beside it.
//
// Generated files in dir that are no longer produced are removed (unless
// opts.KeepStale). Write refuses to replace a file that does not carry the
// generated header, or that opts.Owns disowns, since someone else wrote it.
func Write(dir string, files []File, opts Options) (*Result, error) {
	if err := validate(files); err != nil {
		return nil, err
	}
	dir = filepath.Clean(dir)
	header := opts.header()
	res := &Result{}

	info, err := os.Stat(dir)
	exists := err == nil
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return nil, err
	case !info.IsDir():
		return nil, fmt.Errorf("writeout: %s is not a folder", dir)
	}

	var changed []File
	produced := map[string]bool{}
	for _, f := range files {
		produced[f.Name] = true
		if !exists {
			changed = append(changed, f)
			continue
		}
		old, err := os.ReadFile(filepath.Join(dir, f.Name))
		switch {
		case errors.Is(err, fs.ErrNotExist):
			changed = append(changed, f)
		case err != nil:
			return nil, err
		case bytes.Equal(old, f.Content):
			res.Unchanged = append(res.Unchanged, f.Name)
		case !IsGenerated(old, header):
			return nil, fmt.Errorf("writeout: %s exists and was not generated (no %q line); move it away or choose another output folder", filepath.Join(dir, f.Name), header)
		case !opts.owns(f.Name, old):
			return nil, fmt.Errorf("writeout: %s exists and was written by another generator; move it away or choose another output folder", filepath.Join(dir, f.Name))
		default:
			changed = append(changed, f)
		}
	}
	var stale []string
	if exists && !opts.KeepStale {
		gen, err := generatedFiles(dir, opts)
		if err != nil {
			return nil, err
		}
		for _, name := range gen {
			if !produced[name] {
				stale = append(stale, name)
			}
		}
	}
	if len(changed) == 0 && len(stale) == 0 {
		return res, nil
	}

	tmp, err := stagingFolder(dir, exists)
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	staged := filepath.Join(tmp, "new")
	if err := os.Mkdir(staged, 0o755); err != nil {
		return nil, err
	}
	for _, f := range changed {
		if err := writeFile(filepath.Join(staged, f.Name), f.Content); err != nil {
			return nil, err
		}
		res.Written = append(res.Written, f.Name)
	}
	sort.Strings(res.Written)

	if !exists {
		if err := rename(staged, dir); err != nil {
			return nil, err
		}
		return res, nil
	}
	if err := swap(dir, tmp, changed, stale); err != nil {
		return nil, err
	}
	res.Removed = stale
	return res, nil
}

// stagingFolder makes the temporary folder Write stages into: inside dir
// when it exists, so that every rename stays on dir's file system, else
// beside it (dir is then created by one rename within its parent).
func stagingFolder(dir string, exists bool) (string, error) {
	if exists {
		return os.MkdirTemp(dir, ".mcpgen-*")
	}
	parent := filepath.Dir(dir)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return "", err
	}
	return os.MkdirTemp(parent, "."+filepath.Base(dir)+".mcpgen-*")
}

// rename is os.Rename; tests replace it to make a step fail.
var rename = os.Rename

// move is one step of swap, recorded so that it can be undone.
type move struct {
	name   string
	placed bool // the new file was renamed into dir
	saved  bool // the old file was renamed into the backup folder
}

// swap renames the staged files into dir and the stale ones out of it,
// keeping the old versions in tmp/old until every rename has succeeded.
func swap(dir, tmp string, changed []File, stale []string) (err error) {
	backup := filepath.Join(tmp, "old")
	if err := os.Mkdir(backup, 0o700); err != nil {
		return err
	}
	var done []move
	defer func() {
		if err == nil {
			return
		}
		for i := len(done) - 1; i >= 0; i-- {
			m := done[i]
			if m.placed {
				os.Remove(filepath.Join(dir, m.name))
			}
			if m.saved {
				os.Rename(filepath.Join(backup, m.name), filepath.Join(dir, m.name))
			}
		}
	}()
	save := func(name string) (bool, error) {
		err := rename(filepath.Join(dir, name), filepath.Join(backup, name))
		if errors.Is(err, fs.ErrNotExist) {
			return false, nil
		}
		return err == nil, err
	}
	for _, f := range changed {
		m := move{name: f.Name}
		if m.saved, err = save(f.Name); err != nil {
			return err
		}
		done = append(done, m)
		if err = rename(filepath.Join(tmp, "new", f.Name), filepath.Join(dir, f.Name)); err != nil {
			return err
		}
		done[len(done)-1].placed = true
	}
	for _, name := range stale {
		m := move{name: name}
		if m.saved, err = save(name); err != nil {
			return err
		}
		done = append(done, m)
	}
	return nil
}

// writeFile writes and syncs one file, so that a rename never exposes a
// file whose content is still in flight.
func writeFile(path string, content []byte) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	if _, err := f.Write(content); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
