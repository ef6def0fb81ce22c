package skills_test

import (
	"testing"
	"testing/fstest"

	"github.com/mcpgen/mcpgen/jsonrpc"
	"github.com/mcpgen/mcpgen/skills"
)

// Pagination (server/utilities/pagination.mdx, "Servers SHOULD: Provide
// stable cursors"), as the README promises for the server's own lists
// ("Items removed between two pages … skip none that stayed"). skills/list
// pages by position, so a skill removed by Reload from the first page
// makes the next page skip a skill that stayed: a client paging through
// never learns it exists.
func TestListCursorSkipsNoSkillAfterReload(t *testing.T) {
	mk := func(names ...string) fstest.MapFS {
		m := fstest.MapFS{}
		for _, n := range names {
			m[n+"/SKILL.md"] = &fstest.MapFile{Data: skillWith(n, "")}
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
func TestDirectoryCursorSkipsNoFileAfterReload(t *testing.T) {
	mk := func(files ...string) fstest.MapFS {
		m := fstest.MapFS{"good/SKILL.md": {Data: skillWith("good", "")}}
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
func TestCursorOfAnotherListIsRefused(t *testing.T) {
	fsys := fstest.MapFS{
		"a/SKILL.md": {Data: skillWith("a", "")}, "a/x1.md": {}, "a/x2.md": {}, "a/x3.md": {},
		"b/SKILL.md": {Data: skillWith("b", "")}, "b/y1.md": {}, "b/y2.md": {}, "b/y3.md": {},
		"c/SKILL.md": {Data: skillWith("c", "")},
	}
	s, _ := newServer(t, fsys, skills.Options{DirectoryRead: true, PageSize: 2})
	list := result[listResult](t, call(t, s, skills.MethodList, ""))
	if list.NextCursor == "" {
		t.Fatal("skills/list has one page")
	}
	if r := call(t, s, skills.MethodDirectoryRead, `{"uri":"skill://b","cursor":"`+list.NextCursor+`"}`); r.Error == nil || r.Error.Code != jsonrpc.CodeInvalidParams {
		t.Errorf("resources/directory/read of skill://b took a skills/list cursor and answered %s; want -32602", r.Result)
	}
	dirA := result[struct {
		NextCursor string `json:"nextCursor"`
	}](t, call(t, s, skills.MethodDirectoryRead, `{"uri":"skill://a"}`))
	if dirA.NextCursor == "" {
		t.Fatal("skill://a has one page")
	}
	if r := call(t, s, skills.MethodDirectoryRead, `{"uri":"skill://b","cursor":"`+dirA.NextCursor+`"}`); r.Error == nil || r.Error.Code != jsonrpc.CodeInvalidParams {
		t.Errorf("resources/directory/read of skill://b took skill://a's cursor and answered %s; want -32602", r.Result)
	}
	if r := call(t, s, skills.MethodList, `{"cursor":"`+dirA.NextCursor+`"}`); r.Error == nil || r.Error.Code != jsonrpc.CodeInvalidParams {
		t.Errorf("skills/list took a resources/directory/read cursor and answered %s; want -32602", r.Result)
	}
}
