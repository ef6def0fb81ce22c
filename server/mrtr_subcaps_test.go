package server

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/generated/mcp"
)

// Input requests need the sub-capability they use, not only the capability
// (client/sampling.mdx, client/elicitation.mdx, basic/patterns/mrtr.mdx:
// "Servers MUST NOT send an inputRequests that the client has not declared
// support for in its capabilities"); a missing one is -32021 naming it in
// data.requiredCapabilities (basic/index.mdx).

// askTool is a tool that Asks for req under key "k".
func askTool(name string, req mcp.InputRequest) Tool {
	return NewTool(ToolInfo{Name: name}, func(ctx context.Context, in noArgs) (string, error) {
		if _, err := Ask(ctx, "k", req); err != nil {
			return "", err
		}
		return "answered", nil
	})
}

// returnsInputRequired is a tool that builds its InputRequiredError itself,
// without Ask.
func returnsInputRequired(name string, req mcp.InputRequest) Tool {
	return NewTool(ToolInfo{Name: name}, func(ctx context.Context, in noArgs) (string, error) {
		return "", &InputRequiredError{Requests: map[string]mcp.InputRequest{"k": req}}
	})
}

// samplingWithToolsTool asks for a tool-enabled sampling request.
func samplingWithToolsTool() Tool {
	return askTool("sample_tools", samplingRequest(func(p *mcp.CreateMessageRequestParams) {
		p.Tools = []mcp.Tool{{Name: "get_weather", InputSchema: json.RawMessage(`{"type":"object"}`)}}
	}))
}

func samplingRequest(mod func(*mcp.CreateMessageRequestParams)) *mcp.CreateMessageRequest {
	req := &mcp.CreateMessageRequest{Params: mcp.CreateMessageRequestParams{
		MaxTokens: 10,
		Messages:  []mcp.SamplingMessage{{Role: mcp.RoleUser, Content: &mcp.TextContent{Text: "weather?"}}},
	}}
	mod(&req.Params)
	return req
}

func capsMeta(caps string) string {
	return `{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":` + caps + `}`
}

// wantMissingCapability checks a -32021 whose requiredCapabilities name
// capability and, within it, member (when not "").
func wantMissingCapability(t *testing.T, r reply, capability, member string) {
	t.Helper()
	if r.Error == nil {
		t.Fatalf("want -32021 (missing %s.%s), got result %s", capability, member, r.Result)
	}
	if r.Error.Code != -32021 {
		t.Fatalf("want -32021, got %d %q", r.Error.Code, r.Error.Message)
	}
	var data struct {
		Required map[string]map[string]json.RawMessage `json:"requiredCapabilities"`
	}
	if err := json.Unmarshal(r.Error.Data, &data); err != nil {
		t.Fatalf("data %s: %v", r.Error.Data, err)
	}
	got, ok := data.Required[capability]
	if _, has := got[member]; !ok || member != "" && !has {
		t.Errorf("data = %s, want requiredCapabilities.%s.%s", r.Error.Data, capability, member)
	}
}

// client/sampling.mdx: "Servers MUST NOT send tool-enabled sampling requests
// to Clients that have not declared support for tool use via the
// sampling.tools capability." A client that declares {"sampling":{}} (no
// tools) gets -32021, not a sampling/createMessage input request carrying
// tools.
func TestToolSamplingNeedsSamplingToolsCapability(t *testing.T) {
	f := newFixture(t, func(o *Options) { o.Tools = append(o.Tools, samplingWithToolsTool()) })
	r, _ := rpcMeta(t, f.s, "tools/call", `{"name":"sample_tools","arguments":{}}`, capsMeta(`{"sampling":{}}`), nil)
	if r.Error == nil && strings.Contains(string(r.Result), `"tools"`) && strings.Contains(string(r.Result), "sampling/createMessage") {
		t.Fatalf("a client without sampling.tools got a tool-enabled sampling request: %s", r.Result)
	}
	wantMissingCapability(t, r, "sampling", "tools")
	// With sampling.tools declared the input request goes out.
	r, _ = rpcMeta(t, f.s, "tools/call", `{"name":"sample_tools","arguments":{}}`, capsMeta(`{"sampling":{"tools":{}}}`), nil)
	wantResult(t, r)
	if r.field(t, "resultType") != "input_required" {
		t.Errorf("with sampling.tools: %s", r.Result)
	}
}

