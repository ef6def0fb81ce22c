package skills_test

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"testing/fstest"

	"go.yaml.in/yaml/v4"

	"github.com/mcpgen/mcpgen/skills"
)

// attackSkill is a SKILL.md for directory name with the extra YAML lines.
func attackSkill(name, extra string) []byte {
	return []byte("---\nname: " + name + "\ndescription: d\n" + extra + "---\n# body\n")
}

// The Skills extension, "Frontmatter": the entry's frontmatter "contains
// every field the author wrote, not a curated subset" and "MUST be
// identical in content to the frontmatter of the SKILL.md it describes".
// A YAML document end marker ("...") inside the frontmatter starts a second
// YAML document; the fields after it are silently dropped from the entry
// (and a host's single-document parser, js-yaml load / PyYAML safe_load,
// refuses the frontmatter outright). New must refuse such a SKILL.md, as
// it refuses any other frontmatter it cannot render whole.
func TestAttackFrontmatterSecondDocumentIsDropped(t *testing.T) {
	fsys := fstest.MapFS{"good/SKILL.md": {Data: attackSkill("good", "...\n{allowed-tools: Bash, license: MIT}\n")}}
	if _, err := skills.New(fsys, skills.Options{}); err != nil {
		return // refused: what the test asks
	}
	s, _ := newServer(t, fsys, skills.Options{})
	res := result[listResult](t, call(t, s, skills.MethodList, ""))
	fm := string(res.Skills[0].Frontmatter)
	if !strings.Contains(fm, "allowed-tools") {
		t.Fatalf("New accepted a frontmatter of two YAML documents and serves %s: the author's allowed-tools and license fields are gone from the entry", fm)
	}
}

// The Skills extension, "Frontmatter" ("identical in content"), and the
// package doc: "scalars typed by the YAML 1.2 core schema (what hosts' YAML
// parsers do)". In YAML an explicit tag decides a node's type whatever its
// style (YAML 1.2.2 §3.3.2, §6.9.1): !!int "3" is the integer 3,
// !!bool "true" the boolean true, !!null "" null, and the non-specific
// tag "!" makes the plain scalar ! 12 the string "12". go.yaml.in/yaml/v4
// — the very parser this package uses — decodes them so; the entry renders
// the first three as strings and the last as the integer 12, so a host
// comparing the entry with its parse of the SKILL.md (Frontmatter
// Verification) finds a discrepancy on every such skill.
func TestAttackFrontmatterExplicitTagIgnored(t *testing.T) {
	extra := "retries: !!int \"3\"\nenabled: !!bool \"true\"\nnothing: !!null \"\"\nversion: ! 12\n"
	fsys := fstest.MapFS{"good/SKILL.md": {Data: attackSkill("good", extra)}}
	s, _ := newServer(t, fsys, skills.Options{})
	res := result[listResult](t, call(t, s, skills.MethodList, ""))
	var got map[string]any
	if err := json.Unmarshal(res.Skills[0].Frontmatter, &got); err != nil {
		t.Fatal(err)
	}
	var parsed map[string]any
	if err := yaml.Unmarshal([]byte("name: good\ndescription: d\n"+extra), &parsed); err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(parsed)
	var want map[string]any
	if err := json.Unmarshal(b, &want); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"retries", "enabled", "nothing", "version"} {
		if !reflect.DeepEqual(got[k], want[k]) {
			t.Errorf("frontmatter %s = %#v; the YAML (go.yaml.in/yaml/v4) says %#v", k, got[k], want[k])
		}
	}
}

// A scalar whose explicit tag it cannot satisfy (!!int abc, !!float x) is
// not valid YAML content: go.yaml.in/yaml/v4 refuses it ("cannot construct
// !!str `abc` as a !!int"), so does every host parser. README ("skills.New
// refuses, naming the file, a SKILL.md without frontmatter …"; the doc of
// New: "frontmatter that is not YAML") — New serves it with the tag
// dropped instead, an entry no host can reproduce.
func TestAttackFrontmatterUnsatisfiableTagAccepted(t *testing.T) {
	for _, extra := range []string{"retries: !!int abc\n", "ratio: !!float many\n", "flag: !!bool maybe\n"} {
		_, err := skills.New(fstest.MapFS{"good/SKILL.md": {Data: attackSkill("good", extra)}}, skills.Options{})
		if err == nil {
			t.Errorf("%q: New accepted it; want an error naming good/SKILL.md:4", extra)
		}
	}
}

