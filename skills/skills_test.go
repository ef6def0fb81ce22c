package skills_test

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/mcpgen/mcpgen/jsonrpc"
	"github.com/mcpgen/mcpgen/server"
	"github.com/mcpgen/mcpgen/skills"
)

const refundsMD = `---
name: refunds
description: Process customer refund requests per company policy
license: Apache-2.0
released: 2024-01-15
answer: yes
retries: 3
ratio: 0.5
octal: 0o17
tags: [billing, "support"]
metadata:
  version: "2.1"
  owner: billing-team
---

# Refunds

See references/POLICY.md.
`

func testFS() fstest.MapFS {
	return fstest.MapFS{
		"acme/billing/refunds/SKILL.md":             {Data: []byte(refundsMD)},
		"acme/billing/refunds/references/POLICY.md": {Data: []byte("# Policy\n")},
		"acme/billing/refunds/logo.png":             {Data: []byte{0x89, 'P', 'N', 'G', 0xff, 0x00}},
		"git-workflow/SKILL.md":                     {Data: []byte("---\r\nname: git-workflow\r\ndescription: Branch and commit conventions\r\n---\r\nBody\r\n")},
		"git-workflow/nested-one/SKILL.md":          {Data: []byte("---\nname: nested-one\ndescription: A nested skill\n---\n")},
		"README.md":                                 {Data: []byte("not part of any skill")},
	}
}

// skillWith is a SKILL.md for directory name with the extra YAML lines.
func skillWith(name, extra string) []byte {
	return []byte("---\nname: " + name + "\ndescription: d\n" + extra + "---\n# body\n")
}

func sha(b []byte) string {
	s := sha256.Sum256(b)
	return "sha256:" + hex.EncodeToString(s[:])
}

type reply struct {
	Result json.RawMessage `json:"result"`
	Error  *jsonrpc.Error  `json:"error"`
}

const meta = `{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}`

func call(t *testing.T, s *server.Server, method, params string) reply {
	t.Helper()
	if params == "" {
		params = `{}`
	}
	p := `{"_meta":` + meta
	if params != "{}" {
		p += "," + params[1:]
	} else {
		p += "}"
	}
	resp := s.HandleBytes(context.Background(), []byte(`{"jsonrpc":"2.0","id":1,"method":"`+method+`","params":`+p+`}`), nil)
	var r reply
	if err := json.Unmarshal(resp.Body, &r); err != nil {
		t.Fatalf("%s: %s: %v", method, resp.Body, err)
	}
	return r
}

func result[T any](t *testing.T, r reply) T {
	t.Helper()
	if r.Error != nil {
		t.Fatalf("want a result, got error %d %q", r.Error.Code, r.Error.Message)
	}
	var v T
	if err := json.Unmarshal(r.Result, &v); err != nil {
		t.Fatalf("%s: %v", r.Result, err)
	}
	return v
}

func newServer(t *testing.T, fsys fstest.MapFS, opts skills.Options) (*server.Server, *skills.Skills) {
	t.Helper()
	sk, err := skills.New(fsys, opts)
	if err != nil {
		t.Fatal(err)
	}
	o := server.Options{Name: "skills-test", Cache: server.CachePolicy{TTLMs: 60000, Scope: "public"}}
	sk.Register(&o)
	s, err := server.New(o)
	if err != nil {
		t.Fatal(err)
	}
	sk.Bind(s)
	return s, sk
}

type entry struct {
	URI         string          `json:"uri"`
	Frontmatter json.RawMessage `json:"frontmatter"`
	Resources   []struct {
		URI    string `json:"uri"`
		Digest string `json:"digest"`
		Size   int64  `json:"size"`
	} `json:"resources"`
}

type listResult struct {
	Skills     []entry `json:"skills"`
	NextCursor string  `json:"nextCursor"`
	TTLMs      *int64  `json:"ttlMs"`
	CacheScope string  `json:"cacheScope"`
	ResultType string  `json:"resultType"`
}

