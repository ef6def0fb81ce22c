package skills_test

import (
	"io"
	"io/fs"
	"strings"
	"sync/atomic"
	"testing"
	"testing/fstest"
	"time"

	"github.com/mcpgen/mcpgen/skills"
)

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
// 16 MiB", and New stops reading a skill's files once they pass the limit:
// a 64 MiB file (or a larger one, or one that never ends) costs no more
// than the limit.
func TestOversizedSkillFileIsNotReadWhole(t *testing.T) {
	l := &lazyFS{size: 64 << 20}
	_, err := skills.New(l, skills.Options{})
	if err == nil || !strings.Contains(err.Error(), "16 MiB") || !strings.Contains(err.Error(), "good/big.bin") {
		t.Fatalf("New error = %v, want the 16 MiB limit, naming good/big.bin", err)
	}
	if got := l.read.Load(); got > skills.MaxBytesPerSkill+1<<20 {
		t.Errorf("New read %d MiB of a skill file before refusing the skill over its 16 MiB limit", got>>20)
	}
}

// A skill of exactly 16 MiB is served.
func TestSkillAtTheSizeLimitIsServed(t *testing.T) {
	blob := make([]byte, skills.MaxBytesPerSkill-len(okMD))
	if _, err := skills.New(fstest.MapFS{"good/SKILL.md": {Data: []byte(okMD)}, "good/blob.bin": {Data: blob}}, skills.Options{}); err != nil {
		t.Fatal(err)
	}
}
