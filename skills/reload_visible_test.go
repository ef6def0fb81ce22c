package skills_test

import (
	"context"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/mcpgen/mcpgen/jsonrpc"
	"github.com/mcpgen/mcpgen/server"
	"github.com/mcpgen/mcpgen/skills"
)

// TestSkillHiddenByVisibleStaysHiddenDuringReload: a Reload adds a skill
// that Options.Visible hides (skill://secret/). Reload swapped the catalog
// before it registered the new files as resources; in between,
// server.ResourceVisible judged the new SKILL.md a URI the server does not
// serve (visible), so a skills/list or skills/get running then listed and
// served the hidden skill. Now the files are registered first; the test
// pauses Reload between its steps and asks then.
func TestSkillHiddenByVisibleStaysHiddenDuringReload(t *testing.T) {
	sk, err := skills.New(testFS(), skills.Options{})
	if err != nil {
		t.Fatal(err)
	}
	o := server.Options{Name: "skills-test", Visible: func(_ context.Context, it server.Item) bool {
		return !strings.HasPrefix(it.Name, "skill://secret/")
	}}
	sk.Register(&o)
	s, err := server.New(o)
	if err != nil {
		t.Fatal(err)
	}
	sk.Bind(s)
	const uri = "skill://secret/SKILL.md"
	checked := false
	skills.SetReloadPause(sk, func() {
		checked = true
		res := result[listResult](t, call(t, s, skills.MethodList, ""))
		for _, e := range res.Skills {
			if e.URI == uri {
				t.Errorf("skills/list during Reload lists the hidden skill %s", e.URI)
			}
		}
		if r := call(t, s, skills.MethodGet, `{"uri":"`+uri+`"}`); r.Error == nil || r.Error.Code != jsonrpc.CodeInvalidParams {
			t.Errorf("skills/get of the hidden skill during Reload answered %s, want -32602", r.Result)
		}
	})
	fsys := testFS()
	fsys["secret/SKILL.md"] = &fstest.MapFile{Data: skillWith("secret", "")}
	if err := sk.Reload(fsys); err != nil {
		t.Fatal(err)
	}
	if !checked {
		t.Fatal("Reload did not pause")
	}
	if r := call(t, s, skills.MethodGet, `{"uri":"`+uri+`"}`); r.Error == nil || r.Error.Code != jsonrpc.CodeInvalidParams {
		t.Errorf("skills/get of the hidden skill after Reload answered %s, want -32602", r.Result)
	}
}