func TestDiscoverDeclaresSkillsAndResources(t *testing.T) {
	for _, dr := range []bool{false, true} {
		s, _ := newServer(t, testFS(), skills.Options{DirectoryRead: dr})
		d := result[struct {
			Capabilities struct {
				Resources  map[string]any            `json:"resources"`
				Extensions map[string]map[string]any `json:"extensions"`
			} `json:"capabilities"`
		}](t, call(t, s, "server/discover", ""))
		got, ok := d.Capabilities.Extensions[skills.ExtensionID]
		if !ok || d.Capabilities.Resources == nil {
			t.Fatalf("directoryRead %v: capabilities %+v", dr, d.Capabilities)
		}
		if dr && got["directoryRead"] != true || !dr && len(got) != 0 {
			t.Errorf("directoryRead %v: settings %v", dr, got)
		}
		r := call(t, s, skills.MethodDirectoryRead, `{"uri":"skill://git-workflow"}`)
		if !dr && (r.Error == nil || r.Error.Code != jsonrpc.CodeMethodNotFound) {
			t.Errorf("resources/directory/read without directoryRead: %+v", r)
		}
	}
}

func TestListEntriesAreCompleteManifests(t *testing.T) {
	fsys := testFS()
	s, _ := newServer(t, fsys, skills.Options{})
	res := result[listResult](t, call(t, s, skills.MethodList, ""))
	if res.ResultType != "complete" || res.TTLMs == nil || *res.TTLMs != 60000 || res.CacheScope != "public" {
		t.Errorf("envelope: %+v", res)
	}
	var uris []string
	for _, e := range res.Skills {
		uris = append(uris, e.URI)
	}
	want := []string{"skill://acme/billing/refunds/SKILL.md", "skill://git-workflow/SKILL.md", "skill://git-workflow/nested-one/SKILL.md"}
	if fmt.Sprint(uris) != fmt.Sprint(want) {
		t.Fatalf("skills = %v, want %v", uris, want)
	}
	// Every file once, SKILL.md first, digests and sizes of the raw bytes.
	for _, e := range res.Skills {
		if e.Resources[0].URI != e.URI {
			t.Errorf("%s: first resource %s", e.URI, e.Resources[0].URI)
		}
		for _, r := range e.Resources {
			p := strings.TrimPrefix(r.URI, "skill://")
			data := fsys[p].Data
			if data == nil || r.Digest != sha(data) || r.Size != int64(len(data)) {
				t.Errorf("%s: digest %s size %d, want %s %d", r.URI, r.Digest, r.Size, sha(data), len(data))
			}
		}
	}
	if n := len(res.Skills[0].Resources); n != 3 {
		t.Errorf("refunds has %d resources, want 3", n)
	}
	// The enclosing skill lists its nested skill's files.
	if n := len(res.Skills[1].Resources); n != 2 {
		t.Errorf("git-workflow has %d resources, want 2 (its SKILL.md and the nested one)", n)
	}
	// Frontmatter verbatim: the author's order, YAML 1.2 core types (a date
	// and "yes" stay strings).
	wantFM := `{"name":"refunds","description":"Process customer refund requests per company policy","license":"Apache-2.0","released":"2024-01-15","answer":"yes","retries":3,"ratio":0.5,"octal":15,"tags":["billing","support"],"metadata":{"version":"2.1","owner":"billing-team"}}`
	if got := string(res.Skills[0].Frontmatter); got != wantFM {
		t.Errorf("frontmatter\n got %s\nwant %s", got, wantFM)
	}
}

func TestListPaginatesWholeEntries(t *testing.T) {
	s, _ := newServer(t, testFS(), skills.Options{PageSize: 1})
	var seen []string
	cursor := ""
	for i := 0; ; i++ {
		params := `{}`
		if cursor != "" {
			params = `{"cursor":"` + cursor + `"}`
		}
		res := result[listResult](t, call(t, s, skills.MethodList, params))
		if len(res.Skills) > 1 {
			t.Fatalf("page %d has %d entries", i, len(res.Skills))
		}
		for _, e := range res.Skills {
			seen = append(seen, e.URI)
		}
		if res.NextCursor == "" {
			break
		}
		cursor = res.NextCursor
		if i > 5 {
			t.Fatal("pagination does not end")
		}
	}
	if len(seen) != 3 {
		t.Errorf("paged through %v", seen)
	}
	r := call(t, s, skills.MethodList, `{"cursor":"bogus"}`)
	if r.Error == nil || r.Error.Code != jsonrpc.CodeInvalidParams {
		t.Errorf("bad cursor: %+v", r)
	}
}

