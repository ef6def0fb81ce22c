package server

import (
	"context"
	"encoding/json"
	"errors"
	"sync"
	"testing"

	"github.com/mcpgen/mcpgen/generated/mcp"
	"github.com/mcpgen/mcpgen/jsonrpc"
)

func TestCallerWithClient(t *testing.T) {
	f := newFixture(t)
	var mu sync.Mutex
	var notes []string
	c := mcp.NewClient(f.s.Caller(CallerOptions{
		ClientInfo:         mcp.Implementation{Name: "go-host", Version: "1"},
		ClientCapabilities: mcp.ClientCapabilities{Elicitation: &mcp.ClientCapabilitiesElicitation{}},
		LogLevel:           mcp.LoggingLevelInfo,
		Notify: func(method string, params json.RawMessage) {
			mu.Lock()
			notes = append(notes, method)
			mu.Unlock()
		},
	}))
	ctx := context.Background()
	disc, err := c.Discover(ctx, &mcp.RequestParams{})
	if err != nil || disc.SupportedVersions[0] != "2026-07-28" || disc.Meta.ServerInfo.Name != "fixture" {
		t.Fatalf("Discover: %+v %v", disc, err)
	}
	list, err := c.ListTools(ctx, &mcp.PaginatedRequestParams{})
	if err != nil || len(list.Tools) == 0 || list.CacheScope != "public" {
		t.Fatalf("ListTools: %+v %v", list, err)
	}
	out, err := c.CallTool(ctx, &mcp.CallToolRequestParams{Name: "weather_current", Arguments: json.RawMessage(`{"location":"Oslo","units":"imperial"}`)})
	if err != nil {
		t.Fatal(err)
	}
	res := out.(*mcp.CallToolResult)
	if res.StructuredContent.(map[string]any)["temperature"] != 70.7 {
		t.Errorf("CallTool %+v", res.StructuredContent)
	}
	// Options fill _meta: logLevel makes the logs flow, elicitation allows Ask.
	if _, err := c.CallTool(ctx, &mcp.CallToolRequestParams{Name: "logs"}); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	if len(notes) != 2 {
		t.Errorf("notifications %v", notes)
	}
	mu.Unlock()
	out, err = c.CallTool(ctx, &mcp.CallToolRequestParams{Name: "ask_name"})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := out.(*mcp.InputRequiredResult); !ok {
		t.Errorf("ask_name gave %T", out)
	}
	// A params _meta progressToken wins and the JSON-RPC error comes back typed.
	_, err = c.CallTool(ctx, &mcp.CallToolRequestParams{Name: "needs_sampling"})
	var re *jsonrpc.Error
	if !errors.As(err, &re) || re.Code != -32021 {
		t.Errorf("error %v", err)
	}
	_, err = c.CallTool(ctx, &mcp.CallToolRequestParams{Name: "nope"})
	if !errors.As(err, &re) || re.Code != jsonrpc.CodeInvalidParams {
		t.Errorf("unknown tool error %v", err)
	}
	p := &mcp.CallToolRequestParams{Name: "progress"}
	p.Meta.ProgressToken = mcp.ProgressToken{Value: "tok"}
	mu.Lock()
	notes = nil
	mu.Unlock()
	if _, err := c.CallTool(ctx, p); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	if len(notes) != 3 || notes[0] != "notifications/progress" {
		t.Errorf("progress via Caller %v", notes)
	}
	mu.Unlock()
}

func TestConcurrentHandle(t *testing.T) {
	f := newFixture(t)
	var wg sync.WaitGroup
	for i := 0; i < 50; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			if i%5 == 0 {
				f.s.AddTools(NewTool(ToolInfo{Name: "t" + itoa(i)}, func(ctx context.Context, in noArgs) (string, error) { return "", nil }))
			}
			text, _ := callText(t, rpc(t, f.s, "tools/call", `{"name":"echo","arguments":{"text":"`+itoa(i)+`"}}`))
			if text != itoa(i) {
				t.Errorf("got %q", text)
			}
			rpc(t, f.s, "tools/list", `{}`)
		}(i)
	}
	wg.Wait()
}
