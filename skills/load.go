package skills

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"path"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"
)

// The limits of one skill (Skills extension, "Limits"): every conforming
// host accepts a skill up to them, so New refuses a larger one.
const (
	MaxFilesPerSkill = 512
	MaxBytesPerSkill = 16 << 20 // 16 MiB, summed over the skill's files
)

// Agent Skills field limits (agentskills.io/specification).
const (
	maxNameLen          = 64
	maxDescriptionLen   = 1024
	maxCompatibilityLen = 500
)

// DirectoryMIMEType is the mimeType of a directory resource.
const DirectoryMIMEType = "inode/directory"

// skillFileName is the file that makes a directory a skill.
const skillFileName = "SKILL.md"

// namePattern is the Agent Skills naming rule: lowercase letters, digits
// and hyphens, no leading, trailing or doubled hyphen.
var namePattern = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)

// catalog is one immutable snapshot of the served skills.
type catalog struct {
	skills []*skill          // by path
	byURI  map[string]*skill // SKILL.md URI -> skill
	files  map[string]*file  // file URI -> file
	dirs   map[string]*dir   // directory URI -> directory
}

type skill struct {
	uri         string // skill://<path>/SKILL.md
	path        string // <skill-path> within the FS
	name        string
	description string
	frontmatter json.RawMessage
	files       []*file // SKILL.md first, then by path
}

type file struct {
	uri, name, description, mimeType string
	content                          []byte
	digest                           string // sha256:<hex>
}

// dir is a directory resource: its direct children.
type dir struct {
	uri      string
	children []child // files and subdirectories, by name
	// files are the URIs of the served files beneath the directory, at any
	// depth, and skillMD the URI of the SKILL.md of the innermost skill
	// holding it ("" for a prefix directory): what decides whether a
	// caller sees the directory (visible.go).
	files   []string
	skillMD string
}

type child struct {
	uri, name, mimeType, description string
}

// load reads every skill of fsys: each directory holding a SKILL.md is a
// skill whose <skill-path> is its path in fsys (so its last element is the
// skill's name). Every problem is reported, each naming its file.
func load(fsys fs.FS) (*catalog, error) {
	if fsys == nil {
		return nil, errors.New("skills: nil fs.FS")
	}
	var skillDirs, filePaths []string
	dirSet := map[string]bool{}
	var errs []error
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			errs = append(errs, fmt.Errorf("skills: %s: %w", p, err))
			return nil
		}
		if !utf8.ValidString(p) {
			errs = append(errs, fmt.Errorf("skills: %q: the name is not valid UTF-8, so no skill:// URI can name it", p))
			if d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if d.IsDir() {
			dirSet[p] = true
			return nil
		}
		if !d.Type().IsRegular() {
			errs = append(errs, fmt.Errorf("skills: %s: not a regular file (symbolic links and devices are not served)", p))
			return nil
		}
		if path.Base(p) == skillFileName {
			skillDirs = append(skillDirs, path.Dir(p))
		}
		filePaths = append(filePaths, p)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("skills: %w", err)
	}
	c := &catalog{byURI: map[string]*skill{}, files: map[string]*file{}, dirs: map[string]*dir{}}
	read := &fileReader{fsys: fsys, contents: map[string][]byte{}}
	index := newPathIndex(filePaths)
	for _, sd := range skillDirs {
		sk, err := loadSkill(sd, index, read)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		c.skills = append(c.skills, sk)
		c.byURI[sk.uri] = sk
		for _, f := range sk.files {
			if c.files[f.uri] == nil {
				c.files[f.uri] = f
			}
		}
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	// A nested skill's SKILL.md is also a file of the enclosing skill; as a
	// resource it is described by its own skill's frontmatter.
	for _, sk := range c.skills {
		c.files[sk.uri] = sk.files[0]
	}
	c.buildDirs(index.servedBy(skillDirs), dirSet, skillDirs)
	return c, nil
}

