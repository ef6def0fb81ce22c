package templates

import (
	"bytes"
	"encoding/json"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"slices"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/mod/modfile"
)

var wantFiles = []string{".gitignore", "README.md", "bindings_test.go", "go.mod", "main.go", "main_test.go", "skills.go", "skills/greet-people/SKILL.md", "tools.go"}

func names(files []File) []string {
	var out []string
	for _, f := range files {
		out = append(out, f.Name)
	}
	return out
}

func file(t *testing.T, files []File, name string) []byte {
	t.Helper()
	for _, f := range files {
		if f.Name == name {
			return f.Content
		}
	}
	t.Fatalf("no %s in %v", name, names(files))
	return nil
}

func TestScaffold(t *testing.T) {
	d := Data{Module: "example.com/tools/weather/v2", Name: `Wea"ther ☀`, Version: UnpublishedVersion, Replace: "/src/my mcpgen"}
	files, err := Scaffold(d)
	if err != nil {
		t.Fatal(err)
	}
	if got := names(files); !slices.Equal(got, wantFiles) {
		t.Fatalf("files %v, want %v", got, wantFiles)
	}
	again, err := Scaffold(d)
	if err != nil {
		t.Fatal(err)
	}
	for i := range files {
		if !bytes.Equal(files[i].Content, again[i].Content) {
			t.Errorf("%s differs between two runs", files[i].Name)
		}
	}

	// Go files parse, are gofmt-clean and are package main.
	for _, f := range files {
		if !strings.HasSuffix(f.Name, ".go") {
			continue
		}
		formatted, err := format.Source(f.Content)
		if err != nil || !bytes.Equal(formatted, f.Content) {
			t.Errorf("%s is not gofmt-clean (%v)", f.Name, err)
		}
		af, err := parser.ParseFile(token.NewFileSet(), f.Name, f.Content, parser.ParseComments)
		if err != nil || af.Name.Name != "main" {
			t.Errorf("%s: %v (package %v)", f.Name, err, af)
		}
	}

	// The server name reaches main.go as the Go string it is.
	af, err := parser.ParseFile(token.NewFileSet(), "main.go", file(t, files, "main.go"), 0)
	if err != nil {
		t.Fatal(err)
	}
	var gotName string
	ast.Inspect(af, func(n ast.Node) bool {
		if vs, ok := n.(*ast.ValueSpec); ok && vs.Names[0].Name == "serverName" {
			gotName, _ = strconv.Unquote(vs.Values[0].(*ast.BasicLit).Value)
		}
		return true
	})
	if gotName != d.Name {
		t.Errorf("serverName = %q, want %q", gotName, d.Name)
	}

	// go.mod: module, go line, requirement, tool and replace.
	mf, err := modfile.Parse("go.mod", file(t, files, "go.mod"), nil)
	if err != nil {
		t.Fatalf("go.mod: %v", err)
	}
	if mf.Module.Mod.Path != d.Module || mf.Go.Version != DefaultGoVersion {
		t.Errorf("go.mod: module %q, go %q", mf.Module.Mod.Path, mf.Go.Version)
	}
	if len(mf.Require) != 1 || mf.Require[0].Mod.Path != ModulePath || mf.Require[0].Mod.Version != d.Version {
		t.Errorf("go.mod requires %+v", mf.Require)
	}
	if len(mf.Tool) != 1 || mf.Tool[0].Path != ModulePath+"/cmd/mcpgen" {
		t.Errorf("go.mod tools %+v", mf.Tool)
	}
	if len(mf.Replace) != 1 || mf.Replace[0].Old.Path != ModulePath || mf.Replace[0].New.Path != d.Replace {
		t.Errorf("go.mod replaces %+v", mf.Replace)
	}

	// tools.go has the go:generate line and one tool directive.
	tools := string(file(t, files, "tools.go"))
	if !strings.Contains(tools, "\n//go:generate go run "+ModulePath+"/cmd/mcpgen tools\n") || strings.Count(tools, "\n//mcp:tool ") != 1 {
		t.Errorf("tools.go lacks the go:generate line or has not exactly one //mcp:tool:\n%s", tools)
	}

	// The README's host configuration is valid JSON naming the binary.
	readme := string(file(t, files, "README.md"))
	_, block, ok := strings.Cut(readme, "```json\n")
	block, _, _ = strings.Cut(block, "```")
	var cfg struct {
		MCPServers map[string]struct {
			Command string   `json:"command"`
			Args    []string `json:"args"`
		} `json:"mcpServers"`
	}
	if err := json.Unmarshal([]byte(block), &cfg); !ok || err != nil {
		t.Fatalf("README JSON config (%v):\n%s", err, block)
	}
	if s, ok := cfg.MCPServers[d.Name]; !ok || !strings.HasSuffix(s.Command, "/weather") || s.Args == nil {
		t.Errorf("README config %+v", cfg)
	}
	if !strings.Contains(readme, d.Replace) {
		t.Error("README does not mention the replace path")
	}
	if gi := string(file(t, files, ".gitignore")); !strings.Contains(gi, "/weather\n") {
		t.Errorf(".gitignore:\n%s", gi)
	}
}

