package main

import (
	"bytes"
	"context"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/generated/mcp"
)

// fixtureTools are the tools conformance/FIXTURES.md §3.1, §6 and §7 list.
var fixtureTools = []string{
	"test_simple_text", "test_image_content", "test_audio_content", "test_embedded_resource",
	"test_multiple_content_types", "test_error_handling", "test_tool_with_progress",
	"json_schema_2020_12_tool", "test_x_mcp_header", "test_missing_capability",
	"test_streaming_elicitation", "test_logging_tool", "test_trigger_tool_change",
	"test_trigger_prompt_change",
	"test_input_required_result_elicitation", "test_input_required_result_sampling",
	"test_input_required_result_list_roots", "test_input_required_result_request_state",
	"test_input_required_result_multiple_inputs", "test_input_required_result_multi_round",
	"test_input_required_result_tampered_state", "test_input_required_result_capabilities",
	"test_tool_with_logging", "test_sampling", "test_elicitation",
	"test_elicitation_sep1034_defaults", "test_elicitation_sep1330_enums",
	// §6, the tasks extension (tasks.go).
	"greet", "slow_compute", "failing_job", "protocol_error_job", "confirm_delete", "multi_input",
	"test_tool_with_task",
}

var toolNameRE = regexp.MustCompile(`^[A-Za-z0-9_.-]{1,128}$`)

func TestToolsList(t *testing.T) {
	srv := testServer(t)
	resp, _ := rawCall(t, srv, "tools/list", nil, nil)
	res := mustResult(t, "tools/list", resp)
	if res["resultType"] != "complete" || res["ttlMs"] != 0.0 || res["cacheScope"] != "public" {
		t.Errorf("tools/list: resultType %v, ttlMs %v, cacheScope %v; want complete, 0, public", res["resultType"], res["ttlMs"], res["cacheScope"])
	}
	tools, _ := res["tools"].([]any)
	var names []string
	byName := map[string]map[string]any{}
	for _, x := range tools {
		tool := x.(map[string]any)
		name, _ := tool["name"].(string)
		names = append(names, name)
		byName[name] = tool
		if !toolNameRE.MatchString(name) {
			t.Errorf("tool name %q breaks the naming rule", name)
		}
		if d, _ := tool["description"].(string); d == "" {
			t.Errorf("tool %s has no description", name)
		}
		schema, _ := tool["inputSchema"].(map[string]any)
		if schema["type"] != "object" {
			t.Errorf("tool %s: inputSchema.type = %v, want object", name, schema["type"])
		}
	}
	for _, want := range fixtureTools {
		if byName[want] == nil {
			t.Errorf("tools/list lacks %s", want)
		}
	}
	if len(names) != len(fixtureTools) {
		t.Errorf("tools/list has %d tools, want %d: %v", len(names), len(fixtureTools), names)
	}

	// The order is stable across calls (tools-list-deterministic-order).
	again, _ := rawCall(t, srv, "tools/list", nil, nil)
	var names2 []string
	for _, x := range mustResult(t, "tools/list", again)["tools"].([]any) {
		names2 = append(names2, x.(map[string]any)["name"].(string))
	}
	if !slices.Equal(names, names2) {
		t.Errorf("tools/list order changed:\n%v\n%v", names, names2)
	}

	// json_schema_2020_12_tool keeps its schema as written (json-schema-2020-12).
	if tool := byName["json_schema_2020_12_tool"]; tool != nil {
		equalJSON(t, "json_schema_2020_12_tool inputSchema", tool["inputSchema"], contactSchema)
	}
	// test_x_mcp_header marks region for the Mcp-Param-Region header.
	if tool := byName["test_x_mcp_header"]; tool != nil {
		schema := tool["inputSchema"].(map[string]any)
		equalJSON(t, "test_x_mcp_header properties", schema["properties"], `{
			"region":{"type":"string","description":"mirrored into Mcp-Param-Region","x-mcp-header":"Region"},
			"level":{"type":"integer","description":"non-mirrored argument"}}`)
		if _, ok := schema["required"]; ok {
			t.Errorf("test_x_mcp_header: required = %v, want none", schema["required"])
		}
	}
	// Argument-free fixtures have an object schema without properties.
	if tool := byName["test_simple_text"]; tool != nil {
		schema := tool["inputSchema"].(map[string]any)
		if props, _ := schema["properties"].(map[string]any); len(props) != 0 {
			t.Errorf("test_simple_text: properties %v, want none", props)
		}
	}
}