func TestGet(t *testing.T) {
	s, _ := newServer(t, testFS(), skills.Options{})
	got := result[struct {
		Skill      entry  `json:"skill"`
		TTLMs      *int64 `json:"ttlMs"`
		CacheScope string `json:"cacheScope"`
		NextCursor *string
	}](t, call(t, s, skills.MethodGet, `{"uri":"skill://git-workflow/nested-one/SKILL.md"}`))
	if got.Skill.URI != "skill://git-workflow/nested-one/SKILL.md" || got.TTLMs == nil || got.CacheScope == "" || got.NextCursor != nil {
		t.Errorf("skills/get = %+v", got)
	}
	for _, params := range []string{
		`{"uri":"skill://mcp-conformance-nonexistent-skill-9f3a2b/SKILL.md"}`,
		`{"uri":"skill://git-workflow"}`, // a directory, not a SKILL.md
		`{"uri":"skill://acme/billing/refunds/references/POLICY.md"}`,
		`{}`,
		`{"uri":5}`,
		`{"URI":"skill://git-workflow/SKILL.md"}`,
	} {
		r := call(t, s, skills.MethodGet, params)
		if r.Error == nil || r.Error.Code != jsonrpc.CodeInvalidParams {
			t.Errorf("skills/get %s: %+v, want -32602", params, r)
		}
	}
}

func TestFilesAreResources(t *testing.T) {
	fsys := testFS()
	s, _ := newServer(t, fsys, skills.Options{})
	type res struct {
		URI, Name, Description, MimeType string
	}
	list := result[struct {
		Resources []res `json:"resources"`
	}](t, call(t, s, "resources/list", ""))
	byURI := map[string]res{}
	for _, r := range list.Resources {
		byURI[r.URI] = r
	}
	if len(byURI) != 5 {
		t.Errorf("resources/list has %d resources, want 5: %v", len(byURI), list.Resources)
	}
	md := byURI["skill://acme/billing/refunds/SKILL.md"]
	if md.Name != "refunds" || md.Description != "Process customer refund requests per company policy" || md.MimeType != "text/markdown" {
		t.Errorf("SKILL.md resource = %+v", md)
	}
	if n := byURI["skill://git-workflow/nested-one/SKILL.md"]; n.Name != "nested-one" {
		t.Errorf("nested SKILL.md resource = %+v", n)
	}
	if png := byURI["skill://acme/billing/refunds/logo.png"]; png.MimeType != "image/png" || png.Name != "logo.png" {
		t.Errorf("logo resource = %+v", png)
	}
	for uri, want := range map[string][]byte{
		"skill://acme/billing/refunds/SKILL.md":             fsys["acme/billing/refunds/SKILL.md"].Data,
		"skill://acme/billing/refunds/logo.png":             fsys["acme/billing/refunds/logo.png"].Data,
		"skill://git-workflow/SKILL.md":                     fsys["git-workflow/SKILL.md"].Data,
		"skill://acme/billing/refunds/references/POLICY.md": fsys["acme/billing/refunds/references/POLICY.md"].Data,
	} {
		read := result[struct {
			Contents []struct {
				Text *string
				Blob *string
			} `json:"contents"`
		}](t, call(t, s, "resources/read", `{"uri":"`+uri+`"}`))
		var got []byte
		switch c := read.Contents[0]; {
		case c.Text != nil:
			got = []byte(*c.Text)
		case c.Blob != nil:
			got, _ = base64.StdEncoding.DecodeString(*c.Blob)
		}
		if sha(got) != sha(want) {
			t.Errorf("resources/read %s: bytes differ from the file", uri)
		}
	}
}

func TestDirectoryRead(t *testing.T) {
	s, _ := newServer(t, testFS(), skills.Options{DirectoryRead: true})
	type dirRes struct {
		Resources []struct {
			URI, Name, MimeType string
		} `json:"resources"`
		NextCursor string `json:"nextCursor"`
	}
	children := func(uri string) string {
		d := result[dirRes](t, call(t, s, skills.MethodDirectoryRead, `{"uri":"`+uri+`"}`))
		var out []string
		for _, r := range d.Resources {
			out = append(out, r.Name+"="+r.MimeType)
		}
		return strings.Join(out, " ")
	}
	for uri, want := range map[string]string{
		"skill://acme":                            "billing=inode/directory",
		"skill://acme/billing":                    "refunds=inode/directory",
		"skill://acme/billing/refunds":            "refunds=text/markdown logo.png=image/png references=inode/directory",
		"skill://acme/billing/refunds/references": "POLICY.md=text/markdown",
		"skill://git-workflow":                    "git-workflow=text/markdown nested-one=inode/directory",
	} {
		if got := children(uri); got != want {
			t.Errorf("%s: children %q, want %q", uri, got, want)
		}
	}
	for _, uri := range []string{"skill://git-workflow/SKILL.md", "skill://nowhere", "skill://acme/billing/refunds/"} {
		r := call(t, s, skills.MethodDirectoryRead, `{"uri":"`+uri+`"}`)
		if r.Error == nil || r.Error.Code != jsonrpc.CodeInvalidParams {
			t.Errorf("directory read %s: %+v, want -32602", uri, r)
		}
	}
}

