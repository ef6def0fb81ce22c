package templates

import (
	"os"
	"regexp"
	"testing"
)

// README, Skills: "Every file of a skill is a resource", and the
// scaffold's skills.go promises "each directory under skills/ holding a
// SKILL.md is a skill". Were the scaffold (and the weather and everything
// examples it follows) to embed the skills with "//go:embed skills", by the
// embed rules (pkg embed: "files with names beginning with ‘.’ or ‘_’ are
// excluded" unless the pattern has the all: prefix) a skill's
// scripts/_common.py, _shared/ or .env.example would be silently left out of the
// binary: skills.New never sees it, the skill's manifest omits it, and a
// SKILL.md that points to it sends the agent to a file the server does not
// serve — with no start-up error. The directive must be
// "//go:embed all:skills".
func TestScaffoldEmbedsSkillFilesStartingWithDotOrUnderscore(t *testing.T) {
	files, err := Scaffold(Data{Module: "example.com/w", Name: "w", Version: UnpublishedVersion})
	if err != nil {
		t.Fatal(err)
	}
	embedLine := regexp.MustCompile(`(?m)^//go:embed (.*)$`)
	sources := map[string][]byte{"scaffold skills.go": file(t, files, "skills.go")}
	for _, p := range []string{"../examples/weather/skills.go", "../examples/everything/skills.go"} {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		sources[p] = b
	}
	for name, src := range sources {
		m := embedLine.FindSubmatch(src)
		if m == nil {
			t.Errorf("%s: no //go:embed line", name)
			continue
		}
		if string(m[1]) != "all:skills" {
			t.Errorf("%s: //go:embed %s leaves out every skill file or directory whose name starts with '.' or '_'; want //go:embed all:skills", name, m[1])
		}
	}
}
