package skills_test

import (
	"strings"
	"testing"
	"testing/fstest"

	"github.com/mcpgen/mcpgen/jsonrpc"
	"github.com/mcpgen/mcpgen/skills"
)

// TestReloadBeforeBindIsServedAfterBind: a Reload between Register (which
// put the files of the set then current into the server's options) and
// Bind has no server to update; Bind then makes the server's resources the
// files of the current set. Before, the server kept the old files: a skill
// the Reload added was listed though Options.Visible hides it (its
// SKILL.md was no resource, so counted as visible), its files could not be
// read, and a dropped skill's files were still served.
func TestReloadBeforeBindIsServedAfterBind(t *testing.T) {
	sk, s := registeredHidingSecret(t)
	fsys := testFS()
	delete(fsys, "git-workflow/SKILL.md")
	fsys["secret/SKILL.md"] = &fstest.MapFile{Data: skillWith("secret", "")}
	fsys["fresh/SKILL.md"] = &fstest.MapFile{Data: skillWith("fresh", "")}
	if err := sk.Reload(fsys); err != nil {
		t.Fatal(err)
	}
	sk.Bind(s)

	for _, e := range result[listResult](t, call(t, s, skills.MethodList, "")).Skills {
		if strings.HasPrefix(e.URI, "skill://secret/") {
			t.Errorf("skills/list lists the skill Visible hides: %s", e.URI)
		}
	}
	if r := call(t, s, "resources/read", `{"uri":"skill://fresh/SKILL.md"}`); r.Error != nil {
		t.Errorf("resources/read of a skill file the Reload added: %d %s", r.Error.Code, r.Error.Message)
	}
	if r := call(t, s, "resources/read", `{"uri":"skill://git-workflow/SKILL.md"}`); r.Error == nil || r.Error.Code != jsonrpc.CodeInvalidParams {
		t.Errorf("resources/read of a skill file the Reload dropped answered %s, want -32602", r.Result)
	}
	res := result[struct {
		Resources []struct {
			URI string `json:"uri"`
		} `json:"resources"`
	}](t, call(t, s, "resources/list", ""))
	listed := map[string]bool{}
	for _, r := range res.Resources {
		listed[r.URI] = true
	}
	if !listed["skill://fresh/SKILL.md"] || listed["skill://git-workflow/SKILL.md"] || listed["skill://secret/SKILL.md"] {
		t.Errorf("resources/list after Bind: %v, want fresh's SKILL.md, not git-workflow's or secret's", listed)
	}
}
