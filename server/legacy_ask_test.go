package server

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/generated/mcp"
	"github.com/mcpgen/mcpgen/jsonrpc"
)

// askErrorText runs Ask and returns its error's code and message as the
// tool's text ("ok" when it succeeded), so a test sees what the handler saw.
func askErrorText(key string, req mcp.InputRequest) func(ctx context.Context, in noArgs) (string, error) {
	return func(ctx context.Context, in noArgs) (string, error) {
		_, err := Ask(ctx, key, req)
		var rpcErr *jsonrpc.Error
		switch {
		case err == nil:
			return "ok", nil
		case errors.As(err, &rpcErr):
			return rpcErr.Error(), nil
		}
		return err.Error(), nil
	}
}

// TestLegacySamplingSplitsBlockArrays: before 2025-11-25 a message holds
// one content block, so a message of several becomes consecutive messages
// of its role, one block each, in order; audio at 2024-11-05 becomes the
// text saying it was omitted.
func TestLegacySamplingSplitsBlockArrays(t *testing.T) {
	tool := NewTool(ToolInfo{Name: "ask_many", Description: "Sampling with several blocks"}, askErrorText("s",
		&mcp.CreateMessageRequest{Params: mcp.CreateMessageRequestParams{MaxTokens: 5, Messages: []mcp.SamplingMessage{
			{Role: mcp.RoleUser, Content: mcp.SamplingMessageContentBlocks{&mcp.TextContent{Text: "look"}, &mcp.ImageContent{Data: []byte("png"), MIMEType: "image/png"}, &mcp.AudioContent{Data: []byte("wav"), MIMEType: "audio/wav"}}},
			{Role: mcp.RoleAssistant, Content: &mcp.TextContent{Text: "seen"}},
		}}}))
	for _, rev := range []string{"2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"} {
		t.Run(rev, func(t *testing.T) {
			f := newFixture(t, func(o *Options) { o.Tools = []Tool{tool} })
			p := lcPeer(t, f.s, rev, `{"sampling":{}}`)
			req, line := lcServerRequest(t, p, "ask_many", `{"role":"assistant","content":{"type":"text","text":"x"},"model":"m"}`)
			if why := lcValid(t, rev, "CreateMessageRequest", req); why != "" {
				t.Fatalf("sampling request at %s does not validate: %s\n%s", rev, why, line)
			}
			msgs := req["params"].(map[string]any)["messages"].([]any)
			if rev == "2025-11-25" {
				if len(msgs) != 2 {
					t.Fatalf("2025-11-25 carries block arrays, the messages changed: %s", line)
				}
				return
			}
			want := []string{"user text look", "user image", "user audio", "assistant text seen"}
			if rev == "2024-11-05" {
				want[2] = "user text [audio content (audio/wav) omitted: protocol 2024-11-05 has no audio content]"
			}
			var got []string
			for _, m := range msgs {
				m := m.(map[string]any)
				c := m["content"].(map[string]any)
				s := m["role"].(string) + " " + c["type"].(string)
				if text, ok := c["text"].(string); ok {
					s += " " + text
				}
				got = append(got, s)
			}
			if strings.Join(got, "|") != strings.Join(want, "|") {
				t.Errorf("messages at %s:\n got %q\nwant %q", rev, got, want)
			}
		})
	}
}

// TestLegacySamplingToolUseIsRefusedBefore20251125: tool use in sampling
// (tools, toolChoice, tool_use and tool_result content) is 2025-11-25's; an
// earlier client gets no request and the handler's Ask a -32603 naming it.
func TestLegacySamplingToolUseIsRefusedBefore20251125(t *testing.T) {
	toolUse := NewTool(ToolInfo{Name: "ask_tool_use", Description: "Sampling with tool_use content"}, askErrorText("s",
		&mcp.CreateMessageRequest{Params: mcp.CreateMessageRequestParams{MaxTokens: 5, Messages: []mcp.SamplingMessage{
			{Role: mcp.RoleAssistant, Content: &mcp.ToolUseContent{ID: "1", Name: "get_weather", Input: map[string]any{}}},
		}}}))
	for _, rev := range []string{"2024-11-05", "2025-03-26", "2025-06-18"} {
		t.Run(rev, func(t *testing.T) {
			f := newFixture(t, func(o *Options) { o.Tools = []Tool{toolUse} })
			p := lcPeer(t, f.s, rev, `{"sampling":{"tools":{}}}`)
			m, line := p.response0(t, "1", "tools/call", `{"name":"ask_tool_use"}`)
			text, _ := json.Marshal(resultOf(t, m)["content"])
			if !strings.Contains(string(text), "-32603") || !strings.Contains(string(text), "tool_use") || !strings.Contains(string(text), rev) {
				t.Errorf("at %s the handler's Ask did not fail naming tool_use and the revision: %s", rev, line)
			}
		})
	}
}