func TestStartupChecks(t *testing.T) {
	ok := "---\nname: good\ndescription: fine\n---\n"
	big := make([]byte, skills.MaxBytesPerSkill)
	cases := []struct {
		name string
		fsys fstest.MapFS
		want string
	}{
		{"no frontmatter", fstest.MapFS{"a/SKILL.md": {Data: []byte("# A\n")}}, "a/SKILL.md: SKILL.md must begin with YAML frontmatter"},
		{"unclosed", fstest.MapFS{"a/SKILL.md": {Data: []byte("---\nname: a\n")}}, "no closing"},
		{"bad YAML", fstest.MapFS{"a/SKILL.md": {Data: []byte("---\nname: a\ndescription: [x\n---\n")}}, "skills: a/SKILL.md:4: frontmatter is not valid YAML: did not find expected ',' or ']'"},
		{"bad YAML indentation", fstest.MapFS{"a/SKILL.md": {Data: []byte("---\nname: a\n  description: x\n---\n")}}, "skills: a/SKILL.md:3: frontmatter is not valid YAML"},
		{"not a mapping", fstest.MapFS{"a/SKILL.md": {Data: []byte("---\n- a\n---\n")}}, "a/SKILL.md:2: frontmatter must be a YAML mapping"},
		{"duplicate key", fstest.MapFS{"a/SKILL.md": {Data: []byte("---\nname: a\ndescription: x\nname: b\n---\n")}}, "a/SKILL.md:4: frontmatter: duplicate key \"name\""},
		{"no name", fstest.MapFS{"a/SKILL.md": {Data: []byte("---\ndescription: x\n---\n")}}, "no name"},
		{"no description", fstest.MapFS{"a/SKILL.md": {Data: []byte("---\nname: a\n---\n")}}, "no description"},
		{"name not a string", fstest.MapFS{"a/SKILL.md": {Data: []byte("---\nname: [a]\ndescription: x\n---\n")}}, "name must be a string"},
		{"final segment", fstest.MapFS{"tools/SKILL.md": {Data: []byte(ok)}}, `name "good" must equal the skill's directory name "tools"`},
		{"uppercase", fstest.MapFS{"Good/SKILL.md": {Data: []byte("---\nname: Good\ndescription: x\n---\n")}}, "lowercase"},
		{"double hyphen", fstest.MapFS{"a--b/SKILL.md": {Data: []byte("---\nname: a--b\ndescription: x\n---\n")}}, "single hyphens"},
		{"long name", fstest.MapFS{strings.Repeat("a", 65) + "/SKILL.md": {Data: []byte("---\nname: " + strings.Repeat("a", 65) + "\ndescription: x\n---\n")}}, "longer than 64"},
		{"root SKILL.md", fstest.MapFS{"SKILL.md": {Data: []byte(ok)}}, "root of the FS"},
		{"reserved metadata", fstest.MapFS{"good/SKILL.md": {Data: []byte("---\nname: good\ndescription: x\nmetadata:\n  io.modelcontextprotocol/x: 1\n---\n")}}, "reserved"},
		{"infinity", fstest.MapFS{"good/SKILL.md": {Data: []byte("---\nname: good\ndescription: x\nlimit: .inf\n---\n")}}, "skills: good/SKILL.md:4: frontmatter: .inf cannot be represented"},
		{"bad prefix segment", fstest.MapFS{"a b/good/SKILL.md": {Data: []byte(ok)}}, `directory "a b"`},
		{"too big", fstest.MapFS{"good/SKILL.md": {Data: []byte(ok)}, "good/blob.bin": {Data: big}}, "at most 16777216"},
		{"file name not UTF-8", fstest.MapFS{"good/SKILL.md": {Data: []byte(ok)}, "good/bad\xff.txt": {}}, `skills: "good/bad\xff.txt": the name is not valid UTF-8`},
		{"too many files", func() fstest.MapFS {
			m := fstest.MapFS{"good/SKILL.md": {Data: []byte(ok)}}
			for i := range skills.MaxFilesPerSkill {
				m[fmt.Sprintf("good/f%03d.txt", i)] = &fstest.MapFile{Data: []byte("x")}
			}
			return m
		}(), "513 files; a skill may have at most 512"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := skills.New(c.fsys, skills.Options{})
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("New error = %v, want one containing %q", err, c.want)
			}
		})
	}
	// Every broken skill is reported, not only the first.
	_, err := skills.New(fstest.MapFS{
		"x/SKILL.md": {Data: []byte("nope")},
		"y/SKILL.md": {Data: []byte("nope")},
	}, skills.Options{})
	if err == nil || !strings.Contains(err.Error(), "x/SKILL.md") || !strings.Contains(err.Error(), "y/SKILL.md") {
		t.Errorf("New error = %v, want both skills named", err)
	}
}

