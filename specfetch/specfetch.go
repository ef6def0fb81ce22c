// Package specfetch finds the schema of an MCP protocol revision: it
// resolves a version name such as "2026-07-28" to a schema.json on disk
// (a local checkout of the specification named by MCPGEN_SPEC_DIR, then the
// user cache), downloads a revision into that cache, and lists the
// revisions at hand.
package specfetch

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
)

// EnvSpecDir names the environment variable holding a local checkout of the
// MCP specification (with schema/<version>/schema.json inside).
const EnvSpecDir = "MCPGEN_SPEC_DIR"

// Location is where resolving looks for revisions.
type Location struct {
	// SpecDir is a checkout of the specification; "" skips it.
	SpecDir string
	// CacheDir is the cache that Fetch fills (holding <version>/schema.json);
	// "" skips it.
	CacheDir string
}

// Default returns the location from the environment: MCPGEN_SPEC_DIR and
// the user cache (os.UserCacheDir()/mcpgen/spec).
func Default() Location {
	loc := Location{SpecDir: os.Getenv(EnvSpecDir)}
	if dir, err := CacheDir(); err == nil {
		loc.CacheDir = dir
	}
	return loc
}

// CacheDir is the folder where fetched revisions are kept:
// os.UserCacheDir()/mcpgen/spec.
func CacheDir() (string, error) {
	dir, err := os.UserCacheDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, "mcpgen", "spec"), nil
}

var versionPattern = regexp.MustCompile(`^(\d{4}-\d{2}-\d{2}|draft)$`)

// IsVersion reports whether s is a revision name: a date such as
// "2026-07-28", or "draft".
func IsVersion(s string) bool { return versionPattern.MatchString(s) }

// ErrNotFound is returned (wrapped) when no schema exists for a version.
var ErrNotFound = errors.New("schema not found")

// Resolve turns a --schema argument into the path of a schema.json. An
// argument that names an existing file, contains a path separator or ends
// in ".json" is a file; otherwise it must be a version name, looked up in
// SpecDir (schema/<v>/schema.json) and then in CacheDir (<v>/schema.json).
func (l Location) Resolve(arg string) (string, error) {
	if arg == "" {
		return "", errors.New("no schema given")
	}
	if looksLikeFile(arg) {
		info, err := os.Stat(arg)
		if err != nil {
			return "", fmt.Errorf("schema file %s: %w", arg, ErrNotFound)
		}
		if info.IsDir() {
			return l.inFolder(arg)
		}
		return arg, nil
	}
	if !IsVersion(arg) {
		return "", fmt.Errorf("%q is neither a schema file nor a version name such as 2026-07-28", arg)
	}
	var tried []string
	for _, path := range l.candidates(arg) {
		if isFile(path) {
			return path, nil
		}
		tried = append(tried, path)
	}
	if len(tried) == 0 {
		return "", fmt.Errorf("schema %s: %w: set %s to a checkout of the MCP specification, or run `mcpgen schema fetch %s`", arg, ErrNotFound, EnvSpecDir, arg)
	}
	return "", fmt.Errorf("schema %s: %w (looked in %s); set %s to a checkout of the MCP specification, or run `mcpgen schema fetch %s`",
		arg, ErrNotFound, strings.Join(tried, ", "), EnvSpecDir, arg)
}

// inFolder accepts a folder holding schema.json (schema/2026-07-28).
func (l Location) inFolder(dir string) (string, error) {
	path := filepath.Join(dir, "schema.json")
	if !isFile(path) {
		return "", fmt.Errorf("%s is a folder without schema.json: %w", dir, ErrNotFound)
	}
	return path, nil
}

// candidates are the places a version's schema may be, in order.
func (l Location) candidates(version string) []string {
	var out []string
	if l.SpecDir != "" {
		out = append(out, filepath.Join(l.SpecDir, "schema", version, "schema.json"))
	}
	if l.CacheDir != "" {
		out = append(out, filepath.Join(l.CacheDir, version, "schema.json"))
	}
	return out
}

func looksLikeFile(arg string) bool {
	if strings.ContainsAny(arg, `/\`) || strings.HasSuffix(arg, ".json") {
		return true
	}
	_, err := os.Stat(arg)
	return err == nil
}

func isFile(path string) bool {
	info, err := os.Stat(path)
	return err == nil && info.Mode().IsRegular()
}

// Entry is one revision at hand.
type Entry struct {
	Version string
	// Path is the schema.json.
	Path string
	// Source is "spec dir" or "cache".
	Source string
	// HasTypeScript reports whether schema.ts lies beside it.
	HasTypeScript bool
}

// List returns the revisions found in SpecDir and CacheDir, sorted by
// version, spec dir first for a version found in both. A missing folder
// has no revisions.
func (l Location) List() ([]Entry, error) {
	var out []Entry
	if l.SpecDir != "" {
		e, err := scan(filepath.Join(l.SpecDir, "schema"), "spec dir")
		if err != nil {
			return nil, err
		}
		out = append(out, e...)
	}
	if l.CacheDir != "" {
		e, err := scan(l.CacheDir, "cache")
		if err != nil {
			return nil, err
		}
		out = append(out, e...)
	}
	// A stable sort by version keeps spec dir before cache.
	slices.SortStableFunc(out, func(a, b Entry) int { return strings.Compare(a.Version, b.Version) })
	return out, nil
}

func scan(dir, source string) ([]Entry, error) {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []Entry
	for _, e := range entries {
		if !e.IsDir() || !IsVersion(e.Name()) {
			continue
		}
		path := filepath.Join(dir, e.Name(), "schema.json")
		if !isFile(path) {
			continue
		}
		out = append(out, Entry{
			Version:       e.Name(),
			Path:          path,
			Source:        source,
			HasTypeScript: isFile(filepath.Join(dir, e.Name(), "schema.ts")),
		})
	}
	return out, nil
}
