package skills_test

import (
	"context"

	"encoding/json"
	"github.com/mcpgen/mcpgen/jsonrpc"
	"github.com/mcpgen/mcpgen/server"
	"io"
	"io/fs"
	"strings"
	"sync/atomic"
	"testing"
	"testing/fstest"
	"time"

	"github.com/mcpgen/mcpgen/skills"
)

// The Skills extension, "Frontmatter": the frontmatter object "MUST be
// identical in content to the frontmatter of the SKILL.md it describes",
// and a host "MUST parse its YAML frontmatter and compare it field-by-field
// against the entry's frontmatter" (Frontmatter Verification). The package
// documents that scalars are "typed by the YAML 1.2 core schema (what
// hosts' YAML parsers do)", and it does so for values: `v: 0x10` is 16.
// The same plain scalar as a mapping key is written as its source text:
// `0x10: a` becomes the member "0x10", where a YAML 1.2 (or 1.1) parser
// reads the integer 16 and a host's JSON view of it is "16". A host that
// verifies the frontmatter finds a discrepancy and must refuse the skill.
func TestAttackFrontmatterIntegerKeysAreResolvedLikeValues(t *testing.T) {
	md := "---\nname: good\ndescription: x\nmetadata:\n  0x10: hex\n  0o17: octal\n  +1: plus\n  v: 0x10\n---\n"
	fsys := fstest.MapFS{"good/SKILL.md": {Data: []byte(md)}}
	if _, err := skills.New(fsys, skills.Options{}); err != nil {
		return // refusing such keys is also a correct answer
	}
	s, _ := newServer(t, fsys, skills.Options{})
	res := result[listResult](t, call(t, s, skills.MethodList, ""))
	var fm struct {
		Metadata map[string]any `json:"metadata"`
	}
	if err := json.Unmarshal(res.Skills[0].Frontmatter, &fm); err != nil {
		t.Fatal(err)
	}
	if v := fm.Metadata["v"]; v != float64(16) {
		t.Fatalf("value 0x10 = %v, want 16", v)
	}
	for _, k := range []string{"0x10", "0o17", "+1"} {
		if _, ok := fm.Metadata[k]; ok {
			t.Errorf("key %s was rendered as %q; YAML reads it as an integer (0x10 → \"16\", 0o17 → \"15\", +1 → \"1\"), as this package renders the same scalar as a value: frontmatter %s", k, k, res.Skills[0].Frontmatter)
		}
	}
}

// YAML (1.2.2 §3.2.1.1) requires the keys of a mapping to be unique, and
// New refuses a repeated key ("duplicate key") — but only when the source
// texts are equal: `16: a` beside `0x10: b` is the key 16 twice, which a
// host's YAML parser refuses (or keeps one of), while New accepts it and
// the entry's frontmatter carries two different members.
func TestAttackFrontmatterDuplicateKeyInAnotherSpelling(t *testing.T) {
	md := "---\nname: good\ndescription: x\nmetadata:\n  16: a\n  0x10: b\n---\n"
	_, err := skills.New(fstest.MapFS{"good/SKILL.md": {Data: []byte(md)}}, skills.Options{})
	if err == nil || !strings.Contains(err.Error(), "duplicate key") {
		t.Fatalf("New error = %v, want the duplicate key (16 and 0x10 are the same integer key) refused", err)
	}
}

// lazyFS is an fs.FS with a SKILL.md and one big file whose bytes are
// made as they are read; read counts them.
type lazyFS struct {
	size int64
	read atomic.Int64
}

const okMD = "---\nname: good\ndescription: fine\n---\n"

func (l *lazyFS) Open(name string) (fs.File, error) {
	switch name {
	case ".", "good":
		return fstest.MapFS{"good/SKILL.md": {Data: []byte(okMD)}, "good/big.bin": {}}.Open(name)
	case "good/SKILL.md":
		return fstest.MapFS{"good/SKILL.md": {Data: []byte(okMD)}}.Open(name)
	case "good/big.bin":
		return &lazyFile{l: l, left: l.size}, nil
	}
	return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
}

type lazyFile struct {
	l    *lazyFS
	left int64
}

func (f *lazyFile) Stat() (fs.FileInfo, error) { return lazyInfo{}, nil }
func (f *lazyFile) Close() error               { return nil }
func (f *lazyFile) Read(p []byte) (int, error) {
	if f.left <= 0 {
		return 0, io.EOF
	}
	n := int64(len(p))
	n = min(n, f.left)
	clear(p[:n])
	f.left -= n
	f.l.read.Add(n)
	return int(n), nil
}

