package server

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/generated/mcp"
)

// samplingWithToolsTool asks for a tool-enabled sampling request.
func samplingWithToolsTool() Tool {
	return NewTool(ToolInfo{Name: "sample_tools", Description: "Tool-enabled sampling"}, func(ctx context.Context, in noArgs) (string, error) {
		_, err := Ask(ctx, "s", &mcp.CreateMessageRequest{Params: mcp.CreateMessageRequestParams{
			MaxTokens: 10,
			Messages:  []mcp.SamplingMessage{{Role: mcp.RoleUser, Content: &mcp.TextContent{Text: "weather?"}}},
			Tools:     []mcp.Tool{{Name: "get_weather", InputSchema: json.RawMessage(`{"type":"object"}`)}},
		}})
		if err != nil {
			return "", err
		}
		return "sampled", nil
	})
}

// client/sampling.mdx: "Servers MUST NOT send tool-enabled sampling requests
// to Clients that have not declared support for tool use via the
// sampling.tools capability." basic/patterns/mrtr.mdx: "Servers MUST NOT
// send an inputRequests that the client has not declared support for in its
// capabilities." basic/index.mdx: a capability the client did not declare
// is -32021 with data.requiredCapabilities. A client that declares
// {"sampling":{}} (no tools) must not receive a sampling/createMessage
// input request carrying tools.
func TestAttackToolSamplingNeedsSamplingToolsCapability(t *testing.T) {
	f := newFixture(t, func(o *Options) { o.Tools = append(o.Tools, samplingWithToolsTool()) })
	meta := `{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"sampling":{}}}`
	r, _ := rpcMeta(t, f.s, "tools/call", `{"name":"sample_tools","arguments":{}}`, meta, nil)
	if r.Error == nil {
		if strings.Contains(string(r.Result), `"tools"`) && strings.Contains(string(r.Result), "sampling/createMessage") {
			t.Fatalf("a client without sampling.tools got a tool-enabled sampling request: %s", r.Result)
		}
		t.Fatalf("want -32021, got result %s", r.Result)
	}
	if r.Error.Code != -32021 {
		t.Fatalf("want -32021, got %d %q", r.Error.Code, r.Error.Message)
	}
	var data struct {
		Required map[string]json.RawMessage `json:"requiredCapabilities"`
	}
	if err := json.Unmarshal(r.Error.Data, &data); err != nil || !strings.Contains(string(data.Required["sampling"]), `"tools"`) {
		t.Errorf("data = %s, want requiredCapabilities.sampling.tools", r.Error.Data)
	}
	// With sampling.tools declared the input request goes out.
	meta = `{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"sampling":{"tools":{}}}}`
	r, _ = rpcMeta(t, f.s, "tools/call", `{"name":"sample_tools","arguments":{}}`, meta, nil)
	wantResult(t, r)
	if r.field(t, "resultType") != "input_required" {
		t.Errorf("with sampling.tools: %s", r.Result)
	}
}

// basic/versioning.mdx: "Extension identifiers MUST follow the _meta key
// naming rules, with a mandatory prefix." basic/index.mdx (_meta): prefix
// labels "MUST start with a letter and end with a letter or digit; interior
// characters can be letters, digits, or hyphens"; the name "MUST begin and
// end with an alphanumeric character" and may contain only hyphens,
// underscores, dots and alphanumerics in between. The runtime refuses a bad
// registration in New (as it does for an ID without a prefix); an identifier
// that breaks these rules must not be accepted and then advertised in
// server/discover's capabilities.extensions.
func TestAttackExtensionIDFollowsMetaKeyRules(t *testing.T) {
	for _, id := range []string{
		"com.example/notes!", // '!' in the name
		"com.example/a/b",    // '/' in the name
		"com.example/-notes", // name starts with a hyphen
		"com..example/notes", // empty label
		"9com.example/notes", // label starts with a digit
		"com.example-/notes", // label ends with a hyphen
		"com.ex_ample/notes", // '_' in a label
	} {
		t.Run(id, func(t *testing.T) {
			s, err := New(Options{Name: "x", Version: "1", Tools: []Tool{weatherTool()},
				Extensions: []Extension{{ID: id}}})
			if err != nil {
				return // refused at registration: fine
			}
			disc := rpc(t, s, "server/discover", `{}`)
			wantResult(t, disc)
			var d struct {
				Capabilities struct {
					Extensions map[string]json.RawMessage `json:"extensions"`
				} `json:"capabilities"`
			}
			if err := json.Unmarshal(disc.Result, &d); err != nil {
				t.Fatal(err)
			}
			if _, ok := d.Capabilities.Extensions[id]; ok {
				t.Errorf("New accepted extension ID %q and discover advertises it: %s", id, disc.Result)
			}
		})
	}
}

