package bind

import (
	"bytes"
	"flag"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files of emit tests")

// golden compares got with testdata/golden/name, rewriting it under -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", "golden", name)
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./bind -run %s -update to create it)", err, t.Name())
	}
	if !bytes.Equal(got, want) {
		t.Errorf("emitted file differs from %s (run with -update after checking the diff):\n%s", path, got)
	}
}

func TestEmitHappyGolden(t *testing.T) {
	pkg, err := loadFixture(t, "happy")
	if err != nil {
		t.Fatal(err)
	}
	got, err := Emit(pkg, EmitOptions{})
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "happy.golden", got)

	again, err := Emit(pkg, EmitOptions{})
	if err != nil || !bytes.Equal(got, again) {
		t.Errorf("second Emit differs (err %v)", err)
	}
	if !strings.HasPrefix(string(got), GeneratedHeader+"\n") {
		t.Errorf("output does not start with %q", GeneratedHeader)
	}
	f, err := parser.ParseFile(token.NewFileSet(), OutputFile, got, parser.ParseComments)
	if err != nil {
		t.Fatalf("output does not parse: %v", err)
	}
	if f.Name.Name != "happy" {
		t.Errorf("package %s, want happy", f.Name.Name)
	}
	for _, want := range []string{
		"const _ = server.APIVersion1",
		"func (s *Service) MCPTools() []server.Tool",
		"func MCPTools() []server.Tool",
		"func (s *Service) MCPPrompts() []server.Prompt",
		"func MCPResources() []server.Resource",
		"func MCPResourceTemplates() []server.ResourceTemplate",
		"func MCPRegister(opts *server.Options)",
		"func (s *Service) MCPRegister(opts *server.Options)",
		// Each tool is bound without generics: nil pointers to its argument
		// and result types, and a func literal calling the method.
		"}, (*WeatherArgs)(nil), (**WeatherReport)(nil), func(ctx context.Context, in any) (any, error) {\n\t\t\treturn s.CurrentWeather(ctx, *in.(*WeatherArgs))\n\t\t}),",
		// The doc comment, escaped, is the description.
		`Description: "Gets current weather information for any location worldwide.\n\nIt uses the open-meteo API.",`,
		`Title:       "Weather \"Information\"",`,
		"ReadOnlyHint:  new(true),",
		"OpenWorldHint: new(false),",
		`{Src: "a.png"},`,
		// Adapters for funcs without ctx or without arguments.
		"}, (*EchoArgs)(nil), (*string)(nil), func(_ context.Context, in any) (any, error) {\n\t\t\treturn Echo(*in.(*EchoArgs))\n\t\t}",
		"}, (*struct{})(nil), (*[]mcp.ContentBlock)(nil), func(ctx context.Context, _ any) (any, error) {\n\t\t\treturn s.ListBlocks(ctx)\n\t\t}",
		"func(_ context.Context, in CityVars) (string, error) {\n\t\t\treturn CityWeather(in)\n\t\t}",
		"}, Config),",
	} {
		if !strings.Contains(string(got), want) {
			t.Errorf("output lacks %q", want)
		}
	}
}

func TestEmitNeedsPackage(t *testing.T) {
	if _, err := Emit(nil, EmitOptions{}); err == nil {
		t.Error("Emit(nil) succeeded")
	}
	if _, err := Emit(&Package{}, EmitOptions{}); err == nil {
		t.Error("Emit of an empty Package succeeded")
	}
}

