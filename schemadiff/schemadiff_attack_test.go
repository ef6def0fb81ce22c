package schemadiff

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// WriteText promises one line per change ("Lines start with + (added), -
// (removed) or ~ (changed)", mcpgen schema diff --help; "one line per
// change", WriteText's doc). A deprecation notice is a paragraph of a
// description, and a paragraph may wrap over several lines; a property name
// may hold any character. Both are printed raw, so the text report gets
// lines that are no change at all, or that read as changes that did not
// happen (here "- A.x", though A.x is unchanged).
func TestAttackWriteTextOneLinePerChange(t *testing.T) {
	dir := t.TempDir()
	write := func(version, content string) string {
		path := filepath.Join(dir, version, "schema.json")
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	old := load(t, write("2030-01-01", `{"$defs": {"A": {"type": "object", "properties": {"x": {"type": "string"}}}}}`))
	new := load(t, write("2030-02-01", `{"$defs": {"A": {"type": "object", "properties": {
		"x": {"type": "string"},
		"y\n  - A.x (optional string)": {"type": "string"},
		"z": {"type": "string", "description": "Deprecated: use x, which takes\nthe same values."}
	}}}}`))
	r := Diff(old, new)
	var buf bytes.Buffer
	if err := r.WriteText(&buf); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimRight(buf.String(), "\n"), "\n")
	var changeLines int
	for _, line := range lines[1:] {
		switch {
		case line == "", line == string(Methods), line == string(Types), line == string(Fields), line == string(ErrorCodes), line == string(Deprecations):
		case strings.HasPrefix(line, "  + "), strings.HasPrefix(line, "  - "), strings.HasPrefix(line, "  ~ "):
			changeLines++
		default:
			t.Errorf("line %q is neither a heading nor a change", line)
		}
	}
	if changeLines != len(r.Changes) {
		t.Errorf("%d change lines for %d changes:\n%s", changeLines, len(r.Changes), buf.String())
	}
	if strings.Contains(buf.String(), "\n  - A.x") {
		t.Errorf("the report shows A.x removed, though it is unchanged:\n%s", buf.String())
	}
}
