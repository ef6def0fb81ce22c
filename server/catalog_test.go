package server

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/generated/mcp"
)

func testTool(name, desc string) Tool {
	return NewTool(ToolInfo{Name: name, Description: desc}, func(ctx context.Context, in noArgs) (string, error) { return desc, nil })
}

func testPrompt(name string) Prompt {
	return NewPrompt(PromptInfo{Name: name}, func(ctx context.Context, in noArgs) (string, error) { return name, nil })
}

func testResource(uri string) Resource {
	return NewResource(ResourceInfo{URI: uri, Name: uri}, func(ctx context.Context) (string, error) { return uri, nil })
}

func testTemplate(tmpl string) ResourceTemplate {
	return NewResourceTemplate(ResourceTemplateInfo{URITemplate: tmpl, Name: tmpl}, func(ctx context.Context, v map[string]string) (string, error) { return tmpl, nil })
}

// watch returns a function that reports the list changes of s published
// since its last call, one per publication (by kind: tools, prompts,
// resources), however many a stream's queue would coalesce.
func watch(s *Server) func() []change {
	kinds := []change{changeTools, changePrompts, changeResources}
	seen := make([]uint64, len(kinds))
	for i, k := range kinds {
		seen[i] = s.subs.published(k)
	}
	return func() []change {
		var got []change
		for i, k := range kinds {
			n := s.subs.published(k)
			for ; seen[i] < n; seen[i]++ {
				got = append(got, k)
			}
		}
		return got
	}
}

// listNames returns the names (or URIs, URI templates) a list method
// answers, in order.
func listNames(t *testing.T, s *Server, method, field, key string) []string {
	t.Helper()
	r := rpc(t, s, method, `{}`)
	wantResult(t, r)
	var res map[string]json.RawMessage
	if err := json.Unmarshal(r.Result, &res); err != nil {
		t.Fatal(err)
	}
	var items []map[string]any
	if err := json.Unmarshal(res[field], &items); err != nil {
		t.Fatalf("%s: %s", method, r.Result)
	}
	names := make([]string, len(items))
	for i, it := range items {
		names[i], _ = it[key].(string)
	}
	return names
}

func TestRegistryAddErrors(t *testing.T) {
	bad := NewTool(ToolInfo{Name: "bad name"}, func(ctx context.Context, in noArgs) (string, error) { return "", nil })
	_, err := New(Options{
		Name:              "errors",
		Tools:             []Tool{{}, bad, testTool("a", "1"), testTool("a", "2")},
		Prompts:           []Prompt{{}, testPrompt("p"), testPrompt("p"), NewPrompt[noArgs, string](PromptInfo{Name: "nil"}, nil)},
		Resources:         []Resource{testResource("test://r"), {}, testResource("test://r")},
		ResourceTemplates: []ResourceTemplate{{}, testTemplate("test://{x}"), testTemplate("test://{x}")},
	})
	want := []string{
		`server: tool 0 is the zero Tool (use NewTool)`,
		`server: tool "bad name": tool name "bad name" contains ' '; only A-Z, a-z, 0-9, '_', '-' and '.' are allowed`,
		`server: duplicate tool name "a"`,
		`server: prompt 0 is the zero Prompt (use NewPrompt)`,
		`server: duplicate prompt name "p"`,
		`server: prompt "nil": nil function`,
		`server: resource 1 is the zero Resource (use NewResource)`,
		`server: duplicate resource URI "test://r"`,
		`server: resource template 0 is the zero ResourceTemplate (use NewResourceTemplate)`,
		`server: duplicate resource template "test://{x}"`,
	}
	if err == nil || err.Error() != strings.Join(want, "\n") {
		t.Fatalf("New error:\n%v\nwant:\n%s", err, strings.Join(want, "\n"))
	}

	s, err := New(Options{Name: "errors"})
	if err != nil {
		t.Fatal(err)
	}
	changes := watch(s)
	if err := s.AddResources(testResource("test://ok"), testResource("test://ok")); err == nil {
		t.Error("AddResources accepted a duplicate")
	}
	if err := s.AddResourceTemplates(testTemplate("test://{y}"), ResourceTemplate{}); err == nil {
		t.Error("AddResourceTemplates accepted a zero template")
	}
	if err := s.AddTools(bad, testTool("fine", "")); err == nil {
		t.Error("AddTools accepted an invalid tool")
	}
	if s.offers("tools") || s.offers("resources") || len(changes()) != 0 {
		t.Errorf("a failed add registered something or notified")
	}
}