// server/tools.mdx (Output Schema): "If an output schema is provided:
// Servers MUST provide structured results that conform to this schema."
// README: "Before a result is sent, its structuredContent is validated
// against the tool's outputSchema; a mismatch is a -32603 error naming the
// field ..., never a silently wrong result." A successful (isError absent)
// result of a tool that declares an outputSchema but carries no
// structuredContent at all does not conform; it must not be sent as a
// success. (Refusing such a tool when it is registered would do as well.)
func TestAttackOutputSchemaToolWithoutStructuredContent(t *testing.T) {
	schema := json.RawMessage(`{"type":"object","properties":{"a":{"type":"string"}},"required":["a"]}`)
	tools := map[string]Tool{
		"callresult": NewTool(ToolInfo{Name: "callresult", OutputSchema: schema}, func(ctx context.Context, in noArgs) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.ContentBlock{&mcp.TextContent{Text: "no structured content"}}}, nil
		}),
		"text": NewTool(ToolInfo{Name: "text", OutputSchema: schema}, func(ctx context.Context, in noArgs) (string, error) {
			return "no structured content", nil
		}),
	}
	for name, tool := range tools {
		t.Run(name, func(t *testing.T) {
			s, err := New(Options{Name: "x", Version: "1", Tools: []Tool{tool}})
			if err != nil {
				return // refused at registration
			}
			r := rpc(t, s, "tools/call", `{"name":"`+name+`","arguments":{}}`)
			if r.Error != nil {
				return
			}
			var res struct {
				StructuredContent json.RawMessage `json:"structuredContent"`
				IsError           bool            `json:"isError"`
			}
			if err := json.Unmarshal(r.Result, &res); err != nil {
				t.Fatal(err)
			}
			if !res.IsError && res.StructuredContent == nil {
				t.Errorf("tool with an outputSchema answered a success without structuredContent: %s", r.Result)
			}
		})
	}
}

