package server

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/generated/mcp"
	"github.com/mcpgen/mcpgen/jsonrpc"
)

func TestToolsList(t *testing.T) {
	f := newFixture(t)
	r := rpc(t, f.s, "tools/list", `{}`)
	wantResult(t, r)
	var res struct {
		Tools []struct {
			Name         string         `json:"name"`
			Description  string         `json:"description"`
			InputSchema  map[string]any `json:"inputSchema"`
			OutputSchema map[string]any `json:"outputSchema"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(r.Result, &res); err != nil {
		t.Fatal(err)
	}
	if len(res.Tools) != len(fixtureTools(newGate())) || res.Tools[0].Name != "weather_current" {
		t.Fatalf("tools in registration order: %s", r.Result)
	}
	for _, tool := range res.Tools {
		if tool.InputSchema["type"] != "object" {
			t.Errorf("%s: inputSchema %v", tool.Name, tool.InputSchema)
		}
	}
	w := res.Tools[0]
	props := w.InputSchema["properties"].(map[string]any)
	if units := props["units"].(map[string]any); units["default"] != "metric" {
		t.Errorf("units schema %v", units)
	}
	if req := w.InputSchema["required"].([]any); len(req) != 1 || req[0] != "location" {
		t.Errorf("required %v", req)
	}
	if w.OutputSchema["type"] != "object" {
		t.Errorf("outputSchema %v", w.OutputSchema)
	}
	// The explicit schema is kept verbatim (x-mcp-header included).
	if !strings.Contains(string(r.Result), `"x-mcp-header":"Region"`) {
		t.Errorf("verbatim schema lost: %s", r.Result)
	}
	if h := f.s.toolParamHeaders("schema_verbatim"); len(h) != 1 || h[0].Name != "Region" {
		t.Errorf("toolParamHeaders = %v", h)
	}
	// Deterministic order.
	if again := rpc(t, f.s, "tools/list", `{}`); string(again.Result) != string(r.Result) {
		t.Errorf("tools/list not deterministic")
	}
}

func TestToolsCallStructured(t *testing.T) {
	f := newFixture(t)
	r := rpc(t, f.s, "tools/call", `{"name":"weather_current","arguments":{"location":"Paris"}}`)
	text, isErr := callText(t, r)
	if isErr {
		t.Fatalf("isError: %s", r.Result)
	}
	sc := r.field(t, "structuredContent").(map[string]any)
	if sc["location"] != "Paris" || sc["units"] != "metric" || sc["temperature"] != 21.5 {
		t.Errorf("structuredContent %v (default units applied?)", sc)
	}
	var fromText map[string]any
	if err := json.Unmarshal([]byte(text), &fromText); err != nil || fromText["location"] != "Paris" {
		t.Errorf("text rendering %q", text)
	}
}

func TestToolsCallValidation(t *testing.T) {
	f := newFixture(t)
	cases := []struct{ args, mention string }{
		{`{}`, "/location"},
		{`{"location":"Paris","units":"rankine"}`, "/units"},
		{`{"location":5}`, "/location"},
	}
	for _, c := range cases {
		r := rpc(t, f.s, "tools/call", `{"name":"weather_current","arguments":`+c.args+`}`)
		text, isErr := callText(t, r)
		if !isErr || !strings.Contains(text, c.mention) {
			t.Errorf("%s: want isError naming %s, got %v %q", c.args, c.mention, isErr, text)
		}
		if rt := r.field(t, "resultType"); rt != "complete" {
			t.Errorf("resultType %v", rt)
		}
	}
	// A missing arguments member is {} (no-arg tools work without it).
	text, isErr := callText(t, rpc(t, f.s, "tools/call", `{"name":"progress"}`))
	if isErr || text != "done" {
		t.Errorf("no arguments: %q %v", text, isErr)
	}
}

func TestToolsCallErrors(t *testing.T) {
	f := newFixture(t)
	r := rpc(t, f.s, "tools/call", `{"name":"nope"}`)
	wantError(t, r, jsonrpc.CodeInvalidParams)
	if !strings.Contains(r.Error.Message, "nope") {
		t.Errorf("message %q", r.Error.Message)
	}
	text, isErr := callText(t, rpc(t, f.s, "tools/call", `{"name":"fail"}`))
	if !isErr || text != "this tool intentionally fails" {
		t.Errorf("fn error: %q %v", text, isErr)
	}
	r = rpc(t, f.s, "tools/call", `{"name":"content"}`)
	wantResult(t, r)
	if c := r.field(t, "content").([]any); len(c) != 2 || c[1].(map[string]any)["type"] != "image" {
		t.Errorf("content blocks %s", r.Result)
	}
}

func TestNewRejectsBadTools(t *testing.T) {
	ok := func(ctx context.Context, in noArgs) (string, error) { return "", nil }
	cases := map[string][]Tool{
		"duplicate":  {NewTool(ToolInfo{Name: "a"}, ok), NewTool(ToolInfo{Name: "a"}, ok)},
		"bad name":   {NewTool(ToolInfo{Name: "has space"}, ok)},
		"empty name": {NewTool(ToolInfo{Name: ""}, ok)},
		"long name":  {NewTool(ToolInfo{Name: strings.Repeat("x", 129)}, ok)},
		"zero tool":  {{}},
		"bad schema": {NewTool(ToolInfo{Name: "s", InputSchema: json.RawMessage(`{"type":"string"}`)}, ok)},
		"bad header": {NewTool(ToolInfo{Name: "h", InputSchema: json.RawMessage(`{"type":"object","properties":{"n":{"type":"number","x-mcp-header":"N"}}}`)}, ok)},
		"not struct": {NewTool(ToolInfo{Name: "i"}, func(ctx context.Context, in int) (string, error) { return "", nil })},
	}
	for name, tools := range cases {
		if _, err := New(Options{Name: "x", Tools: tools}); err == nil {
			t.Errorf("%s: New accepted it", name)
		}
	}
	if err := ValidToolName("admin.tools-list_v2"); err != nil {
		t.Errorf("valid name rejected: %v", err)
	}
	if _, err := New(Options{}); err == nil {
		t.Errorf("New without Name accepted")
	}
	if _, err := New(Options{Name: "x", StateKey: []byte("short")}); err == nil {
		t.Errorf("short StateKey accepted")
	}
}

func TestAddRemoveTools(t *testing.T) {
	f := newFixture(t)
	extra := NewTool(ToolInfo{Name: "extra", Description: "added later"}, func(ctx context.Context, in noArgs) (string, error) { return "extra!", nil })
	if err := f.s.AddTools(extra); err != nil {
		t.Fatal(err)
	}
	if text, _ := callText(t, rpc(t, f.s, "tools/call", `{"name":"extra"}`)); text != "extra!" {
		t.Errorf("added tool: %q", text)
	}
	if !strings.Contains(string(rpc(t, f.s, "tools/list", `{}`).Result), `"extra"`) {
		t.Errorf("tools/list misses the added tool")
	}
	if err := f.s.AddTools(NewTool(ToolInfo{Name: "bad name"}, func(ctx context.Context, in noArgs) (string, error) { return "", nil })); err == nil {
		t.Errorf("AddTools accepted an invalid tool")
	}
	f.s.RemoveTools("extra")
	wantError(t, rpc(t, f.s, "tools/call", `{"name":"extra"}`), jsonrpc.CodeInvalidParams)
}

func TestToolsPagination(t *testing.T) {
	f := newFixture(t, func(o *Options) { o.PageSize = 4 })
	var names []string
	cursor := ""
	for pages := 0; ; pages++ {
		params := `{}`
		if cursor != "" {
			params = `{"cursor":"` + cursor + `"}`
		}
		r := rpc(t, f.s, "tools/list", params)
		wantResult(t, r)
		for _, tool := range r.field(t, "tools").([]any) {
			names = append(names, tool.(map[string]any)["name"].(string))
		}
		if r.field(t, "ttlMs") == nil {
			t.Errorf("page without ttlMs")
		}
		next, _ := r.field(t, "nextCursor").(string)
		if next == "" {
			break
		}
		if pages > 10 {
			t.Fatal("no end")
		}
		cursor = next
	}
	if len(names) != len(fixtureTools(newGate())) {
		t.Errorf("pages gave %d tools: %v", len(names), names)
	}
	wantError(t, rpc(t, f.s, "tools/list", `{"cursor":"not-a-cursor"}`), jsonrpc.CodeInvalidParams)
}

func TestPaginate(t *testing.T) {
	items := []int{1, 2, 3, 4, 5}
	page, next, err := Paginate(items, "", 2)
	if err != nil || len(page) != 2 || next == "" {
		t.Fatalf("first page %v %q %v", page, next, err)
	}
	page, next, _ = Paginate(items, next, 2)
	page2, next2, _ := Paginate(items, next, 2)
	if page[0] != 3 || len(page2) != 1 || page2[0] != 5 || next2 != "" {
		t.Errorf("pages %v %v %q", page, page2, next2)
	}
	if _, _, err := Paginate(items, "garbage", 2); err == nil {
		t.Errorf("invalid cursor accepted")
	}
	all, next, _ := Paginate(items, "", 0)
	if len(all) != 5 || next != "" {
		t.Errorf("pageSize 0: %v %q", all, next)
	}
}

type stringerOut struct {
	N int `json:"n"`
}

func (s stringerOut) String() string { return "n is " + itoa(s.N) }

func TestToolsStructuredStringer(t *testing.T) {
	s, err := New(Options{Name: "x", Tools: []Tool{NewTool(ToolInfo{Name: "s"}, func(ctx context.Context, in noArgs) (stringerOut, error) {
		return stringerOut{N: 3}, nil
	})}})
	if err != nil {
		t.Fatal(err)
	}
	r := rpc(t, s, "tools/call", `{"name":"s"}`)
	if text, _ := callText(t, r); text != "n is 3" || r.field(t, "structuredContent", "n") != 3.0 {
		t.Errorf("stringer output %s", r.Result)
	}
}

// server/tools.mdx (Output Schema): "If an output schema is provided:
// Servers MUST provide structured results that conform to this schema."
// README: a result that breaks the outputSchema is -32603 naming the tool,
// never a silently wrong result. A successful result of a tool that
// declares an outputSchema but carries no structuredContent at all (a
// string, a *mcp.CallToolResult without it, a nil *struct) is such a
// result; an isError result needs none.
func TestOutputSchemaToolWithoutStructuredContent(t *testing.T) {
	schema := json.RawMessage(`{"type":"object","properties":{"a":{"type":"string"}},"required":["a"]}`)
	type report struct {
		A string `json:"a"`
	}
	tools := map[string]Tool{
		"callresult": NewTool(ToolInfo{Name: "callresult", OutputSchema: schema}, func(ctx context.Context, in noArgs) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.ContentBlock{&mcp.TextContent{Text: "no structured content"}}}, nil
		}),
		"text": NewTool(ToolInfo{Name: "text", OutputSchema: schema}, func(ctx context.Context, in noArgs) (string, error) {
			return "no structured content", nil
		}),
		"nilstruct": NewTool(ToolInfo{Name: "nilstruct"}, func(ctx context.Context, in noArgs) (*report, error) {
			return nil, nil
		}),
	}
	quiet := slog.New(slog.DiscardHandler)
	for name, tool := range tools {
		t.Run(name, func(t *testing.T) {
			s, err := New(Options{Name: "x", Version: "1", Tools: []Tool{tool}, Logger: quiet})
			if err != nil {
				t.Fatal(err)
			}
			r := rpc(t, s, "tools/call", `{"name":"`+name+`","arguments":{}}`)
			if r.Error == nil {
				var res struct {
					StructuredContent json.RawMessage `json:"structuredContent"`
					IsError           bool            `json:"isError"`
				}
				if err := json.Unmarshal(r.Result, &res); err != nil {
					t.Fatal(err)
				}
				if !res.IsError && res.StructuredContent == nil {
					t.Fatalf("tool with an outputSchema answered a success without structuredContent: %s", r.Result)
				}
			}
			wantError(t, r, jsonrpc.CodeInternalError)
			if !strings.Contains(r.Error.Message, name) || !strings.Contains(r.Error.Message, "no structuredContent") {
				t.Errorf("message %q does not name the tool and the fault", r.Error.Message)
			}
		})
	}

	// An error result needs no structuredContent, returned as an error or
	// as a *mcp.CallToolResult with isError.
	yes := true
	for name, tool := range map[string]Tool{
		"fails": NewTool(ToolInfo{Name: "fails", OutputSchema: schema}, func(ctx context.Context, in noArgs) (string, error) {
			return "", errors.New("no data")
		}),
		"iserror": NewTool(ToolInfo{Name: "iserror", OutputSchema: schema}, func(ctx context.Context, in noArgs) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.ContentBlock{&mcp.TextContent{Text: "no data"}}, IsError: &yes}, nil
		}),
	} {
		s, err := New(Options{Name: "x", Version: "1", Tools: []Tool{tool}})
		if err != nil {
			t.Fatal(err)
		}
		if text, isErr := callText(t, rpc(t, s, "tools/call", `{"name":"`+name+`","arguments":{}}`)); !isErr || text != "no data" {
			t.Errorf("%s: %q isError=%v, want the error result", name, text, isErr)
		}
	}
}
