package server

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/generated/mcp"
)

// The legacy conversion of server.Ask's requests reads what the handler
// asked for by exact member name, as the generated decoders and every
// check of the runtime do. Members a revision's schema does not declare
// are kept in Extra and sent (a block decoded from a client's input keeps
// them so), so "Type" beside "type" is another member: encoding/json's
// case-insensitive struct matching read the last of them as the block's
// type, the enum option's const or the request's method.

// TestLegacySamplingReadsBlockTypeByExactName: a tool_use block that also
// carries a member "Type": "text" is still tool use, refused before
// 2025-11-25 with nothing sent; a text block with a member "TYPE":
// "tool_use" is text, sent.
func TestLegacySamplingReadsBlockTypeByExactName(t *testing.T) {
	toolUse := NewTool(ToolInfo{Name: "ask_tool_use", Description: "tool_use with a member Type"}, askErrorText("s",
		&mcp.CreateMessageRequest{Params: mcp.CreateMessageRequestParams{MaxTokens: 5, Messages: []mcp.SamplingMessage{
			{Role: mcp.RoleAssistant, Content: &mcp.ToolUseContent{ID: "1", Name: "get_weather", Input: map[string]any{},
				Extra: map[string]json.RawMessage{"Type": json.RawMessage(`"text"`)}}},
		}}}))
	text := NewTool(ToolInfo{Name: "ask_text", Description: "text with a member TYPE"}, askErrorText("s",
		&mcp.CreateMessageRequest{Params: mcp.CreateMessageRequestParams{MaxTokens: 5, Messages: []mcp.SamplingMessage{
			{Role: mcp.RoleUser, Content: mcp.SamplingMessageContentBlocks{&mcp.TextContent{Text: "hi",
				Extra: map[string]json.RawMessage{"TYPE": json.RawMessage(`"tool_use"`)}}}},
		}}}))
	f := newFixture(t, func(o *Options) { o.Tools = []Tool{toolUse, text} })
	p := lcPeer(t, f.s, "2025-03-26", `{"sampling":{}}`)
	p.call("1", "tools/call", `{"name":"ask_tool_use"}`)
	line := p.nextRaw()
	var m map[string]any
	if err := json.Unmarshal([]byte(line), &m); err != nil {
		t.Fatalf("not JSON: %s", line)
	}
	if m["method"] != nil {
		p.send(`{"jsonrpc":"2.0","id":` + idOf(m) + `,"result":{"role":"assistant","content":{"type":"text","text":"x"},"model":"m"}}`)
		p.response("1")
		t.Fatalf("a tool_use block (with a member \"Type\") was sent to a 2025-03-26 client: %s", line)
	}
	got, _ := json.Marshal(resultOf(t, m)["content"])
	if !strings.Contains(string(got), "-32603") || !strings.Contains(string(got), "tool_use") {
		t.Errorf("the handler's Ask of a tool_use block did not fail naming tool_use: %s", line)
	}

	req, line := lcServerRequest(t, p, "ask_text", `{"role":"assistant","content":{"type":"text","text":"x"},"model":"m"}`)
	content, _ := json.Marshal(req["params"].(map[string]any)["messages"].([]any)[0].(map[string]any)["content"])
	if want := `{"TYPE":"tool_use","text":"hi","type":"text"}`; string(content) != want {
		t.Errorf("a text block with a member \"TYPE\" at 2025-03-26: %s, want %s\n%s", content, want, line)
	}
}

// TestLegacyElicitTitledEnumReadsOptionsByExactName: at 2025-06-18 a
// titled enum becomes enum and enumNames from each option's "const" and
// "title", not from a member "CONST" or "Title" beside them: the client is
// offered the values the handler's schema accepts.
func TestLegacyElicitTitledEnumReadsOptionsByExactName(t *testing.T) {
	titled := NewTool(ToolInfo{Name: "ask_titled", Description: "Titled single-select"}, askErrorText("e",
		&mcp.ElicitRequest{Params: &mcp.ElicitRequestFormParams{Message: "pick", RequestedSchema: mcp.ElicitRequestFormParamsRequestedSchema{
			Properties: map[string]mcp.PrimitiveSchemaDefinition{
				"color": &mcp.TitledSingleSelectEnumSchema{OneOf: []mcp.TitledSingleSelectEnumSchemaOneOfItem{
					{Const: "r", Title: "Red", Extra: map[string]json.RawMessage{"CONST": json.RawMessage(`"x"`), "Title": json.RawMessage(`"X"`)}},
					{Const: "g", Title: "Green"},
				}},
			}}}}))
	f := newFixture(t, func(o *Options) { o.Tools = []Tool{titled} })
	p := lcPeer(t, f.s, "2025-06-18", `{"elicitation":{}}`)
	req, line := lcServerRequest(t, p, "ask_titled", `{"action":"decline"}`)
	color := req["params"].(map[string]any)["requestedSchema"].(map[string]any)["properties"].(map[string]any)["color"].(map[string]any)
	enum, _ := json.Marshal(color["enum"])
	names, _ := json.Marshal(color["enumNames"])
	if string(enum) != `["r","g"]` || string(names) != `["Red","Green"]` {
		t.Errorf("titled enum at 2025-06-18: enum %s enumNames %s, want [\"r\",\"g\"] [\"Red\",\"Green\"]\n%s", enum, names, line)
	}
}

// TestLegacyInputRequestReadsMethodByExactName: the request sent is the
// one the handler asked for, whatever member "Method" or "PARAMS" the
// input request carries beside "method" and "params".
func TestLegacyInputRequestReadsMethodByExactName(t *testing.T) {
	sampling := NewTool(ToolInfo{Name: "ask_sampling", Description: "sampling with members Method and PARAMS"}, askErrorText("s",
		&mcp.CreateMessageRequest{Params: mcp.CreateMessageRequestParams{MaxTokens: 5, Messages: []mcp.SamplingMessage{
			{Role: mcp.RoleUser, Content: &mcp.TextContent{Text: "hi"}},
		}}, Extra: map[string]json.RawMessage{
			"Method": json.RawMessage(`"roots/list"`),
			"PARAMS": json.RawMessage(`{"maxTokens":6,"extra":true}`),
		}}))
	f := newFixture(t, func(o *Options) { o.Tools = []Tool{sampling} })
	p := lcPeer(t, f.s, "2025-11-25", `{"sampling":{},"roots":{}}`)
	req, line := lcServerRequest(t, p, "ask_sampling", `{"role":"assistant","content":{"type":"text","text":"x"},"model":"m"}`)
	params, _ := json.Marshal(req["params"])
	if req["method"] != "sampling/createMessage" || string(params) != `{"maxTokens":5,"messages":[{"content":{"text":"hi","type":"text"},"role":"user"}]}` {
		t.Errorf("the handler asked sampling/createMessage with maxTokens 5; sent %v %s\n%s", req["method"], params, line)
	}
}