// Pagination (server/utilities/pagination.mdx, "Servers SHOULD: Provide
// stable cursors"), as the README promises for the server's own lists
// ("Items removed between two pages … skip none that stayed"). skills/list
// pages by position, so a skill removed by Reload from the first page
// makes the next page skip a skill that stayed: a client paging through
// never learns it exists.
func TestAttackListCursorSkipsSkillAfterReload(t *testing.T) {
	mk := func(names ...string) fstest.MapFS {
		m := fstest.MapFS{}
		for _, n := range names {
			m[n+"/SKILL.md"] = &fstest.MapFile{Data: attackSkill(n, "")}
		}
		return m
	}
	s, sk := newServer(t, mk("a", "b", "c", "d"), skills.Options{PageSize: 2})
	first := result[listResult](t, call(t, s, skills.MethodList, ""))
	if len(first.Skills) != 2 || first.NextCursor == "" {
		t.Fatalf("first page: %+v", first)
	}
	if err := sk.Reload(mk("b", "c", "d")); err != nil { // "a", already listed, goes away
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, e := range first.Skills {
		seen[e.URI] = true
	}
	cur := first.NextCursor
	for i := 0; cur != "" && i < 5; i++ {
		page := result[listResult](t, call(t, s, skills.MethodList, `{"cursor":"`+cur+`"}`))
		for _, e := range page.Skills {
			seen[e.URI] = true
		}
		cur = page.NextCursor
	}
	for _, n := range []string{"b", "c", "d"} {
		if !seen["skill://"+n+"/SKILL.md"] {
			t.Errorf("skill %s stayed served but the paged walk never listed it (seen %v)", n, seen)
		}
	}
}

// The same for resources/directory/read (Skills extension, Reading
// Directories: "Pagination mirrors resources/list", whose cursors the
// README promises skip nothing that stayed): a file of the first page
// removed by Reload makes the next page skip a file that stayed.
func TestAttackDirectoryCursorSkipsFileAfterReload(t *testing.T) {
	mk := func(files ...string) fstest.MapFS {
		m := fstest.MapFS{"good/SKILL.md": {Data: attackSkill("good", "")}}
		for _, f := range files {
			m["good/refs/"+f] = &fstest.MapFile{Data: []byte(f)}
		}
		return m
	}
	s, sk := newServer(t, mk("a.md", "b.md", "c.md", "d.md"), skills.Options{DirectoryRead: true, PageSize: 2})
	type dirResult struct {
		Resources []struct {
			URI string `json:"uri"`
		} `json:"resources"`
		NextCursor string `json:"nextCursor"`
	}
	first := result[dirResult](t, call(t, s, skills.MethodDirectoryRead, `{"uri":"skill://good/refs"}`))
	if len(first.Resources) != 2 || first.NextCursor == "" {
		t.Fatalf("first page: %+v", first)
	}
	if err := sk.Reload(mk("b.md", "c.md", "d.md")); err != nil { // a.md, already listed, goes away
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, r := range first.Resources {
		seen[r.URI] = true
	}
	cur := first.NextCursor
	for i := 0; cur != "" && i < 5; i++ {
		page := result[dirResult](t, call(t, s, skills.MethodDirectoryRead, `{"uri":"skill://good/refs","cursor":"`+cur+`"}`))
		for _, r := range page.Resources {
			seen[r.URI] = true
		}
		cur = page.NextCursor
	}
	for _, f := range []string{"b.md", "c.md", "d.md"} {
		if !seen["skill://good/refs/"+f] {
			t.Errorf("file %s stayed served but the paged directory walk never listed it (seen %v)", f, seen)
		}
	}
}

// Pagination: "Invalid cursors SHOULD result in an error with code -32602";
// the README holds the server's lists to it for a cursor of another list
// ("a tools/list cursor sent to prompts/list, is -32602"), and
// server.Paginate's doc says the same of "a cursor Paginate did not
// produce (one of another spelling or list …)". skills/list and every
// resources/directory/read share one cursor space, so a skills/list cursor,
// or one issued for another directory, is read as a position in this
// directory and pages it from the middle.
func TestAttackCursorOfAnotherListAccepted(t *testing.T) {
	fsys := fstest.MapFS{
		"a/SKILL.md": {Data: attackSkill("a", "")}, "a/x1.md": {}, "a/x2.md": {}, "a/x3.md": {},
		"b/SKILL.md": {Data: attackSkill("b", "")}, "b/y1.md": {}, "b/y2.md": {}, "b/y3.md": {},
		"c/SKILL.md": {Data: attackSkill("c", "")},
	}
	s, _ := newServer(t, fsys, skills.Options{DirectoryRead: true, PageSize: 2})
	list := result[listResult](t, call(t, s, skills.MethodList, ""))
	if list.NextCursor == "" {
		t.Fatal("skills/list has one page")
	}
	if r := call(t, s, skills.MethodDirectoryRead, `{"uri":"skill://b","cursor":"`+list.NextCursor+`"}`); r.Error == nil {
		t.Errorf("resources/directory/read of skill://b took a skills/list cursor and answered %s; want -32602", r.Result)
	}
	dirA := result[struct {
		NextCursor string `json:"nextCursor"`
	}](t, call(t, s, skills.MethodDirectoryRead, `{"uri":"skill://a"}`))
	if dirA.NextCursor == "" {
		t.Fatal("skill://a has one page")
	}
	if r := call(t, s, skills.MethodDirectoryRead, `{"uri":"skill://b","cursor":"`+dirA.NextCursor+`"}`); r.Error == nil {
		t.Errorf("resources/directory/read of skill://b took skill://a's cursor and answered %s; want -32602", r.Result)
	}
	if r := call(t, s, skills.MethodList, `{"cursor":"`+dirA.NextCursor+`"}`); r.Error == nil {
		t.Errorf("skills/list took a resources/directory/read cursor and answered %s; want -32602", r.Result)
	}
}
