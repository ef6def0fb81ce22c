package skills_test

import (
	"context"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/jsonrpc"
	"github.com/mcpgen/mcpgen/server"
	"github.com/mcpgen/mcpgen/skills"
)

// newVisibleServer serves testFS with Options.Visible hiding every
// resource whose URI starts with hidden (for example a team's skills shown
// only to its members).
func newVisibleServer(t *testing.T, hidden string) *server.Server {
	t.Helper()
	sk, err := skills.New(testFS(), skills.Options{DirectoryRead: true})
	if err != nil {
		t.Fatal(err)
	}
	o := server.Options{Name: "skills-test", Visible: func(_ context.Context, it server.Item) bool {
		return !strings.HasPrefix(it.Name, hidden)
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
// SKILL.md; skills/list leaves the skill out (its frontmatter and every
// file's URI, digest and size) and skills/get answers -32602, as the Skills
// extension requires for a URI that "does not identify a skill the server
// serves".
func TestHiddenSkillIsNotListedOrGotten(t *testing.T) {
	s := newVisibleServer(t, "skill://acme/")
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
	if len(res.Skills) != 2 {
		t.Errorf("skills/list lists %d skills, want the 2 visible ones", len(res.Skills))
	}
	if r := call(t, s, skills.MethodGet, `{"uri":"`+uri+`"}`); r.Error == nil || r.Error.Code != jsonrpc.CodeInvalidParams {
		t.Errorf("skills/get of the hidden skill answered %s, want -32602 as resources/read of its SKILL.md", r.Result)
	}
}

// resources/directory/read lists "Resource metadata of the directory's
// direct children": not the hidden files resources/list leaves out, and a
// directory with nothing visible beneath it is not served to the caller.
func TestDirectoryReadOmitsHiddenResources(t *testing.T) {
	s := newVisibleServer(t, "skill://acme/")
	if r := call(t, s, "resources/list", ""); strings.Contains(string(r.Result), "skill://acme/") {
		t.Fatalf("resources/list shows hidden resources: %s", r.Result)
	}
	for _, uri := range []string{"skill://acme/billing/refunds", "skill://acme", "skill://acme/billing/refunds/references"} {
		r := call(t, s, skills.MethodDirectoryRead, `{"uri":"`+uri+`"}`)
		if r.Error == nil || r.Error.Code != jsonrpc.CodeInvalidParams || strings.Contains(string(r.Result), `"uri":"skill://acme/`) {
			t.Errorf("resources/directory/read of %s, all hidden: %s %v, want -32602", uri, r.Result, r.Error)
		}
	}
	if r := call(t, s, skills.MethodDirectoryRead, `{"uri":"skill://git-workflow"}`); r.Error != nil || !strings.Contains(string(r.Result), "skill://git-workflow/nested-one") {
		t.Errorf("resources/directory/read of a visible skill: %s %v", r.Result, r.Error)
	}
}

// A hidden supporting file is left out of its skill's entry and of its
// directory: the caller sees the skill as the files it can read.
func TestHiddenFileIsLeftOutOfItsSkill(t *testing.T) {
	s := newVisibleServer(t, "skill://acme/billing/refunds/references/")
	const uri = "skill://acme/billing/refunds/SKILL.md"
	get := result[struct{ Skill entry }](t, call(t, s, skills.MethodGet, `{"uri":"`+uri+`"}`))
	list := result[listResult](t, call(t, s, skills.MethodList, ""))
	for _, e := range append(list.Skills, get.Skill) {
		if e.URI != uri {
			continue
		}
		if len(e.Resources) != 2 {
			t.Errorf("entry of %s lists %d files, want SKILL.md and logo.png: %+v", uri, len(e.Resources), e.Resources)
		}
		for _, f := range e.Resources {
			if strings.Contains(f.URI, "/references/") {
				t.Errorf("entry of %s lists the hidden file %s", uri, f.URI)
			}
		}
	}
	r := call(t, s, skills.MethodDirectoryRead, `{"uri":"skill://acme/billing/refunds"}`)
	if r.Error != nil || strings.Contains(string(r.Result), "references") || !strings.Contains(string(r.Result), "logo.png") {
		t.Errorf("resources/directory/read of the skill: %s %v, want logo.png and SKILL.md, not references", r.Result, r.Error)
	}
}
