package main

import "testing"

// The legacy-era fixtures (FIXTURES.md §7), driven through multi round-trip.

func TestLegacyElicitationSchemas(t *testing.T) {
	srv := testServer(t)
	reqs, _ := inputRequired(t, "sep1034", round(t, srv, "tools/call", "test_elicitation_sep1034_defaults", retry{}))
	equalJSON(t, "sep1034 properties", reqs["defaults"].(map[string]any)["params"].(map[string]any)["requestedSchema"].(map[string]any)["properties"], `{
		"name":{"type":"string","description":"User name","default":"John Doe"},
		"age":{"type":"integer","description":"User age","default":30},
		"score":{"type":"number","description":"User score","default":95.5},
		"status":{"type":"string","description":"User status","enum":["active","inactive","pending"],"default":"active"},
		"verified":{"type":"boolean","description":"Verification status","default":true}}`)

	reqs, _ = inputRequired(t, "sep1330", round(t, srv, "tools/call", "test_elicitation_sep1330_enums", retry{}))
	titled := `[{"const":"value1","title":"First Option"},{"const":"value2","title":"Second Option"},{"const":"value3","title":"Third Option"}]`
	equalJSON(t, "sep1330 properties", reqs["enums"].(map[string]any)["params"].(map[string]any)["requestedSchema"].(map[string]any)["properties"], `{
		"untitledSingle":{"type":"string","description":"Untitled single-select","enum":["option1","option2","option3"]},
		"titledSingle":{"type":"string","description":"Titled single-select","oneOf":`+titled+`},
		"legacyEnum":{"type":"string","description":"Legacy titled enum","enum":["opt1","opt2","opt3"],"enumNames":["Option One","Option Two","Option Three"]},
		"untitledMulti":{"type":"array","description":"Untitled multi-select","items":{"type":"string","enum":["option1","option2","option3"]}},
		"titledMulti":{"type":"array","description":"Titled multi-select","items":{"anyOf":`+titled+`}}}`)
}

func TestLegacySamplingAndElicitation(t *testing.T) {
	srv := testServer(t)
	params := map[string]any{"name": "test_sampling", "arguments": map[string]any{"prompt": "Test prompt for sampling"}}
	resp, _ := rawCall(t, srv, "tools/call", params, nil)
	reqs, state := inputRequired(t, "test_sampling", resp)
	equalJSON(t, "sampling request", reqs, `{"sampling":{"method":"sampling/createMessage","params":{
		"messages":[{"role":"user","content":{"type":"text","text":"Test prompt for sampling"}}],"maxTokens":100}}}`)
	params["inputResponses"] = map[string]any{"sampling": samplingAnswer("This is a test response from the client")}
	if state != "" {
		params["requestState"] = state
	}
	resp, _ = rawCall(t, srv, "tools/call", params, nil)
	if got := completeText(t, "test_sampling", resp); got != "LLM response: This is a test response from the client" {
		t.Errorf("text %q", got)
	}

	params = map[string]any{"name": "test_elicitation", "arguments": map[string]any{"message": "Who are you?"}}
	resp, _ = rawCall(t, srv, "tools/call", params, nil)
	reqs, _ = inputRequired(t, "test_elicitation", resp)
	schema := reqs["elicitation"].(map[string]any)["params"].(map[string]any)["requestedSchema"].(map[string]any)
	equalJSON(t, "required", schema["required"], `["username","email"]`)
	params["inputResponses"] = map[string]any{"elicitation": accept(map[string]any{"username": "testuser", "email": "test@example.com"})}
	resp, _ = rawCall(t, srv, "tools/call", params, nil)
	if got := completeText(t, "test_elicitation", resp); got == "" {
		t.Error("test_elicitation: empty text")
	}
}
