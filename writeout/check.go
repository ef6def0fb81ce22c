package writeout

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Check compares dir with the files a run would write and returns the names
// that are stale, sorted: produced files that are missing or differ on disk,
// and generated Go files on disk (those carrying the header, and claimed by
// opts.Owns) that would no longer be produced. A missing dir makes every
// file stale. Files without the header are not considered.
func Check(dir string, files []File, opts Options) (stale []string, err error) {
	if err := validate(files); err != nil {
		return nil, err
	}
	produced := map[string]bool{}
	for _, f := range files {
		produced[f.Name] = true
		old, err := os.ReadFile(filepath.Join(dir, f.Name))
		switch {
		case errors.Is(err, fs.ErrNotExist):
			stale = append(stale, f.Name)
		case err != nil:
			return nil, err
		case !bytes.Equal(old, f.Content):
			stale = append(stale, f.Name)
		}
	}
	extra, err := generatedFiles(dir, opts)
	if err != nil {
		return nil, err
	}
	for _, name := range extra {
		if !produced[name] {
			stale = append(stale, name)
		}
	}
	sort.Strings(stale)
	return stale, nil
}

// generatedFiles lists the Go files in dir that carry the header and that
// opts.Owns claims. A missing dir has none. Only *.go files are read: the
// header is a Go comment.
func generatedFiles(dir string, opts Options) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range entries {
		if !e.Type().IsRegular() || !strings.HasSuffix(e.Name(), ".go") {
			continue
		}
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			return nil, err
		}
		if IsGenerated(data, opts.header()) && opts.owns(e.Name(), data) {
			out = append(out, e.Name())
		}
	}
	return out, nil
}
