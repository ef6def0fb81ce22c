package skills_test

import (
	"context"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/mcpgen/mcpgen/server"
	"github.com/mcpgen/mcpgen/skills"
)

// TestReloadKeepsVisibleOnEveryBoundServer: one set registered into one
// server.Options from which two servers are made (one per transport, say),
// each bound. A Reload then adds a skill Options.Visible hides. Bind kept
// only the last server, so the first one never got the new SKILL.md as a
// resource while its skills/list read the new set, and a file the server
// does not serve counts as visible: the hidden skill was listed there (and
// the skill the Reload added could not be read). The same when the Reload
// comes between Register and the Binds: only the first Bind followed it.
func TestReloadKeepsVisibleOnEveryBoundServer(t *testing.T) {
	for _, early := range []bool{false, true} {
		sk, err := skills.New(testFS(), skills.Options{})
		if err != nil {
			t.Fatal(err)
		}
		o := server.Options{Name: "skills-test", Visible: func(_ context.Context, it server.Item) bool {
			return !strings.HasPrefix(it.Name, "skill://secret/")
		}}
		sk.Register(&o)
		s1, err := server.New(o)
		if err != nil {
			t.Fatal(err)
		}
		s2, err := server.New(o)
		if err != nil {
			t.Fatal(err)
		}
		fsys := testFS()
		fsys["secret/SKILL.md"] = &fstest.MapFile{Data: skillWith("secret", "")}
		fsys["fresh/SKILL.md"] = &fstest.MapFile{Data: skillWith("fresh", "")}
		if early {
			if err := sk.Reload(fsys); err != nil {
				t.Fatal(err)
			}
		}
		sk.Bind(s1)
		sk.Bind(s2)
		if !early {
			if err := sk.Reload(fsys); err != nil {
				t.Fatal(err)
			}
		}
		for i, s := range []*server.Server{s1, s2} {
			for _, e := range result[listResult](t, call(t, s, skills.MethodList, "")).Skills {
				if strings.HasPrefix(e.URI, "skill://secret/") {
					t.Errorf("Reload before Bind %v: server %d lists the skill Visible hides: %s", early, i+1, e.URI)
				}
			}
			if r := call(t, s, "resources/read", `{"uri":"skill://fresh/SKILL.md"}`); r.Error != nil {
				t.Errorf("Reload before Bind %v: server %d: resources/read of a skill the Reload added: %d %s", early, i+1, r.Error.Code, r.Error.Message)
			}
		}
	}
}

// TestReloadBeforeBindIsNotServedBeforeBind: README "Skills": a Reload
// before Bind "is served from Bind on". A server made from the options
// Register filled and already answering before Bind listed the new set
// from skills/list while its resources were still the registered set's,
// so a skill the Reload added that Options.Visible hides (its SKILL.md
// no resource there, so counted as visible) was listed and served by
// skills/get. Until Bind it serves the registered set; from Bind the new one.
func TestReloadBeforeBindIsNotServedBeforeBind(t *testing.T) {
	sk, s := registeredHidingSecret(t)
	fsys := testFS()
	fsys["secret/SKILL.md"] = &fstest.MapFile{Data: skillWith("secret", "")}
	fsys["fresh/SKILL.md"] = &fstest.MapFile{Data: skillWith("fresh", "")}
	if err := sk.Reload(fsys); err != nil {
		t.Fatal(err)
	}
	listed := func() map[string]bool {
		got := map[string]bool{}
		for _, e := range result[listResult](t, call(t, s, skills.MethodList, "")).Skills {
			got[e.URI] = true
		}
		return got
	}
	if l := listed(); l["skill://secret/SKILL.md"] || l["skill://fresh/SKILL.md"] {
		t.Errorf("before Bind, skills/list lists the skills the Reload added (secret is hidden by Visible): %v", l)
	}
	if r := call(t, s, skills.MethodGet, `{"uri":"skill://secret/SKILL.md"}`); r.Error == nil {
		t.Errorf("before Bind, skills/get serves the skill Visible hides: %s", r.Result)
	}
	sk.Bind(s)
	if l := listed(); l["skill://secret/SKILL.md"] || !l["skill://fresh/SKILL.md"] {
		t.Errorf("after Bind, skills/list: %v, want fresh and not secret", l)
	}
}