// TestLegacyElicitFormsFitRevision: at 2025-06-18 a titled single-select
// enum (oneOf of const and title, 2025-11-25) is sent as the enum and
// enumNames of that revision; a titled multi-select enum is refused with a
// -32603 the handler sees, and no request is sent; 2025-11-25 gets both
// as they are.
func TestLegacyElicitFormsFitRevision(t *testing.T) {
	titled := NewTool(ToolInfo{Name: "ask_titled", Description: "Titled single-select"}, askErrorText("e",
		&mcp.ElicitRequest{Params: &mcp.ElicitRequestFormParams{Message: "pick", RequestedSchema: mcp.ElicitRequestFormParamsRequestedSchema{
			Properties: map[string]mcp.PrimitiveSchemaDefinition{
				"color": &mcp.TitledSingleSelectEnumSchema{Title: "Colour", Default: "r", OneOf: []mcp.TitledSingleSelectEnumSchemaOneOfItem{{Const: "r", Title: "Red"}, {Const: "g", Title: "Green"}}},
				"name":  &mcp.StringSchema{},
			}}}}))
	multi := NewTool(ToolInfo{Name: "ask_titled_multi", Description: "Titled multi-select"}, askErrorText("e",
		&mcp.ElicitRequest{Params: &mcp.ElicitRequestFormParams{Message: "pick", RequestedSchema: mcp.ElicitRequestFormParamsRequestedSchema{
			Properties: map[string]mcp.PrimitiveSchemaDefinition{
				"colors": &mcp.TitledMultiSelectEnumSchema{Items: mcp.TitledMultiSelectEnumSchemaItems{AnyOf: []mcp.TitledMultiSelectEnumSchemaItemsAnyOfItem{{Const: "r", Title: "Red"}}}},
			}}}}))
	tools := func(o *Options) { o.Tools = []Tool{titled, multi} }

	f := newFixture(t, tools)
	p := lcPeer(t, f.s, "2025-06-18", `{"elicitation":{}}`)
	req, line := lcServerRequest(t, p, "ask_titled", `{"action":"decline"}`)
	if why := lcValid(t, "2025-06-18", "ElicitRequest", req); why != "" {
		t.Fatalf("titled enum at 2025-06-18 does not validate: %s\n%s", why, line)
	}
	color, _ := json.Marshal(req["params"].(map[string]any)["requestedSchema"].(map[string]any)["properties"].(map[string]any)["color"])
	if want := `{"default":"r","enum":["r","g"],"enumNames":["Red","Green"],"title":"Colour","type":"string"}`; string(color) != want {
		t.Errorf("titled enum at 2025-06-18: %s, want %s", color, want)
	}
	m, line := p.response0(t, "2", "tools/call", `{"name":"ask_titled_multi"}`)
	text, _ := json.Marshal(resultOf(t, m)["content"])
	if !strings.Contains(string(text), "-32603") || !strings.Contains(string(text), "multi-select") {
		t.Errorf("titled multi-select at 2025-06-18: the handler's Ask did not fail naming it: %s", line)
	}

	f = newFixture(t, tools)
	p = lcPeer(t, f.s, "2025-11-25", `{"elicitation":{}}`)
	for _, name := range []string{"ask_titled", "ask_titled_multi"} {
		req, line := lcServerRequest(t, p, name, `{"action":"decline"}`)
		if why := lcValid(t, "2025-11-25", "ElicitRequest", req); why != "" || strings.Contains(line, "enumNames") {
			t.Errorf("%s at 2025-11-25 changed or invalid (%s): %s", name, why, line)
		}
	}
}

// legacy_ask.go: "What a revision can carry is converted; what it cannot is
// refused with -32603 naming the part and the revision ... (nothing the
// client cannot read is sent)". A sampling message whose content is an
// empty array (2026-07-28's SamplingMessage.content allows any array of
// blocks) cannot be carried by 2025-06-18 and earlier (one block per
// message): it is refused with -32603 naming it, not dropped from the
// request (the client would sample another conversation than the handler
// asked for).
func TestLegacySamplingEmptyContentMessageIsRefusedNotDropped(t *testing.T) {
	for _, version := range []string{"2024-11-05", "2025-03-26", "2025-06-18"} {
		params := map[string]json.RawMessage{
			"messages":  json.RawMessage(`[{"role":"user","content":[]},{"role":"assistant","content":{"type":"text","text":"hi"}}]`),
			"maxTokens": json.RawMessage(`10`),
		}
		err := legacySamplingParams(params, version)
		if err != nil {
			var rpcErr *jsonrpc.Error
			if !errors.As(err, &rpcErr) || rpcErr.Code != jsonrpc.CodeInternalError || !strings.Contains(rpcErr.Message, "messages[0]") {
				t.Errorf("%s: refused with %v, want -32603 naming messages[0]", version, err)
			}
			continue
		}
		if !strings.Contains(string(params["messages"]), `"user"`) {
			t.Errorf("%s: messages sent as %s: the user message is gone, without an error", version, params["messages"])
		}
	}
}
