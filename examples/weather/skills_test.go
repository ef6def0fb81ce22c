package main

import (
	"crypto/sha256"
	"encoding/hex"
	"regexp"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/examples/weather/internal/calc"
)

// The plan-day-out skill is served as a skill entry whose digests are those
// of the embedded files, and what it tells the model holds: the tools it
// names exist and the calculator accepts every expression it shows.
func TestPlanDayOutSkill(t *testing.T) {
	app := newTestApp(t)
	w := inProcess{app}
	const uri = "skill://plan-day-out/SKILL.md"

	disc := obj(t, w.call(t, 1, "server/discover", nil).Result)
	if at(disc, "capabilities", "extensions", "io.modelcontextprotocol/skills", "directoryRead") != true {
		t.Fatalf("discover does not declare the skills extension with directoryRead: %v", at(disc, "capabilities"))
	}

	list := obj(t, w.call(t, 2, "skills/list", nil).Result)
	if at(list, "skills", 0, "uri") != uri || at(list, "skills", 1) != nil {
		t.Fatalf("skills/list = %v", list)
	}
	if at(list, "skills", 0, "frontmatter", "name") != "plan-day-out" || at(list, "ttlMs") != 60000.0 {
		t.Errorf("skills/list entry = %v", list)
	}
	files := map[string]string{
		uri: "skills/plan-day-out/SKILL.md",
		"skill://plan-day-out/references/activities.md": "skills/plan-day-out/references/activities.md",
	}
	resources, _ := at(list, "skills", 0, "resources").([]any)
	if len(resources) != len(files) {
		t.Fatalf("resources = %v, want %d files", resources, len(files))
	}
	for _, r := range resources {
		u, _ := at(r, "uri").(string)
		data, err := skillFiles.ReadFile(files[u])
		if err != nil {
			t.Fatalf("%s: %v", u, err)
		}
		sum := sha256.Sum256(data)
		if at(r, "digest") != "sha256:"+hex.EncodeToString(sum[:]) || at(r, "size") != float64(len(data)) {
			t.Errorf("%s: digest %v size %v", u, at(r, "digest"), at(r, "size"))
		}
	}

	get := obj(t, w.call(t, 3, "skills/get", map[string]any{"uri": uri}).Result)
	if at(get, "skill", "uri") != uri || at(get, "cacheScope") != "public" {
		t.Errorf("skills/get = %v", get)
	}
	dir := obj(t, w.call(t, 4, "resources/directory/read", map[string]any{"uri": "skill://plan-day-out"}).Result)
	if at(dir, "resources", 1, "uri") != "skill://plan-day-out/references" || at(dir, "resources", 1, "mimeType") != "inode/directory" {
		t.Errorf("resources/directory/read = %v", dir)
	}

	// The tools the skill names are the server's.
	tools := obj(t, w.call(t, 5, "tools/list", nil).Result)
	have := map[string]bool{"weather_forecast": true} // offered when switched on
	for _, tool := range at(tools, "tools").([]any) {
		have[at(tool, "name").(string)] = true
	}
	skill, _ := skillFiles.ReadFile("skills/plan-day-out/SKILL.md")
	for _, name := range regexp.MustCompile("`([a-z]+_[a-z_]+)`").FindAllStringSubmatch(string(skill), -1) {
		if !have[name[1]] {
			t.Errorf("the skill names tool %s, which the server does not have", name[1])
		}
	}
	// Every expression it shows evaluates, the wind-chill formula too.
	var exprs []string
	for _, m := range regexp.MustCompile(`"([0-9][0-9 .*/+^()-]*)"`).FindAllStringSubmatch(string(skill), -1) {
		exprs = append(exprs, m[1])
	}
	ref, _ := skillFiles.ReadFile("skills/plan-day-out/references/activities.md")
	for _, line := range strings.Split(string(ref), "\n") {
		if strings.HasPrefix(line, "    13.12") {
			exprs = append(exprs, strings.NewReplacer("T", "5", "V", "20").Replace(strings.TrimSpace(line)))
		}
	}
	if len(exprs) < 3 {
		t.Fatalf("found only %d expressions in the skill: %v", len(exprs), exprs)
	}
	for _, e := range exprs {
		if _, err := calc.Eval(e); err != nil {
			t.Errorf("calculator_arithmetic rejects the skill's %q: %v", e, err)
		}
	}
}