// A legacy (initialize-era) client must get messages of its revision
// (README, Compatibility: results are converted, "content a revision lacks
// is converted"). In 2025-11-25 (and 2025-06-18) Tool.outputSchema is
// "restricted to type: \"object\" at the root level" (schema.json: its
// "type" is required and const "object"), and CallToolResult.
// structuredContent is an object; 2025-11-25 tools.mdx, like 2026-07-28
// tools.mdx: "If an output schema is provided: Servers MUST provide
// structured results that conform to this schema." The converter already
// drops a non-object structuredContent for every legacy revision
// (legacy_convert.go), but keeps the tool's non-object outputSchema in
// tools/list: the legacy client sees a tool definition that breaks its
// schema and then a result without the structured content that outputSchema
// promises.
func TestAttackLegacyNonObjectOutputSchema(t *testing.T) {
	arr := json.RawMessage(`{"type":"array","items":{"type":"string"}}`)
	f := newFixture(t, func(o *Options) {
		o.Tools = append(o.Tools, NewTool(ToolInfo{Name: "list_names", OutputSchema: arr},
			func(ctx context.Context, in noArgs) (*mcp.CallToolResult, error) {
				return &mcp.CallToolResult{Content: []mcp.ContentBlock{&mcp.TextContent{Text: `["a","b"]`}}, StructuredContent: []any{"a", "b"}}, nil
			}))
	})
	for _, v := range []string{"2025-11-25", "2025-06-18"} {
		t.Run(v, func(t *testing.T) {
			meta := `{"io.modelcontextprotocol/protocolVersion":"` + v + `","io.modelcontextprotocol/clientCapabilities":{}}`
			list, _ := rpcMeta(t, f.s, "tools/list", `{}`, meta, nil)
			wantResult(t, list)
			var l struct {
				Tools []struct {
					Name         string          `json:"name"`
					OutputSchema json.RawMessage `json:"outputSchema"`
				} `json:"tools"`
			}
			if err := json.Unmarshal(list.Result, &l); err != nil {
				t.Fatal(err)
			}
			listed := false
			for _, tl := range l.Tools {
				if tl.Name != "list_names" || tl.OutputSchema == nil {
					continue
				}
				listed = true
				var root struct {
					Type any `json:"type"`
				}
				_ = json.Unmarshal(tl.OutputSchema, &root)
				if root.Type != "object" {
					t.Errorf("%s tools/list: outputSchema %s has no root type \"object\", as %s requires", v, tl.OutputSchema, v)
				}
			}
			call, _ := rpcMeta(t, f.s, "tools/call", `{"name":"list_names","arguments":{}}`, meta, nil)
			wantResult(t, call)
			var c struct {
				StructuredContent json.RawMessage `json:"structuredContent"`
			}
			_ = json.Unmarshal(call.Result, &c)
			if listed && c.StructuredContent == nil {
				t.Errorf("%s: tools/list declares an outputSchema, tools/call answers without structuredContent: %s", v, call.Result)
			}
		})
	}
}

// basic/index.mdx (Notifications): "The receiver MUST NOT send a response."
// basic/patterns/cancellation.mdx: "Invalid cancellation notifications
// SHOULD be ignored: ... Malformed notifications". The runtime means to
// answer nothing for a notification that fails to decode (errorFor in
// era.go), and does so for one whose params repeat a member or are an
// array; but a notification whose params are a string, number or boolean
// is answered with a -32602 error response (without id).
func TestAttackMalformedNotificationGetsNoResponse(t *testing.T) {
	f := newFixture(t)
	for _, msg := range []string{
		`{"jsonrpc":"2.0","method":"notifications/cancelled","params":"x"}`,
		`{"jsonrpc":"2.0","method":"notifications/cancelled","params":42}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized","params":true}`,
	} {
		if resp := f.s.HandleBytes(context.Background(), []byte(msg), nil); resp.Body != nil {
			t.Errorf("HandleBytes answered the notification %s with %s", msg, resp.Body)
		}
	}
	// On stdio: the first line out must be the answer to the request that
	// follows the notification.
	p := startStdio(t, f.s, 0)
	p.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":"x"}`)
	p.request(`"after"`, "server/discover", `{}`)
	if m := p.next(); m["id"] != "after" {
		t.Errorf("stdio answered the notification: %v", m)
	}
}

// The same rule in an initialize-era session (2025-11-25 client/sampling.mdx
// has the same sentence: "Servers MUST NOT send tool-enabled sampling
// requests to Clients that have not declared support for tool use via the
// sampling.tools capability"): Ask becomes a real sampling/createMessage
// request, and it must not carry tools to a client whose initialize declared
// {"sampling":{}}.
func TestAttackLegacyToolSamplingNeedsSamplingTools(t *testing.T) {
	f := newFixture(t, func(o *Options) { o.Tools = append(o.Tools, samplingWithToolsTool()) })
	p := startLegacyStdio(t, f.s)
	p.initialize("2025-11-25", `{"sampling":{}}`)
	p.call("1", "tools/call", `{"name":"sample_tools"}`)
	line := p.nextRaw()
	if strings.Contains(line, `"sampling/createMessage"`) && strings.Contains(line, `"tools"`) {
		t.Errorf("a 2025-11-25 client without sampling.tools got a tool-enabled sampling request: %s", line)
	}
}
