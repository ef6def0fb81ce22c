package server

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/generated/mcp"
	"github.com/mcpgen/mcpgen/jsonrpc"
)

func TestDiscover(t *testing.T) {
	f := newFixture(t)
	r := rpc(t, f.s, "server/discover", `{}`)
	wantResult(t, r)
	var res mcp.DiscoverResult
	if err := json.Unmarshal(r.Result, &res); err != nil {
		t.Fatal(err)
	}
	if len(res.SupportedVersions) == 0 || res.SupportedVersions[0] != "2026-07-28" {
		t.Errorf("supportedVersions %v", res.SupportedVersions)
	}
	c := res.Capabilities
	if c.Tools == nil || c.Tools.ListChanged == nil || !*c.Tools.ListChanged {
		t.Errorf("tools capability %s", r.Result)
	}
	if c.Prompts == nil || c.Resources == nil || c.Resources.Subscribe == nil || c.Completions == nil || c.Logging == nil {
		t.Errorf("capabilities %s", r.Result)
	}
	if res.Instructions != "test server" {
		t.Errorf("instructions %q", res.Instructions)
	}
	// A server without prompts does not declare them, and prompts/list is -32601.
	s, err := New(Options{Name: "bare", Tools: []Tool{weatherTool()}})
	if err != nil {
		t.Fatal(err)
	}
	r = rpc(t, s, "server/discover", `{}`)
	if strings.Contains(string(r.Result), `"prompts"`) || strings.Contains(string(r.Result), `"completions"`) {
		t.Errorf("bare discover %s", r.Result)
	}
	wantError(t, rpc(t, s, "prompts/list", `{}`), jsonrpc.CodeMethodNotFound)
	wantError(t, rpc(t, s, "completion/complete", `{}`), jsonrpc.CodeMethodNotFound)
}

func TestPrompts(t *testing.T) {
	f := newFixture(t)
	r := rpc(t, f.s, "prompts/list", `{}`)
	if !strings.Contains(string(r.Result), `{"name":"name","description":"Who to greet","required":true}`) {
		t.Errorf("prompt arguments: %s", r.Result)
	}
	r = rpc(t, f.s, "prompts/get", `{"name":"simple"}`)
	msgs := r.field(t, "messages").([]any)
	if len(msgs) != 1 || msgs[0].(map[string]any)["role"] != "user" {
		t.Errorf("simple prompt %s", r.Result)
	}
	r = rpc(t, f.s, "prompts/get", `{"name":"greet","arguments":{"name":"Ada","tone":"warmly"}}`)
	if !strings.Contains(string(r.Result), "Greet Ada warmly") {
		t.Errorf("greet %s", r.Result)
	}
	wantError(t, rpc(t, f.s, "prompts/get", `{"name":"greet","arguments":{}}`), jsonrpc.CodeInvalidParams)
	wantError(t, rpc(t, f.s, "prompts/get", `{"name":"missing"}`), jsonrpc.CodeInvalidParams)
}

func TestResources(t *testing.T) {
	f := newFixture(t)
	r := rpc(t, f.s, "resources/read", `{"uri":"test://static-text"}`)
	c := r.field(t, "contents").([]any)[0].(map[string]any)
	if c["text"] != "static text" || c["mimeType"] != "text/plain" || c["uri"] != "test://static-text" {
		t.Errorf("text resource %s", r.Result)
	}
	r = rpc(t, f.s, "resources/read", `{"uri":"test://static-binary"}`)
	c = r.field(t, "contents").([]any)[0].(map[string]any)
	if blob, _ := base64.StdEncoding.DecodeString(c["blob"].(string)); string(blob) != "\x89PNG" {
		t.Errorf("blob resource %s", r.Result)
	}
	r = rpc(t, f.s, "resources/read", `{"uri":"test://items/123/data"}`)
	c = r.field(t, "contents").([]any)[0].(map[string]any)
	if !strings.Contains(c["text"].(string), "123") || c["uri"] != "test://items/123/data" {
		t.Errorf("template read %s", r.Result)
	}
	r = rpc(t, f.s, "resources/read", `{"uri":"test://nonexistent"}`)
	wantError(t, r, jsonrpc.CodeInvalidParams)
	if string(r.Error.Data) != `{"uri":"test://nonexistent"}` {
		t.Errorf("not found data %s", r.Error.Data)
	}
	r = rpc(t, f.s, "resources/list", `{}`)
	if n := len(r.field(t, "resources").([]any)); n != 2 {
		t.Errorf("resources/list %s", r.Result)
	}
	r = rpc(t, f.s, "resources/templates/list", `{}`)
	if tm := r.field(t, "resourceTemplates").([]any); len(tm) != 1 || tm[0].(map[string]any)["uriTemplate"] != "test://items/{id}/data" {
		t.Errorf("templates/list %s", r.Result)
	}
}