// Reload swaps the set; a legacy session (which receives list_changed
// unsolicited) sees notifications/resources/list_changed, and skills/list
// the new set.
func TestReloadAnnouncesTheChange(t *testing.T) {
	s, sk := newServer(t, testFS(), skills.Options{})
	// A legacy stdio client: initialize, then skills/list.
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	clientIn, serverOut := io.Pipe()
	serverIn, clientOut := io.Pipe()
	served := make(chan error, 1)
	go func() { served <- s.ServeStdio(ctx, serverIn, serverOut) }()
	defer func() { clientOut.Close(); cancel(); <-served }()
	lines := make(chan string, 16)
	go func() {
		sc := bufio.NewScanner(clientIn)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	recv := func(what string) string {
		t.Helper()
		select {
		case l, ok := <-lines:
			if !ok {
				t.Fatalf("%s: the server closed stdout", what)
			}
			return l
		case <-time.After(5 * time.Second):
			t.Fatalf("%s: no message from the server", what)
		}
		return ""
	}
	send := func(msg string) {
		t.Helper()
		if _, err := io.WriteString(clientOut, msg+"\n"); err != nil {
			t.Fatal(err)
		}
	}
	send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
	if r := recv("initialize"); !strings.Contains(r, `"protocolVersion":"2025-11-25"`) {
		t.Fatalf("initialize: %s", r)
	}
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	// Legacy sessions are served skills/list too, converted.
	send(`{"jsonrpc":"2.0","id":1,"method":"skills/list","params":{}}`)
	if r := recv("skills/list"); !strings.Contains(r, `"skills":[`) || strings.Contains(r, "ttlMs") {
		t.Errorf("legacy skills/list: %s", r)
	}

	next := testFS()
	delete(next, "acme/billing/refunds/logo.png")
	next["fresh/SKILL.md"] = &fstest.MapFile{Data: []byte("---\nname: fresh\ndescription: New\n---\n")}
	if err := sk.Reload(next); err != nil {
		t.Fatal(err)
	}
	if n := recv("Reload"); !strings.Contains(n, "notifications/resources/list_changed") {
		t.Errorf("notification after Reload: %s", n)
	}
	res := result[listResult](t, call(t, s, skills.MethodList, ""))
	if len(res.Skills) != 4 || len(res.Skills[0].Resources) != 2 {
		t.Errorf("after Reload: %+v", res.Skills)
	}
	r := call(t, s, "resources/read", `{"uri":"skill://acme/billing/refunds/logo.png"}`)
	if r.Error == nil || r.Error.Code != jsonrpc.CodeInvalidParams {
		t.Errorf("removed file still readable: %+v", r)
	}
	// A broken set changes nothing.
	if err := sk.Reload(fstest.MapFS{"bad/SKILL.md": {Data: []byte("x")}}); err == nil {
		t.Error("Reload of a broken set succeeded")
	}
	if res := result[listResult](t, call(t, s, skills.MethodList, "")); len(res.Skills) != 4 {
		t.Errorf("a failed Reload changed the set: %d skills", len(res.Skills))
	}
}
