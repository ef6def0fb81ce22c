package main

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/generated/mcp"
	"github.com/mcpgen/mcpgen/server"
)

// TestTypedClient drives the example as a Go host does: the generated typed
// client over the runtime's in-memory caller.
func TestTypedClient(t *testing.T) {
	app := newTestApp(t)
	client := mcp.NewClient(app.Server.Caller(server.CallerOptions{
		ClientInfo: mcp.Implementation{Name: "typed-client-test", Version: "1.0.0"},
	}))
	ctx := t.Context()

	disc, err := client.Discover(ctx, &mcp.RequestParams{})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(disc.SupportedVersions, protocolVersion) || disc.Capabilities.Tools == nil ||
		disc.Capabilities.Tools.ListChanged == nil || !*disc.Capabilities.Tools.ListChanged {
		t.Errorf("discover: versions %v, tools capability %+v", disc.SupportedVersions, disc.Capabilities.Tools)
	}

	list, err := client.ListTools(ctx, &mcp.PaginatedRequestParams{})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range list.Tools {
		names = append(names, tool.Name)
	}
	slices.Sort(names)
	if !slices.Equal(names, []string{"calculator_arithmetic", "weather_current"}) || list.CacheScope == "" {
		t.Errorf("tools/list: %v, cacheScope %q", names, list.CacheScope)
	}

	out, err := client.CallTool(ctx, &mcp.CallToolRequestParams{
		Name:      "weather_current",
		Arguments: json.RawMessage(`{"location":"San Francisco","units":"imperial"}`),
	})
	if err != nil {
		t.Fatal(err)
	}
	res, ok := out.(*mcp.CallToolResult)
	if !ok {
		t.Fatalf("tools/call returned %T", out)
	}
	if res.IsError != nil && *res.IsError {
		t.Fatalf("weather_current failed: %+v", res.Content)
	}
	text, _ := res.Content[0].(*mcp.TextContent)
	if text == nil || !strings.Contains(text.Text, "San Francisco") {
		t.Errorf("content %+v", res.Content)
	}
	sc, _ := json.Marshal(res.StructuredContent)
	var report Report
	if err := json.Unmarshal(sc, &report); err != nil || report.Units != "imperial" || report.Location != "San Francisco" {
		t.Errorf("structuredContent %s (%v)", sc, err)
	}

	if _, err := client.CallTool(ctx, &mcp.CallToolRequestParams{Name: "nope", Arguments: json.RawMessage(`{}`)}); err == nil {
		t.Error("calling an unknown tool succeeded")
	}
}
