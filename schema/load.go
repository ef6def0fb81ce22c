package schema

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
)

// Options tune Load.
type Options struct {
	// Version overrides the protocol revision. By default it is the name of
	// the folder holding the schema (schema/2026-07-28/schema.json) or the
	// LATEST_PROTOCOL_VERSION of a schema.ts beside it.
	Version string
	// Overrides replaces DefaultOverrides when non-nil.
	Overrides *Overrides
	// TypeScript is the schema.ts source used for deprecation markers. By
	// default Load reads schema.ts beside the JSON file when it exists; it
	// must then be a regular file of at most MaxSchemaBytes.
	TypeScript []byte
}

// Error is a problem with a schema, located by file and JSON pointer, and
// by line and column when it is in how the file is written: not JSON, not
// UTF-8, a member name repeated in one object, a keyword's value of the
// wrong kind, nesting deeper than MaxDepth.
type Error struct {
	File    string
	Pointer string
	Line    int
	Col     int
	Msg     string
}

func (e *Error) Error() string {
	switch {
	case e.Line > 0 && e.Pointer != "":
		return fmt.Sprintf("%s:%d:%d: %s: %s", e.File, e.Line, e.Col, e.Pointer, e.Msg)
	case e.Line > 0:
		return fmt.Sprintf("%s:%d:%d: %s", e.File, e.Line, e.Col, e.Msg)
	case e.Pointer != "":
		return fmt.Sprintf("%s: %s: %s", e.File, e.Pointer, e.Msg)
	}
	return fmt.Sprintf("%s: %s", e.File, e.Msg)
}

// ErrorList is every problem found in one schema.
type ErrorList []*Error

func (l ErrorList) Error() string {
	msgs := make([]string, len(l))
	for i, e := range l {
		msgs[i] = e.Error()
	}
	return strings.Join(msgs, "\n")
}

// MaxSchemaBytes bounds the size of a schema file. With MaxDepth it bounds
// what a schema costs: every pass of Load and of the generator is linear in
// the schema's size, so a schema within the bound loads in bounded time and
// memory (the 2026-07-28 schema is about 200 KB).
const MaxSchemaBytes = 32 << 20

// Load reads a schema.json file into a model.
func Load(path string, opts Options) (*Model, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxSchemaBytes+1))
	if err != nil {
		return nil, err
	}
	if opts.TypeScript == nil {
		if opts.TypeScript, err = readTypeScriptBeside(path); err != nil {
			return nil, err
		}
	}
	if opts.Version == "" {
		opts.Version = versionFromPath(path)
	}
	return LoadBytes(path, data, opts)
}

var versionPattern = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}$`)

func versionFromPath(path string) string {
	if dir := filepath.Base(filepath.Dir(path)); versionPattern.MatchString(dir) {
		return dir
	}
	return ""
}

var tsVersion = regexp.MustCompile(`LATEST_PROTOCOL_VERSION\s*=\s*"([^"]+)"`)

// LoadBytes reads schema JSON named file into a model.
func LoadBytes(file string, data []byte, opts Options) (*Model, error) {
	if len(data) > MaxSchemaBytes {
		return nil, ErrorList{{File: file, Msg: fmt.Sprintf("schema larger than %d MB", MaxSchemaBytes>>20)}}
	}
	defs, prefix, errs := decodeFile(file, data)
	if len(errs) > 0 {
		return nil, errs
	}
	if len(defs) == 0 {
		return nil, ErrorList{{File: file, Msg: "no $defs (or definitions) in schema"}}
	}
	if opts.Version == "" {
		if m := tsVersion.FindSubmatch(opts.TypeScript); m != nil {
			opts.Version = string(m[1])
		}
	}
	if opts.Version == "" {
		return nil, ErrorList{{File: file, Msg: "cannot tell the protocol version: put the file in a folder named for it (2026-07-28/schema.json) or pass the version"}}
	}
	ov := DefaultOverrides
	if opts.Overrides != nil {
		ov = *opts.Overrides
	}
	b := newBuilder(file, prefix, defs, ov)
	b.ts = opts.TypeScript
	m := b.build()
	if len(ov.Names)+len(ov.Raw)+len(ov.Relaxed) > 0 {
		// The overrides name members by method and path: resolve them on
		// the model built without them, then build again with them.
		first := b
		b = newBuilder(file, prefix, defs, ov)
		b.ts = opts.TypeScript
		b.resolveOverrides(first, m)
		m = b.build()
	}
	if len(b.errs) == 0 {
		b.checkOverrides(opts.Version)
	}
	if len(b.errs) > 0 {
		sort.SliceStable(b.errs, func(i, j int) bool { return b.errs[i].Pointer < b.errs[j].Pointer })
		return nil, b.errs
	}
	m.Source = file
	m.Version = opts.Version
	applyTypeScriptDeprecations(m, opts.TypeScript)
	m.ErrorCodes = errorCodes(defs, opts.TypeScript)
	return m, nil
}