// TestContentTools checks the exact content of the content fixtures, called
// without an "arguments" key as the suite does.
func TestContentTools(t *testing.T) {
	srv := testServer(t)
	png := `{"type":"image","data":"` + pngBase64 + `","mimeType":"image/png"}`
	cases := []struct{ tool, content string }{
		{"test_simple_text", `[{"type":"text","text":"This is a simple text response for testing."}]`},
		{"test_image_content", `[` + png + `]`},
		{"test_audio_content", `[{"type":"audio","data":"` + wavBase64 + `","mimeType":"audio/wav"}]`},
		{"test_embedded_resource", `[{"type":"resource","resource":{"uri":"test://embedded-resource","mimeType":"text/plain","text":"This is an embedded resource content."}}]`},
		{"test_multiple_content_types", `[{"type":"text","text":"Multiple content types test:"},` + png +
			`,{"type":"resource","resource":{"uri":"test://mixed-content-resource","mimeType":"application/json","text":"{\"test\":\"data\",\"value\":123}"}}]`},
		{"test_streaming_elicitation", `[{"type":"text","text":"No elicitation was needed: the server answers without sending requests on the response stream."}]`},
		{"test_x_mcp_header", `[{"type":"text","text":"region="}]`},
	}
	for _, c := range cases {
		t.Run(c.tool, func(t *testing.T) {
			for _, args := range []map[string]any{nil, {}} {
				res := mustResult(t, c.tool, callTool(t, srv, c.tool, args))
				if res["resultType"] != "complete" {
					t.Errorf("resultType = %v, want complete", res["resultType"])
				}
				if res["isError"] == true {
					t.Errorf("isError set: %v", res["content"])
				}
				equalJSON(t, c.tool+" content", res["content"], c.content)
			}
		})
	}
}

func TestErrorHandling(t *testing.T) {
	srv := testServer(t)
	res := mustResult(t, "test_error_handling", callTool(t, srv, "test_error_handling", map[string]any{}))
	if res["isError"] != true || res["resultType"] != "complete" {
		t.Errorf("isError %v, resultType %v; want true, complete", res["isError"], res["resultType"])
	}
	equalJSON(t, "content", res["content"], `[{"type":"text","text":"This tool intentionally returns an error for testing"}]`)
}

func TestToolWithProgress(t *testing.T) {
	srv := testServer(t)
	resp, notes := rawCall(t, srv, "tools/call", map[string]any{"name": "test_tool_with_progress", "arguments": map[string]any{}},
		map[string]any{"progressToken": "progress-test-1"})
	mustResult(t, "test_tool_with_progress", resp)
	var got []string
	for _, n := range notes {
		if n.Method != "notifications/progress" {
			continue
		}
		got = append(got, jsonText(t, map[string]any{"token": n.Params["progressToken"], "progress": n.Params["progress"], "total": n.Params["total"]}))
	}
	want := []string{
		`{"progress":0,"token":"progress-test-1","total":100}`,
		`{"progress":50,"token":"progress-test-1","total":100}`,
		`{"progress":100,"token":"progress-test-1","total":100}`,
	}
	if !slices.Equal(got, want) {
		t.Errorf("progress notifications:\n got %v\nwant %v", got, want)
	}

	// Without a progress token there is nothing to report.
	_, notes = rawCall(t, srv, "tools/call", map[string]any{"name": "test_tool_with_progress"}, nil)
	if len(notes) != 0 {
		t.Errorf("without progressToken: notifications %v, want none", notes)
	}
}

func TestLoggingTool(t *testing.T) {
	srv := testServer(t)
	// No logLevel in _meta: no log notification at all (server-no-log-without-loglevel).
	resp, notes := rawCall(t, srv, "tools/call", map[string]any{"name": "test_logging_tool", "arguments": map[string]any{}},
		map[string]any{"io.modelcontextprotocol/clientCapabilities": map[string]any{}})
	mustResult(t, "test_logging_tool", resp)
	if len(notes) != 0 {
		t.Errorf("without logLevel: notifications %v, want none", notes)
	}
	// logLevel debug: the info message is sent.
	_, notes = rawCall(t, srv, "tools/call", map[string]any{"name": "test_logging_tool"},
		map[string]any{"io.modelcontextprotocol/logLevel": "debug"})
	if len(notes) != 1 || notes[0].Method != "notifications/message" || notes[0].Params["level"] != "info" ||
		notes[0].Params["data"] != "test_logging_tool executed" {
		t.Errorf("with logLevel debug: notifications %v, want one info message", notes)
	}
	// logLevel error: info is below it.
	_, notes = rawCall(t, srv, "tools/call", map[string]any{"name": "test_logging_tool"},
		map[string]any{"io.modelcontextprotocol/logLevel": "error"})
	if len(notes) != 0 {
		t.Errorf("with logLevel error: notifications %v, want none", notes)
	}
}

