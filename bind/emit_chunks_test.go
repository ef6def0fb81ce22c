package bind

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestEmitChunks binds 250 tools: MCPTools concatenates three unexported
// functions of 100, 100 and 50 tools; a chunk name the package already
// declares gets a trailing "_"; regenerating with the emitted file present
// gives the same bytes.
func TestEmitChunks(t *testing.T) {
	dir := t.TempDir()
	writeManyTools(t, dir, 250)
	mustWriteFile(t, filepath.Join(dir, "clash.go"), "package many\n\nfunc (s *Service) mcpTools1() {}\n")
	pkg, err := Load(dir, LoadOptions{Env: testEnv()})
	if err != nil {
		t.Fatal(err)
	}
	got, err := Emit(pkg, EmitOptions{})
	if err != nil {
		t.Fatal(err)
	}
	src := string(got)
	want := "return slices.Concat(\n\t\ts.mcpTools0(),\n\t\ts.mcpTools1_(),\n\t\ts.mcpTools2(),\n\t)"
	if !strings.Contains(src, want) {
		t.Fatalf("MCPTools does not concatenate the chunks:\n%s", src[:min(len(src), 2000)])
	}
	for name, n := range map[string]int{"mcpTools0": 100, "mcpTools1_": 100, "mcpTools2": 50} {
		_, body, ok := strings.Cut(src, "func (s *Service) "+name+"() []server.Tool {")
		if !ok {
			t.Fatalf("no func %s", name)
		}
		body, _, _ = strings.Cut(body, "\n}\n")
		if c := strings.Count(body, "server.BindTool("); c != n {
			t.Errorf("%s lists %d tools, want %d", name, c, n)
		}
	}
	if !strings.Contains(src, "// mcpTools2 returns tools 201 to 250 of MCPTools.") {
		t.Error("chunk doc comment missing")
	}

	mustWriteFile(t, filepath.Join(dir, OutputFile), src)
	pkg, err = Load(dir, LoadOptions{Env: testEnv()})
	if err != nil {
		t.Fatal(err)
	}
	again, err := Emit(pkg, EmitOptions{})
	if err != nil || !bytes.Equal(got, again) {
		t.Errorf("regenerating next to the emitted file differs (err %v)", err)
	}
}

func mustWriteFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}
