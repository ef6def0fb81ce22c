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
	sk, s := registeredHidingSecret(t)
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

// TestSkillHiddenByVisibleStaysHiddenWhileReloadRemovesIt: the mirror of
// the case above. A skills/list that read the catalog before a Reload
// asks about each skill after it: the Reload that drops a skill Visible
// hides (skill://secret/) unregisters its files, and a file the server
// does not serve counted as visible, so the running list showed the
// hidden skill. The test runs the Reload inside Visible's first call of
// the list, after the list has read the catalog and before it asks about
// the secret skill.
func TestSkillHiddenByVisibleStaysHiddenWhileReloadRemovesIt(t *testing.T) {
	withSecret := testFS()
	withSecret["secret/SKILL.md"] = &fstest.MapFile{Data: skillWith("secret", "")}
	sk, err := skills.New(withSecret, skills.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var reloadNow func()
	o := server.Options{Name: "skills-test", Visible: func(_ context.Context, it server.Item) bool {
		if f := reloadNow; f != nil {
			reloadNow = nil
			f()
		}
		return !strings.HasPrefix(it.Name, "skill://secret/")
	}}
	sk.Register(&o)
	s, err := server.New(o)
	if err != nil {
		t.Fatal(err)
	}
	sk.Bind(s)
	reloaded := false
	reloadNow = func() {
		reloaded = true
		if err := sk.Reload(testFS()); err != nil {
			t.Error(err)
		}
	}
	res := result[listResult](t, call(t, s, skills.MethodList, ""))
	if !reloaded {
		t.Fatal("Visible was not asked during skills/list")
	}
	for _, e := range res.Skills {
		if strings.HasPrefix(e.URI, "skill://secret/") {
			t.Errorf("skills/list running while Reload removed the hidden skill lists it: %s", e.URI)
		}
	}
}

// TestSkillsListUnderEndlessReloadsFailsClearly: a request whose catalog
// every read finds replaced (here a Reload inside each Visible call) stops
// after a bounded number of reads with -32603, never loops or answers from
// a replaced catalog.
func TestSkillsListUnderEndlessReloadsFailsClearly(t *testing.T) {
	sk, err := skills.New(testFS(), skills.Options{})
	if err != nil {
		t.Fatal(err)
	}
	reloading := false
	o := server.Options{Name: "skills-test", Visible: func(_ context.Context, it server.Item) bool {
		if reloading {
			if err := sk.Reload(testFS()); err != nil {
				t.Error(err)
			}
		}
		return true
	}}
	sk.Register(&o)
	s, err := server.New(o)
	if err != nil {
		t.Fatal(err)
	}
	sk.Bind(s)
	reloading = true
	r := call(t, s, skills.MethodList, "")
	reloading = false
	if r.Error == nil || r.Error.Code != jsonrpc.CodeInternalError || !strings.Contains(r.Error.Message, "reloaded") {
		t.Fatalf("skills/list under endless Reloads answered %s %+v, want -32603 saying the skills were reloaded", r.Result, r.Error)
	}
	if res := result[listResult](t, call(t, s, skills.MethodList, "")); len(res.Skills) == 0 {
		t.Error("skills/list after the Reloads lists nothing")
	}
}

// registeredHidingSecret registers testFS's skills into a server whose
// Options.Visible hides every skill:// resource of the skill "secret", and
// returns both, the server not bound yet.
func registeredHidingSecret(t *testing.T) (*skills.Skills, *server.Server) {
	t.Helper()
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
	return sk, s
}