func TestToolWithLogging(t *testing.T) {
	srv := testServer(t)
	_, notes := rawCall(t, srv, "tools/call", map[string]any{"name": "test_tool_with_logging"},
		map[string]any{"io.modelcontextprotocol/logLevel": "debug"})
	var got []any
	for _, n := range notes {
		if n.Method == "notifications/message" {
			got = append(got, n.Params["data"])
		}
	}
	equalJSON(t, "log messages", got, `["Tool execution started","Tool processing data","Tool execution completed"]`)
}

func TestMissingCapability(t *testing.T) {
	srv := testServer(t)
	resp, _ := rawCall(t, srv, "tools/call", map[string]any{"name": "test_missing_capability", "arguments": map[string]any{}},
		map[string]any{"io.modelcontextprotocol/clientCapabilities": map[string]any{}})
	if resp.Error == nil || resp.Error.Code != mcp.CodeMissingRequiredClientCapability {
		t.Fatalf("without sampling: %+v, want error -32021", resp)
	}
	equalJSON(t, "error data", resp.Error.Data, `{"requiredCapabilities":{"sampling":{}}}`)

	res := mustResult(t, "with sampling", callTool(t, srv, "test_missing_capability", map[string]any{}))
	equalJSON(t, "content", res["content"], `[{"type":"text","text":"The client declared the sampling capability."}]`)
}

func TestJSONSchemaTool(t *testing.T) {
	srv := testServer(t)
	// {} breaks the anyOf (phone or email): an isError result, not a JSON-RPC error.
	res := mustResult(t, "{}", callTool(t, srv, "json_schema_2020_12_tool", map[string]any{}))
	if res["isError"] != true {
		t.Errorf("{}: isError = %v, want true (content %v)", res["isError"], res["content"])
	}
	// additionalProperties:false and if/then/else are enforced.
	for _, bad := range []map[string]any{
		{"email": "a@b.c", "extra": 1},
		{"contactMethod": "phone", "email": "a@b.c"},
	} {
		res := mustResult(t, jsonText(t, bad), callTool(t, srv, "json_schema_2020_12_tool", bad))
		if res["isError"] != true {
			t.Errorf("%v: isError = %v, want true", bad, res["isError"])
		}
	}
	args := map[string]any{"name": "Ada", "contactMethod": "phone", "phone": "555-0100", "address": map[string]any{"city": "London"}}
	res = mustResult(t, "valid", callTool(t, srv, "json_schema_2020_12_tool", args))
	content := jsonText(t, res["content"])
	if res["isError"] == true || !strings.Contains(content, "JSON Schema 2020-12 tool called with:") || !strings.Contains(content, "London") {
		t.Errorf("valid arguments: %v", res)
	}
}

func TestXMCPHeaderTool(t *testing.T) {
	srv := testServer(t)
	res := mustResult(t, "test_x_mcp_header", callTool(t, srv, "test_x_mcp_header", map[string]any{"region": "Hello", "level": 3}))
	equalJSON(t, "content", res["content"], `[{"type":"text","text":"region=Hello"}]`)
}

func TestTypedClient(t *testing.T) {
	srv := testServer(t)
	cl := testClient(srv, allCaps)
	ctx := context.Background()
	out, err := cl.CallTool(ctx, &mcp.CallToolRequestParams{Name: "test_audio_content"})
	if err != nil {
		t.Fatal(err)
	}
	res, ok := out.(*mcp.CallToolResult)
	if !ok || len(res.Content) != 1 {
		t.Fatalf("CallTool: %#v", out)
	}
	audio, ok := res.Content[0].(*mcp.AudioContent)
	if !ok || audio.MIMEType != "audio/wav" || !bytes.Equal(audio.Data, wavBytes) {
		t.Errorf("content[0] = %#v, want the WAV clip", res.Content[0])
	}
	if _, err := cl.CallTool(ctx, &mcp.CallToolRequestParams{Name: "no_such_tool"}); err == nil {
		t.Error("unknown tool: no error")
	}
}