func TestURITemplates(t *testing.T) {
	cases := []struct {
		tmpl, uri string
		want      map[string]string
	}{
		{"file:///{path}", "file:///a%20b", map[string]string{"path": "a b"}},
		{"file:///{+path}", "file:///a/b/c", map[string]string{"path": "a/b/c"}},
		{"x://{a}/{b}", "x://1/2", map[string]string{"a": "1", "b": "2"}},
		{"x://s{?q,lang}", "x://s?q=go&lang=en", map[string]string{"q": "go", "lang": "en"}},
		{"x://{a}/{b}", "x://1", nil},
		{"file://{/name}", "file:///readme.md", map[string]string{"name": "readme.md"}},
		{"file://{/path*}", "file:///a/b/c.txt", map[string]string{"path": "a/b/c.txt"}},
		{"file:///docs/{name}{.ext}", "file:///docs/readme.md", map[string]string{"name": "readme.md"}},
		{"file:///docs/{name}.{ext}", "file:///docs/readme.md", map[string]string{"name": "readme", "ext": "md"}},
		{"x://v{;id}", "x://v;id=7", map[string]string{"id": "7"}},
		{"x://items/{id}/data", "x://items/a/b/data", nil},
	}
	for _, c := range cases {
		m, err := compileURITemplate(c.tmpl)
		if err != nil {
			t.Fatal(err)
		}
		got, ok := m.match(c.uri)
		if ok != (c.want != nil) {
			t.Errorf("%s ~ %s: ok=%v", c.tmpl, c.uri, ok)
			continue
		}
		for k, v := range c.want {
			if got[k] != v {
				t.Errorf("%s ~ %s: %s=%q want %q", c.tmpl, c.uri, k, got[k], v)
			}
		}
	}
	for _, bad := range []string{"x://{a", "x://a}", "x://{}"} {
		if _, err := compileURITemplate(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

func TestCompletion(t *testing.T) {
	f := newFixture(t)
	r := rpc(t, f.s, "completion/complete", `{"ref":{"type":"ref/prompt","name":"greet"},"argument":{"name":"name","value":"al"}}`)
	vals := r.field(t, "completion", "values").([]any)
	if len(vals) != 2 || vals[0] != "alice" {
		t.Errorf("completion %s", r.Result)
	}
	r = rpc(t, f.s, "completion/complete", `{"ref":{"type":"ref/prompt","name":"simple"},"argument":{"name":"x","value":""}}`)
	if vals := r.field(t, "completion", "values").([]any); len(vals) != 0 {
		t.Errorf("no completer: %s", r.Result)
	}
	wantError(t, rpc(t, f.s, "completion/complete", `{"ref":{"type":"ref/prompt","name":"nope"},"argument":{"name":"x","value":""}}`), jsonrpc.CodeInvalidParams)
}

// userTools is a hand-written mcp.ToolsHandler that takes over tools/*.
type userTools struct{ mcp.UnimplementedToolsHandler }

func (userTools) CallTool(ctx context.Context, p *mcp.CallToolRequestParams) (mcp.CallToolOutcome, error) {
	if p.Name == "ask" {
		resp, err := Ask(ctx, "q", elicitName("q?"))
		if err != nil {
			return nil, err
		}
		return &mcp.CallToolResult{Content: []mcp.ContentBlock{&mcp.TextContent{Text: "got " + resp.(*mcp.ElicitResult).Content["name"].(string)}}}, nil
	}
	return &mcp.CallToolResult{Content: []mcp.ContentBlock{&mcp.TextContent{Text: "user handler: " + p.Name}}}, nil
}

func TestUserHandlersTakeOver(t *testing.T) {
	f := newFixture(t, func(o *Options) { o.Handlers = []any{userTools{}} })
	text, _ := callText(t, rpc(t, f.s, "tools/call", `{"name":"weather_current","arguments":{}}`))
	if text != "user handler: weather_current" {
		t.Errorf("tools/call went to %q", text)
	}
	// Its unimplemented method is -32601; its results are completed.
	wantError(t, rpc(t, f.s, "tools/list", `{}`), jsonrpc.CodeMethodNotFound)
	// Ask works in user handlers too.
	r, _ := rpcMeta(t, f.s, "tools/call", `{"name":"ask"}`, fullCapsMeta, nil)
	if r.field(t, "resultType") != "input_required" {
		t.Fatalf("user handler Ask: %s", r.Result)
	}
	r, _ = rpcMeta(t, f.s, "tools/call", `{"name":"ask","inputResponses":{"q":{"action":"accept","content":{"name":"Zed"}}}}`, fullCapsMeta, nil)
	if text, _ := callText(t, r); text != "got Zed" {
		t.Errorf("user handler answer %q", text)
	}
	wantError(t, rpc(t, f.s, "tools/call", `{"name":42}`), jsonrpc.CodeInvalidParams)
}