func TestRegistryChanges(t *testing.T) {
	s, err := New(Options{Name: "changes"})
	if err != nil {
		t.Fatal(err)
	}
	changes := watch(s)
	wantChanges := func(want ...change) {
		t.Helper()
		if got := changes(); !equalChanges(got, want) {
			t.Errorf("changes %v, want %v", got, want)
		}
	}
	wantList := func(method, field, key string, want ...string) {
		t.Helper()
		if got := listNames(t, s, method, field, key); strings.Join(got, ",") != strings.Join(want, ",") {
			t.Errorf("%s = %v, want %v", method, got, want)
		}
	}

	// Nothing is offered until the first add, even an empty one.
	wantError(t, rpc(t, s, "tools/list", `{}`), -32601)
	if err := s.AddTools(); err != nil {
		t.Fatal(err)
	}
	wantChanges(changeTools)
	wantList("tools/list", "tools", "name")

	// Adds keep registration order; a replacement keeps its place.
	if err := s.AddTools(testTool("a", "first"), testTool("b", "")); err != nil {
		t.Fatal(err)
	}
	if err := s.AddTools(testTool("c", ""), testTool("a", "second")); err != nil {
		t.Fatal(err)
	}
	wantChanges(changeTools, changeTools)
	wantList("tools/list", "tools", "name", "a", "b", "c")
	if text, _ := callText(t, rpc(t, s, "tools/call", `{"name":"a"}`)); text != "second" {
		t.Errorf("replaced tool answers %q", text)
	}
	if !strings.Contains(string(rpc(t, s, "tools/list", `{}`).Result), `"description":"second"`) {
		t.Errorf("tools/list kept the replaced definition")
	}

	// Removing nothing notifies nobody; removing keeps the rest in order.
	s.RemoveTools("zzz")
	wantChanges()
	s.RemoveTools("b", "zzz")
	wantChanges(changeTools)
	wantList("tools/list", "tools", "name", "a", "c")
	s.RemoveTools("a", "c")
	wantChanges(changeTools)
	wantList("tools/list", "tools", "name")

	if err := s.AddPrompts(testPrompt("p1"), testPrompt("p2")); err != nil {
		t.Fatal(err)
	}
	s.RemovePrompts("p1")
	s.RemovePrompts("p1")
	wantChanges(changePrompts, changePrompts)
	wantList("prompts/list", "prompts", "name", "p2")

	// Resources and templates: one change per call; a URI names both.
	if err := s.AddResources(testResource("test://x"), testResource("test://y")); err != nil {
		t.Fatal(err)
	}
	if err := s.AddResourceTemplates(testTemplate("test://x"), testTemplate("test://{z}")); err != nil {
		t.Fatal(err)
	}
	wantChanges(changeResources, changeResources)
	s.RemoveResources("test://x")
	wantChanges(changeResources)
	wantList("resources/list", "resources", "uri", "test://y")
	wantList("resources/templates/list", "resourceTemplates", "uriTemplate", "test://{z}")
	s.RemoveResources("test://none")
	wantChanges()
}

func equalChanges(a, b []change) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestRegistryPages(t *testing.T) {
	s, err := New(Options{Name: "pages", PageSize: 2, Tools: []Tool{testTool("a", ""), testTool("b", ""), testTool("c", "")}})
	if err != nil {
		t.Fatal(err)
	}
	r := rpc(t, s, "tools/list", `{}`)
	wantResult(t, r)
	var page struct {
		Tools []struct {
			Name string `json:"name"`
		} `json:"tools"`
		NextCursor string `json:"nextCursor"`
	}
	if err := json.Unmarshal(r.Result, &page); err != nil || len(page.Tools) != 2 || page.Tools[1].Name != "b" || page.NextCursor == "" {
		t.Fatalf("first page %s", r.Result)
	}
	r = rpc(t, s, "tools/list", `{"cursor":"`+page.NextCursor+`"}`)
	page.NextCursor = ""
	if err := json.Unmarshal(r.Result, &page); err != nil || len(page.Tools) != 1 || page.Tools[0].Name != "c" || page.NextCursor != "" {
		t.Fatalf("last page %s", r.Result)
	}
	wantError(t, rpc(t, s, "tools/list", `{"cursor":7}`), -32602)
	wantError(t, rpc(t, s, "tools/list", `{"cursor":"nope"}`), -32602)

	// The mcp.ToolsHandler view pages the same way.
	res, err := s.tools.ListTools(context.Background(), &mcp.PaginatedRequestParams{})
	if err != nil || len(res.Tools) != 2 || res.Tools[0].Name != "a" || res.NextCursor == nil || *res.NextCursor == "" {
		t.Fatalf("ListTools = %+v, %v", res, err)
	}
	last, err := s.tools.ListTools(context.Background(), &mcp.PaginatedRequestParams{Cursor: res.NextCursor})
	if err != nil || len(last.Tools) != 1 || last.NextCursor != nil {
		t.Fatalf("ListTools last page = %+v, %v (the end has no nextCursor)", last, err)
	}
}
