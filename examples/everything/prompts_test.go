package main

import (
	"context"
	"testing"

	"github.com/mcpgen/mcpgen/generated/mcp"
)

func TestPromptsList(t *testing.T) {
	srv := testServer(t)
	resp, _ := rawCall(t, srv, "prompts/list", nil, nil)
	res := mustResult(t, "prompts/list", resp)
	if res["ttlMs"] != 0.0 || res["cacheScope"] != "public" || res["resultType"] != "complete" {
		t.Errorf("prompts/list: ttlMs %v cacheScope %v resultType %v", res["ttlMs"], res["cacheScope"], res["resultType"])
	}
	got := map[string]map[string]any{}
	for _, x := range res["prompts"].([]any) {
		p := x.(map[string]any)
		got[p["name"].(string)] = p
		if d, _ := p["description"].(string); d == "" {
			t.Errorf("prompt %v has no description", p["name"])
		}
	}
	want := map[string]string{ // name → arguments
		"test_simple_prompt":                 `null`,
		"test_prompt_with_image":             `null`,
		"test_input_required_result_prompt":  `null`,
		"test_prompt_with_embedded_resource": `[{"name":"resourceUri","description":"URI of the resource to embed","required":true}]`,
		"test_prompt_with_arguments": `[{"name":"arg1","description":"First test argument","required":true},
			{"name":"arg2","description":"Second test argument","required":true}]`,
	}
	if len(got) != len(want) {
		t.Errorf("prompts/list has %d prompts, want %d", len(got), len(want))
	}
	for name, args := range want {
		p := got[name]
		if p == nil {
			t.Errorf("prompts/list lacks %s", name)
			continue
		}
		a := p["arguments"]
		if l, ok := a.([]any); ok && len(l) == 0 {
			a = nil
		}
		equalJSON(t, name+" arguments", a, args)
	}
}

func TestPromptsGet(t *testing.T) {
	srv := testServer(t)
	png := `{"type":"image","data":"` + pngBase64 + `","mimeType":"image/png"}`
	cases := []struct {
		name     string
		args     map[string]any // nil: no "arguments" key
		messages string
	}{
		{"test_simple_prompt", nil, `[{"role":"user","content":{"type":"text","text":"This is a simple prompt for testing."}}]`},
		{"test_prompt_with_arguments", map[string]any{"arg1": "testValue1", "arg2": "testValue2"},
			`[{"role":"user","content":{"type":"text","text":"Prompt with arguments: arg1='testValue1', arg2='testValue2'"}}]`},
		{"test_prompt_with_embedded_resource", map[string]any{"resourceUri": "test://example-resource"},
			`[{"role":"user","content":{"type":"resource","resource":{"uri":"test://example-resource","mimeType":"text/plain","text":"Embedded resource content for testing."}}},
			  {"role":"user","content":{"type":"text","text":"Please process the embedded resource above."}}]`},
		{"test_prompt_with_image", nil, `[{"role":"user","content":` + png + `},
			{"role":"user","content":{"type":"text","text":"Please analyze the image above."}}]`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			params := map[string]any{"name": c.name}
			if c.args != nil {
				params["arguments"] = c.args
			}
			resp, _ := rawCall(t, srv, "prompts/get", params, nil)
			res := mustResult(t, c.name, resp)
			if res["resultType"] != "complete" {
				t.Errorf("resultType %v", res["resultType"])
			}
			equalJSON(t, "messages", res["messages"], c.messages)
		})
	}

	// A missing required argument is a JSON-RPC error.
	resp, _ := rawCall(t, srv, "prompts/get", map[string]any{"name": "test_prompt_with_arguments", "arguments": map[string]any{"arg1": "x"}}, nil)
	if resp.Error == nil || resp.Error.Code != -32602 {
		t.Errorf("missing arg2: %s, want -32602", jsonText(t, resp))
	}
}

func TestPromptTypedClient(t *testing.T) {
	srv := testServer(t)
	out, err := testClient(srv, allCaps).GetPrompt(context.Background(), &mcp.GetPromptRequestParams{
		Name: "test_prompt_with_arguments", Arguments: map[string]string{"arg1": "a", "arg2": "b"},
	})
	if err != nil {
		t.Fatal(err)
	}
	res, ok := out.(*mcp.GetPromptResult)
	if !ok || len(res.Messages) != 1 || res.Messages[0].Role != "user" {
		t.Fatalf("GetPrompt: %#v", out)
	}
	if text, ok := res.Messages[0].Content.(*mcp.TextContent); !ok || text.Text != "Prompt with arguments: arg1='a', arg2='b'" {
		t.Errorf("message content %#v", res.Messages[0].Content)
	}
}