func TestScaffoldWithoutReplace(t *testing.T) {
	files, err := Scaffold(Data{Module: "srv", Name: "srv", Version: "v1.2.3"})
	if err != nil {
		t.Fatal(err)
	}
	mf, err := modfile.Parse("go.mod", file(t, files, "go.mod"), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(mf.Replace) != 0 || mf.Require[0].Mod.Version != "v1.2.3" {
		t.Errorf("go.mod: replace %+v, require %+v", mf.Replace, mf.Require)
	}
	if strings.Contains(string(file(t, files, "README.md")), "replace") {
		t.Error("README talks about a replace directive the go.mod does not have")
	}
}

func TestScaffoldInvalid(t *testing.T) {
	ok := Data{Module: "example.com/srv", Name: "srv", Version: "v1.0.0"}
	for _, tc := range []struct {
		name string
		edit func(*Data)
		want string
	}{
		{"no module", func(d *Data) { d.Module = "" }, "module path is empty"},
		{"bad module", func(d *Data) { d.Module = "my server" }, "invalid module path"},
		{"no name", func(d *Data) { d.Name = "" }, "server name is empty"},
		{"control char", func(d *Data) { d.Name = "a\nb" }, "unprintable"},
		{"padded name", func(d *Data) { d.Name = " a" }, "starts or ends with a space"},
		{"no version", func(d *Data) { d.Version = "" }, "mcpgen version is empty"},
		{"bad version", func(d *Data) { d.Version = "1.0" }, "invalid mcpgen version"},
		{"dirty version", func(d *Data) { d.Version = "v1.0.0+dirty" }, "invalid mcpgen version"},
		{"relative replace", func(d *Data) { d.Replace = "../mcpgen" }, "not absolute"},
		{"bad go", func(d *Data) { d.GoVersion = "go1.26" }, "invalid go version"},
		{"binary named like source", func(d *Data) { d.Module = "example.com/x.go" }, "named like a source file"},
		{"binary named like a scaffold file", func(d *Data) { d.Module = "example.com/Dockerfile" }, "has the name of the scaffold's Dockerfile"},
		{"binary named like a scaffold folder", func(d *Data) { d.Module = "example.com/skills" }, "has the name of the scaffold's skills"},
	} {
		d := ok
		tc.edit(&d)
		_, err := Scaffold(d)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one containing %q", tc.name, err, tc.want)
		}
	}
}

func TestBinaryName(t *testing.T) {
	for in, want := range map[string]string{
		"srv":                   "srv",
		"example.com/a/weather": "weather",
		"example.com/srv/v2":    "srv",
		"gopkg.in/yaml.v3":      "yaml.v3",
	} {
		if got := BinaryName(in); got != want {
			t.Errorf("BinaryName(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestScaffoldAuth: --auth adds auth.go and auth_test.go, wires the flags
// into main.go, requires (and replaces) the oauth module and documents it.
func TestScaffoldAuth(t *testing.T) {
	plain, err := Scaffold(Data{Module: "example.com/srv", Name: "srv", Version: UnpublishedVersion, Replace: "/src/mcpgen"})
	if err != nil {
		t.Fatal(err)
	}
	files, err := Scaffold(Data{Module: "example.com/srv", Name: "srv", Version: UnpublishedVersion, Replace: "/src/mcpgen", Auth: true})
	if err != nil {
		t.Fatal(err)
	}
	want := append(slices.Clone(wantFiles), "auth.go", "auth_test.go")
	slices.Sort(want)
	if got := names(files); !slices.Equal(got, want) {
		t.Fatalf("files %v, want %v", got, want)
	}
	for _, f := range files {
		if !strings.HasSuffix(f.Name, ".go") {
			continue
		}
		if formatted, err := format.Source(f.Content); err != nil || !bytes.Equal(formatted, f.Content) {
			t.Errorf("%s is not gofmt-clean (%v)", f.Name, err)
		}
	}
	main := string(file(t, files, "main.go"))
	for _, s := range []string{"auth.flags(fs)", "auth.build(ctx, *httpAddr != \"\")", "o.HTTP.Auth = protect"} {
		if !strings.Contains(main, s) {
			t.Errorf("main.go lacks %q", s)
		}
	}
	if strings.Contains(string(file(t, plain, "main.go")), "auth") {
		t.Error("main.go without --auth mentions auth")
	}
	mf, err := modfile.Parse("go.mod", file(t, files, "go.mod"), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(mf.Require) != 2 || mf.Require[1].Mod.Path != OAuthModulePath {
		t.Errorf("go.mod requires %+v", mf.Require)
	}
	if len(mf.Replace) != 2 || mf.Replace[1].Old.Path != OAuthModulePath || mf.Replace[1].New.Path != "/src/mcpgen/oauth" {
		t.Errorf("go.mod replaces %+v", mf.Replace)
	}
	readme := string(file(t, files, "README.md"))
	for _, s := range []string{"## Authorization (OAuth 2.1)", "MCP_AUTH_ISSUER", "--auth-resource", "insufficient_scope"} {
		if !strings.Contains(readme, s) {
			t.Errorf("README lacks %q", s)
		}
	}
}