// lazyInfo has no size (0), as for a pipe or a file still growing.
type lazyInfo struct{}

func (lazyInfo) Name() string       { return "big.bin" }
func (lazyInfo) Size() int64        { return 0 }
func (lazyInfo) Mode() fs.FileMode  { return 0o444 }
func (lazyInfo) ModTime() time.Time { return time.Time{} }
func (lazyInfo) IsDir() bool        { return false }
func (lazyInfo) Sys() any           { return nil }

// README: "skills.New refuses, naming the file, … a skill over 512 files or
// 16 MiB" and the product must never use unbounded memory on hostile
// input. New reads every file of a skill whole into memory and only then
// adds up the sizes: a 64 MiB file (or a larger one, or one that never
// ends) is read completely before the 16 MiB limit refuses it, so the
// memory New needs is the size of the biggest file rather than the limit.
func TestAttackOversizedSkillFileIsNotReadWhole(t *testing.T) {
	l := &lazyFS{size: 64 << 20}
	_, err := skills.New(l, skills.Options{})
	if err == nil || !strings.Contains(err.Error(), "16 MiB") {
		t.Fatalf("New error = %v, want the 16 MiB limit", err)
	}
	if got := l.read.Load(); got > skills.MaxBytesPerSkill+1<<20 {
		t.Errorf("New read %d MiB of a skill file before refusing the skill over its 16 MiB limit", got>>20)
	}
}

// newVisibleServer serves testFS with Options.Visible hiding every
// resource under skill://acme/ (for example a team's skills shown only to
// its members).
func newVisibleServer(t *testing.T) *server.Server {
	t.Helper()
	sk, err := skills.New(testFS(), skills.Options{DirectoryRead: true})
	if err != nil {
		t.Fatal(err)
	}
	o := server.Options{Name: "skills-test", Visible: func(_ context.Context, it server.Item) bool {
		return !strings.HasPrefix(it.Name, "skill://acme/")
	}}
	sk.Register(&o)
	s, err := server.New(o)
	if err != nil {
		t.Fatal(err)
	}
	sk.Bind(s)
	return s
}

// README, Visibility: "a hidden tool, prompt, resource or template is left
// out of the lists and answered as unknown when called". With the skill's
// files hidden, resources/read answers -32602 Resource not found for its
// SKILL.md, yet skills/list still lists the skill (its frontmatter and every
// file's URI, digest and size) and skills/get answers for it — where the
// Skills extension says a skills/get for a URI that "does not identify a
// skill the server serves" MUST be -32602.
func TestAttackHiddenSkillIsNotListedOrGotten(t *testing.T) {
	s := newVisibleServer(t)
	const uri = "skill://acme/billing/refunds/SKILL.md"
	if r := call(t, s, "resources/read", `{"uri":"`+uri+`"}`); r.Error == nil || r.Error.Code != jsonrpc.CodeInvalidParams {
		t.Fatalf("resources/read of the hidden SKILL.md: %s %v, want -32602", r.Result, r.Error)
	}
	res := result[listResult](t, call(t, s, skills.MethodList, ""))
	for _, e := range res.Skills {
		if strings.HasPrefix(e.URI, "skill://acme/") {
			t.Errorf("skills/list lists the hidden skill %s with its frontmatter %s and %d files", e.URI, e.Frontmatter, len(e.Resources))
		}
	}
	if r := call(t, s, skills.MethodGet, `{"uri":"`+uri+`"}`); r.Error == nil || r.Error.Code != jsonrpc.CodeInvalidParams {
		t.Errorf("skills/get of the hidden skill answered %s, want -32602 as resources/read of its SKILL.md", r.Result)
	}
}

// The same for resources/directory/read: its result is "Resource metadata
// of the directory's direct children", a list of resources, and lists the
// hidden files (names, descriptions, types) that resources/list leaves out.
func TestAttackDirectoryReadOmitsHiddenResources(t *testing.T) {
	s := newVisibleServer(t)
	if r := call(t, s, "resources/list", ""); strings.Contains(string(r.Result), "skill://acme/") {
		t.Fatalf("resources/list shows hidden resources: %s", r.Result)
	}
	r := call(t, s, skills.MethodDirectoryRead, `{"uri":"skill://acme/billing/refunds"}`)
	if r.Error == nil && strings.Contains(string(r.Result), `"uri":"skill://acme/billing/refunds/`) {
		t.Errorf("resources/directory/read lists hidden resources: %s", r.Result)
	}
}