// compileBindings writes files (name → source) as package p of a module
// that uses the real runtime, emits the bindings next to them and vets the
// package. It returns the emitted source.
func compileBindings(t *testing.T, files map[string][]byte) []byte {
	t.Helper()
	if testing.Short() {
		t.Skip("builds a package with the go command")
	}
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	gomod := "module example.com/fixture\n\ngo 1.26\n\nrequire github.com/mcpgen/mcpgen v0.0.0\n\nreplace github.com/mcpgen/mcpgen => " + root + "\n"
	sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	pkgDir := filepath.Join(dir, "p")
	if err := os.Mkdir(pkgDir, 0o755); err != nil {
		t.Fatal(err)
	}
	write := func(path string, content []byte) {
		if err := os.WriteFile(path, content, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(dir, "go.mod"), []byte(gomod))
	write(filepath.Join(dir, "go.sum"), sum)
	for name, content := range files {
		write(filepath.Join(pkgDir, name), content)
	}
	env := append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod", "GOPROXY=off")
	pkg, err := Load(pkgDir, LoadOptions{Env: env})
	if err != nil {
		t.Fatal(err)
	}
	src, err := Emit(pkg, EmitOptions{})
	if err != nil {
		t.Fatal(err)
	}
	write(filepath.Join(pkgDir, OutputFile), src)
	cmd := exec.Command("go", "vet", "./p")
	cmd.Dir, cmd.Env = dir, env
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go vet of the emitted bindings: %v\n%s\n%s", err, out, src)
	}
	return src
}

// TestEmitCompiles builds the happy fixture with its emitted bindings
// against the real runtime.
func TestEmitCompiles(t *testing.T) {
	files := map[string][]byte{}
	for _, name := range []string{"tools.go", "more.go"} {
		b, err := os.ReadFile(filepath.Join("testdata", "fixture", "happy", name))
		if err != nil {
			t.Fatal(err)
		}
		files[name] = b
	}
	compileBindings(t, files)
}

// TestEmitAvoidsClashes binds a package whose own identifiers clash with
// the names the emitted file would use: imports are renamed, the receiver
// variable avoids a type name and adapter parameters avoid the func name.
func TestEmitAvoidsClashes(t *testing.T) {
	src := compileBindings(t, map[string][]byte{"p.go": []byte(`package p

import (
	"context"
	"time"

	"github.com/mcpgen/mcpgen/generated/mcp"
)

var server, context2 = 1, 2

type mcpx = mcp.TextContent

type s struct{}

type Store struct{ items map[string]string }

type Args struct {
	Key string ` + "`json:\"key\" jsonschema:\"required\"`" + `
}

type Out struct {
	Value string        ` + "`json:\"value\"`" + `
	Age   time.Duration ` + "`json:\"age\"`" + `
}

type Gen[T any] struct{ V T }

// Get reads a key.
//
//mcp:tool
func (st *Store) Get(in Args) (*Out, error) { return &Out{Value: st.items[in.Key]}, nil }

// Raw returns a whole result.
//
//mcp:tool
func (st Store) Raw(ctx context.Context) (*mcp.CallToolResult, error) { return &mcp.CallToolResult{}, ctx.Err() }

// in is a func named like an adapter parameter.
//
//mcp:tool name=in_tool
func in(in Args) (string, error) { return in.Key, nil }

// Version is a resource without ctx.
//
//mcp:resource uri=mem://version
func Version() (string, error) { return "1", nil }

var _ s
var _ = context2
`)})
	for _, want := range []string{
		`server2 "github.com/mcpgen/mcpgen/server"`,
		"func (s_ *Store) MCPTools() []server2.Tool",
		"return s_.Get(*in.(*Args))",
		"return s_.Raw(ctx)",
		"func(_ context.Context, in_ any) (any, error) {\n\t\t\treturn in(*in_.(*Args))\n\t\t}",
		"func(_ context.Context) (string, error) {\n\t\t\treturn Version()\n\t\t}",
	} {
		if !strings.Contains(string(src), want) {
			t.Errorf("output lacks %q:\n%s", want, src)
		}
	}
}

// BenchmarkLoadEmit20Tools measures what `mcpgen tools` does for a package
// with 20 tools: one whole Load plus Emit.
func BenchmarkLoadEmit20Tools(b *testing.B) {
	dir := b.TempDir()
	writeManyTools(b, dir, 20)
	env := testEnv()
	for b.Loop() {
		pkg, err := Load(dir, LoadOptions{Env: env})
		if err != nil {
			b.Fatal(err)
		}
		src, err := Emit(pkg, EmitOptions{})
		if err != nil {
			b.Fatal(err)
		}
		if bytes.Count(src, []byte("server.NewTool(")) != 20 {
			b.Fatalf("emitted %d tools", bytes.Count(src, []byte("server.NewTool(")))
		}
	}
}