// loadSkill reads one skill rooted at directory sd.
func loadSkill(sd string, index *pathIndex, read *fileReader) (*skill, error) {
	mdPath := path.Join(sd, skillFileName)
	fail := func(format string, args ...any) error {
		return fmt.Errorf("skills: %s: %s", mdPath, fmt.Sprintf(format, args...))
	}
	if sd == "." {
		return nil, fail("a SKILL.md at the root of the FS has no directory to name the skill; put each skill in a directory named after it")
	}
	for _, seg := range strings.Split(sd, "/") {
		if url.PathEscape(seg) != seg || strings.ContainsAny(seg, ":@") {
			return nil, fail("directory %q cannot be a skill:// path segment as is (use letters, digits and -._~)", seg)
		}
	}
	if n := len(index.under(sd)); n > MaxFilesPerSkill {
		return nil, fail("the skill has %d files; a skill may have at most %d (SKILL.md included)", n, MaxFilesPerSkill)
	}
	paths := index.inWalkOrder(index.under(sd))
	overLimit := func(p string) error {
		return fail("the skill's files total more than %d bytes with %s; a skill may total at most %d (16 MiB)", MaxBytesPerSkill, p, MaxBytesPerSkill)
	}
	md, err := read.readAtMost(mdPath, MaxBytesPerSkill)
	if errors.Is(err, errOverLimit) {
		return nil, overLimit(mdPath)
	}
	if err != nil {
		return nil, fail("%v", err)
	}
	fm, err := frontmatterJSON(md)
	if le, ok := err.(*lineError); ok {
		return nil, fmt.Errorf("skills: %s:%d: %s", mdPath, le.line, le.msg)
	}
	if err != nil {
		return nil, fail("%v", err)
	}
	sk := &skill{path: sd, uri: "skill://" + sd + "/" + skillFileName, frontmatter: fm}
	if err := sk.checkFrontmatter(); err != nil {
		return nil, fail("%v", err)
	}
	var total int64
	for _, p := range paths {
		b, err := read.readAtMost(p, MaxBytesPerSkill-total)
		if errors.Is(err, errOverLimit) {
			return nil, overLimit(p)
		}
		if err != nil {
			return nil, fail("%v", err)
		}
		f := newFile(sk, strings.TrimPrefix(p, sd+"/"), b)
		if p == mdPath {
			f.name, f.description = sk.name, sk.description
			sk.files = slices.Insert(sk.files, 0, f)
		} else {
			sk.files = append(sk.files, f)
		}
		total += int64(len(b))
	}
	return sk, nil
}

// checkFrontmatter applies the Agent Skills rules to the frontmatter and
// the final-segment rule to the skill's path.
func (sk *skill) checkFrontmatter() error {
	var fm map[string]json.RawMessage
	if err := json.Unmarshal(sk.frontmatter, &fm); err != nil {
		return err
	}
	str := func(key string) (string, bool, error) {
		raw, ok := fm[key]
		if !ok {
			return "", false, nil
		}
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return "", true, fmt.Errorf("frontmatter %s must be a string, got %s", key, raw)
		}
		return s, true, nil
	}
	name, ok, err := str("name")
	switch {
	case err != nil:
		return err
	case !ok || name == "":
		return errors.New("frontmatter has no name (required)")
	case len(name) > maxNameLen:
		return fmt.Errorf("frontmatter name %q is longer than %d characters", name, maxNameLen)
	case !namePattern.MatchString(name):
		return fmt.Errorf("frontmatter name %q must be lowercase letters, digits and single hyphens, not starting or ending with a hyphen", name)
	case name != path.Base(sk.path):
		return fmt.Errorf("frontmatter name %q must equal the skill's directory name %q (the final segment of %s)", name, path.Base(sk.path), sk.uri)
	}
	desc, ok, err := str("description")
	switch {
	case err != nil:
		return err
	case !ok || strings.TrimSpace(desc) == "":
		return errors.New("frontmatter has no description (required)")
	case utf8.RuneCountInString(desc) > maxDescriptionLen:
		return fmt.Errorf("frontmatter description is longer than %d characters", maxDescriptionLen)
	}
	if c, ok, err := str("compatibility"); err != nil {
		return err
	} else if ok && utf8.RuneCountInString(c) > maxCompatibilityLen {
		return fmt.Errorf("frontmatter compatibility is longer than %d characters", maxCompatibilityLen)
	}
	if raw, ok := fm["metadata"]; ok {
		var md map[string]json.RawMessage
		if err := json.Unmarshal(raw, &md); err != nil {
			return fmt.Errorf("frontmatter metadata must be a mapping, got %s", raw)
		}
		for k := range md {
			if strings.HasPrefix(k, "io.modelcontextprotocol/") {
				return fmt.Errorf("frontmatter metadata key %q uses the io.modelcontextprotocol/ prefix, reserved for MCP extensions", k)
			}
		}
	}
	sk.name, sk.description = name, desc
	return nil
}

// newFile is the resource of file rel (a path relative to the skill root).
func newFile(sk *skill, rel string, b []byte) *file {
	sum := sha256.Sum256(b)
	return &file{
		uri:      "skill://" + sk.path + "/" + escapePath(rel),
		name:     path.Base(rel),
		mimeType: mimeTypeOf(rel, b),
		content:  b,
		digest:   "sha256:" + hex.EncodeToString(sum[:]),
	}
}

// escapePath percent-encodes each segment of a slash-separated path.
func escapePath(p string) string {
	segs := strings.Split(p, "/")
	for i, s := range segs {
		segs[i] = url.PathEscape(s)
	}
	return strings.Join(segs, "/")
}