// The other sub-capabilities: toolChoice alone is tool use too (schema:
// "The client MUST return an error if this field is provided but
// ClientCapabilities.sampling.tools is not declared"); the deprecated
// includeContext values need sampling.context (client/sampling.mdx);
// elicitation modes need their own member (client/elicitation.mdx: an
// empty elicitation object declares form mode only). The same holds for an
// InputRequiredError a handler builds itself.
func TestInputRequestsNeedTheirSubCapability(t *testing.T) {
	urlElicit := &mcp.ElicitRequest{Params: &mcp.ElicitRequestURLParams{Message: "Sign in", URL: "https://example.com/login"}}
	cases := []struct {
		name       string
		req        mcp.InputRequest
		without    string // capabilities that lack the sub-capability
		capability string
		member     string
		with       string // capabilities that have it
	}{
		{"toolChoice", samplingRequest(func(p *mcp.CreateMessageRequestParams) { p.ToolChoice = &mcp.ToolChoice{Mode: "auto"} }),
			`{"sampling":{}}`, "sampling", "tools", `{"sampling":{"tools":{}}}`},
		{"empty tools", samplingRequest(func(p *mcp.CreateMessageRequestParams) { p.Tools = []mcp.Tool{} }),
			`{"sampling":{"context":{}}}`, "sampling", "tools", `{"sampling":{"tools":{}}}`},
		{"includeContext", samplingRequest(func(p *mcp.CreateMessageRequestParams) { p.IncludeContext = "thisServer" }),
			`{"sampling":{"tools":{}}}`, "sampling", "context", `{"sampling":{"context":{}}}`},
		{"url elicitation", urlElicit, `{"elicitation":{"form":{}}}`, "elicitation", "url", `{"elicitation":{"url":{}}}`},
		{"url elicitation, empty object", urlElicit, `{"elicitation":{}}`, "elicitation", "url", `{"elicitation":{"form":{},"url":{}}}`},
		{"form elicitation", elicitName("Your name?"), `{"elicitation":{"url":{}}}`, "elicitation", "form", `{"elicitation":{}}`},
	}
	for _, tc := range cases {
		for _, build := range []struct {
			how  string
			tool func(string, mcp.InputRequest) Tool
		}{{"Ask", askTool}, {"InputRequiredError", returnsInputRequired}} {
			t.Run(tc.name+"/"+build.how, func(t *testing.T) {
				f := newFixture(t, func(o *Options) { o.Tools = append(o.Tools, build.tool("needs_input", tc.req)) })
				r, _ := rpcMeta(t, f.s, "tools/call", `{"name":"needs_input","arguments":{}}`, capsMeta(tc.without), nil)
				wantMissingCapability(t, r, tc.capability, tc.member)
				r, _ = rpcMeta(t, f.s, "tools/call", `{"name":"needs_input","arguments":{}}`, capsMeta(tc.with), nil)
				reqs, _ := inputRequests(t, r)
				if reqs["k"] == nil {
					t.Errorf("with %s: %s", tc.with, r.Result)
				}
			})
		}
	}
}

// The rule in an initialize-era session (2025-11-25 client/sampling.mdx has
// the same sentence): Ask becomes a real sampling/createMessage request,
// and it must not carry tools to a client whose initialize declared
// {"sampling":{}}; the call is answered -32021 instead.
func TestLegacyToolSamplingNeedsSamplingTools(t *testing.T) {
	f := newFixture(t, func(o *Options) { o.Tools = append(o.Tools, samplingWithToolsTool()) })
	p := startLegacyStdio(t, f.s)
	p.initialize("2025-11-25", `{"sampling":{}}`)
	p.call("1", "tools/call", `{"name":"sample_tools"}`)
	line := p.nextRaw()
	if strings.Contains(line, `"sampling/createMessage"`) && strings.Contains(line, `"tools"`) {
		t.Fatalf("a 2025-11-25 client without sampling.tools got a tool-enabled sampling request: %s", line)
	}
	if !strings.Contains(line, `"code":-32021`) || !strings.Contains(line, `"tools"`) {
		t.Errorf("want -32021 naming sampling.tools, got %s", line)
	}

	// Declared: the request goes to the client with its tools.
	p = startLegacyStdio(t, f.s)
	p.initialize("2025-11-25", `{"sampling":{"tools":{}}}`)
	p.call("1", "tools/call", `{"name":"sample_tools"}`)
	req := p.serverRequest()
	if req["method"] != "sampling/createMessage" || req["params"].(map[string]any)["tools"] == nil {
		t.Errorf("with sampling.tools: %v", req)
	}
}
