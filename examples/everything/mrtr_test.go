package main

import (
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/server"
)

// The multi round-trip fixtures, driven as the input-required-result-*
// scenarios drive them (conformance/FIXTURES.md §3.5 and §4.3).

// retry is one tools/call or prompts/get round.
type retry struct {
	responses any    // params.inputResponses; nil leaves it out
	state     string // params.requestState; "" leaves it out
	meta      map[string]any
	nullResp  bool // send "inputResponses": null
}

func round(t *testing.T, srv *server.Server, method, name string, r retry) rpcResponse {
	t.Helper()
	key := "name"
	params := map[string]any{key: name}
	if method == "tools/call" {
		params["arguments"] = map[string]any{}
	}
	if r.responses != nil {
		params["inputResponses"] = r.responses
	}
	if r.nullResp {
		params["inputResponses"] = nil
	}
	if r.state != "" {
		params["requestState"] = r.state
	}
	resp, _ := rawCall(t, srv, method, params, r.meta)
	return resp
}

// inputRequired checks an InputRequiredResult and returns its inputRequests
// and requestState.
func inputRequired(t *testing.T, what string, resp rpcResponse) (map[string]any, string) {
	t.Helper()
	res := mustResult(t, what, resp)
	if res["resultType"] != "input_required" {
		t.Fatalf("%s: resultType %v, want input_required (result %s)", what, res["resultType"], jsonText(t, res))
	}
	reqs, _ := res["inputRequests"].(map[string]any)
	state, _ := res["requestState"].(string)
	if _, ok := res["requestState"]; ok && state == "" {
		t.Errorf("%s: requestState %v is not a non-empty string", what, res["requestState"])
	}
	return reqs, state
}

// completeText checks a complete tool result and returns its text.
func completeText(t *testing.T, what string, resp rpcResponse) string {
	t.Helper()
	res := mustResult(t, what, resp)
	if res["resultType"] != "complete" || res["isError"] == true {
		t.Fatalf("%s: resultType %v, isError %v (result %s)", what, res["resultType"], res["isError"], jsonText(t, res))
	}
	content, _ := res["content"].([]any)
	if len(content) != 1 {
		t.Fatalf("%s: content %v, want one text item", what, res["content"])
	}
	text, _ := content[0].(map[string]any)["text"].(string)
	return text
}

func accept(content map[string]any) map[string]any {
	return map[string]any{"action": "accept", "content": content}
}

var (
	samplingAnswer = func(text string) map[string]any {
		return map[string]any{"role": "assistant", "content": map[string]any{"type": "text", "text": text}, "model": "test-model", "stopReason": "endTurn"}
	}
	rootsAnswer = map[string]any{"roots": []any{map[string]any{"uri": "file:///test/root", "name": "Test Root"}}}
	nameRequest = `{"method":"elicitation/create","params":{"message":"What is your name?",
		"requestedSchema":{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}}}`
)

func TestInputRequiredElicitation(t *testing.T) {
	srv := testServer(t)
	const tool = "test_input_required_result_elicitation"
	reqs, state := inputRequired(t, "round 1", round(t, srv, "tools/call", tool, retry{}))
	equalJSON(t, "inputRequests", reqs, `{"user_name":`+nameRequest+`}`)

	got := completeText(t, "round 2", round(t, srv, "tools/call", tool, retry{
		responses: map[string]any{"user_name": accept(map[string]any{"name": "Alice"})}, state: state}))
	if got != "Hello, Alice!" {
		t.Errorf("round 2 text %q, want %q", got, "Hello, Alice!")
	}

	// missing-input-response: a first call answering the wrong key is asked again.
	reqs, _ = inputRequired(t, "wrong key", round(t, srv, "tools/call", tool, retry{
		responses: map[string]any{"wrong_key": accept(map[string]any{"data": "wrong"})}}))
	equalJSON(t, "inputRequests after wrong key", reqs, `{"user_name":`+nameRequest+`}`)

	// ignore-extra-params: unexpected keys next to a valid answer are ignored.
	got = completeText(t, "extra keys", round(t, srv, "tools/call", tool, retry{responses: map[string]any{
		"user_name":          accept(map[string]any{"name": "Bob"}),
		"unknown_extra_key":  accept(map[string]any{"foo": "bar"}),
		"another_unexpected": accept(map[string]any{"baz": 123}),
	}}))
	if got != "Hello, Bob!" {
		t.Errorf("extra keys: text %q", got)
	}

	// validate-input: malformed answers never complete.
	for _, r := range []retry{
		{responses: map[string]any{"user_name": 12345}},
		{nullResp: true},
		{responses: map[string]any{"user_name": map[string]any{"action": "decline"}}},
		{responses: map[string]any{"user_name": accept(map[string]any{"name": 7})}},
	} {
		resp := round(t, srv, "tools/call", tool, r)
		if resp.Error == nil && resp.Result["resultType"] == "complete" {
			t.Errorf("inputResponses %s: complete result %s, want an error or input_required", jsonText(t, r.responses), jsonText(t, resp.Result))
		}
	}
}

func TestInputRequiredSampling(t *testing.T) {
	srv := testServer(t)
	const tool = "test_input_required_result_sampling"
	reqs, state := inputRequired(t, "round 1", round(t, srv, "tools/call", tool, retry{}))
	equalJSON(t, "inputRequests", reqs, `{"capital_question":{"method":"sampling/createMessage","params":{
		"messages":[{"role":"user","content":{"type":"text","text":"What is the capital of France?"}}],"maxTokens":100}}}`)
	got := completeText(t, "round 2", round(t, srv, "tools/call", tool, retry{
		responses: map[string]any{"capital_question": samplingAnswer("The capital of France is Paris.")}, state: state}))
	if got != "Sampling response: The capital of France is Paris." {
		t.Errorf("text %q", got)
	}
}

func TestInputRequiredListRoots(t *testing.T) {
	srv := testServer(t)
	const tool = "test_input_required_result_list_roots"
	reqs, state := inputRequired(t, "round 1", round(t, srv, "tools/call", tool, retry{}))
	equalJSON(t, "inputRequests", reqs, `{"client_roots":{"method":"roots/list","params":{}}}`)
	got := completeText(t, "round 2", round(t, srv, "tools/call", tool, retry{
		responses: map[string]any{"client_roots": rootsAnswer}, state: state}))
	if got != "Client exposed 1 root(s): file:///test/root" {
		t.Errorf("text %q", got)
	}
}

var confirmRequestJSON = `{"method":"elicitation/create","params":{"message":"Please confirm",
	"requestedSchema":{"type":"object","properties":{"ok":{"type":"boolean"}},"required":["ok"]}}}`

func TestInputRequiredRequestState(t *testing.T) {
	for _, tool := range []string{"test_input_required_result_request_state", "test_input_required_result_tampered_state"} {
		t.Run(tool, func(t *testing.T) {
			srv := testServer(t)
			reqs, state := inputRequired(t, "round 1", round(t, srv, "tools/call", tool, retry{}))
			equalJSON(t, "inputRequests", reqs, `{"confirm":`+confirmRequestJSON+`}`)
			if state == "" {
				t.Fatal("round 1 has no requestState")
			}
			ok := map[string]any{"confirm": accept(map[string]any{"ok": true})}
			got := completeText(t, "round 2", round(t, srv, "tools/call", tool, retry{responses: ok, state: state}))
			if !strings.HasPrefix(got, "state-ok") {
				t.Errorf("text %q, want state-ok…", got)
			}
			// reject-tampered-state: a JSON-RPC error, not a result.
			for _, bad := range []string{state + "-TAMPERED", "x" + state[1:], ""} {
				resp := round(t, srv, "tools/call", tool, retry{responses: ok, state: bad})
				if resp.Error == nil {
					t.Errorf("requestState %q: result %s, want a JSON-RPC error", bad, jsonText(t, resp.Result))
				}
			}
			// A state of another fixture is refused too.
			_, other := inputRequired(t, "multi-round", round(t, srv, "tools/call", "test_input_required_result_multi_round", retry{}))
			if resp := round(t, srv, "tools/call", tool, retry{responses: ok, state: other}); resp.Error == nil {
				t.Errorf("foreign requestState: result %s, want a JSON-RPC error", jsonText(t, resp.Result))
			}
		})
	}
}

func TestInputRequiredMultipleInputs(t *testing.T) {
	srv := testServer(t)
	const tool = "test_input_required_result_multiple_inputs"
	reqs, state := inputRequired(t, "round 1", round(t, srv, "tools/call", tool, retry{}))
	equalJSON(t, "inputRequests", reqs, `{"user_name":`+nameRequest+`,
		"greeting":{"method":"sampling/createMessage","params":{"messages":[{"role":"user","content":{"type":"text","text":"Generate a greeting"}}],"maxTokens":50}},
		"client_roots":{"method":"roots/list","params":{}}}`)
	if state == "" {
		t.Error("round 1 has no requestState")
	}
	// Partial answers ask only for the rest.
	reqs, state2 := inputRequired(t, "partial", round(t, srv, "tools/call", tool, retry{
		responses: map[string]any{"greeting": samplingAnswer("Hello there!")}, state: state}))
	if len(reqs) != 2 || reqs["greeting"] != nil {
		t.Errorf("partial: inputRequests %v, want user_name and client_roots", reqs)
	}
	got := completeText(t, "round 2", round(t, srv, "tools/call", tool, retry{responses: map[string]any{
		"user_name":    accept(map[string]any{"name": "Alice"}),
		"greeting":     samplingAnswer("Hello there!"),
		"client_roots": rootsAnswer,
	}, state: state2}))
	if got != "Hello there! Alice — 1 root(s) visible" {
		t.Errorf("text %q", got)
	}
}

func TestInputRequiredMultiRound(t *testing.T) {
	srv := testServer(t)
	const tool = "test_input_required_result_multi_round"
	reqs, state1 := inputRequired(t, "round 1", round(t, srv, "tools/call", tool, retry{}))
	equalJSON(t, "round 1 inputRequests", reqs, `{"step1":{"method":"elicitation/create","params":{"message":"Step 1: What is your name?",
		"requestedSchema":{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}}}}`)
	reqs, state2 := inputRequired(t, "round 2", round(t, srv, "tools/call", tool, retry{
		responses: map[string]any{"step1": accept(map[string]any{"name": "Alice"})}, state: state1}))
	equalJSON(t, "round 2 inputRequests", reqs, `{"step2":{"method":"elicitation/create","params":{"message":"Step 2: What is your favorite color?",
		"requestedSchema":{"type":"object","properties":{"color":{"type":"string"}},"required":["color"]}}}}`)
	if state1 == "" || state2 == "" || state1 == state2 {
		t.Errorf("requestState must be set and change between rounds: %q, %q", state1, state2)
	}
	got := completeText(t, "round 3", round(t, srv, "tools/call", tool, retry{
		responses: map[string]any{"step2": accept(map[string]any{"color": "blue"})}, state: state2}))
	if got != "Multi-round complete: Alice likes blue" {
		t.Errorf("text %q", got)
	}
}

func TestInputRequiredCapabilities(t *testing.T) {
	srv := testServer(t)
	const tool = "test_input_required_result_capabilities"
	samplingOnly := map[string]any{"io.modelcontextprotocol/clientCapabilities": map[string]any{"sampling": map[string]any{}}}
	reqs, state := inputRequired(t, "sampling only", round(t, srv, "tools/call", tool, retry{meta: samplingOnly}))
	equalJSON(t, "inputRequests", reqs, `{"greeting":{"method":"sampling/createMessage","params":{
		"messages":[{"role":"user","content":{"type":"text","text":"Generate a short greeting"}}],"maxTokens":50}}}`)
	got := completeText(t, "answered", round(t, srv, "tools/call", tool, retry{meta: samplingOnly, state: state,
		responses: map[string]any{"greeting": samplingAnswer("Hi!")}}))
	if !strings.Contains(got, "Hi!") {
		t.Errorf("text %q", got)
	}

	// All three capabilities: three requests.
	reqs, _ = inputRequired(t, "all", round(t, srv, "tools/call", tool, retry{}))
	if len(reqs) != 3 {
		t.Errorf("all capabilities: %d requests, want 3: %v", len(reqs), reqs)
	}
	// Roots only: one roots/list request.
	reqs, _ = inputRequired(t, "roots only", round(t, srv, "tools/call", tool, retry{
		meta: map[string]any{"io.modelcontextprotocol/clientCapabilities": map[string]any{"roots": map[string]any{}}}}))
	equalJSON(t, "roots only", reqs, `{"client_roots":{"method":"roots/list","params":{}}}`)
	// None: nothing can be asked.
	resp := round(t, srv, "tools/call", tool, retry{meta: map[string]any{"io.modelcontextprotocol/clientCapabilities": map[string]any{}}})
	if resp.Error == nil || resp.Error.Code != -32021 {
		t.Errorf("no capabilities: %s, want error -32021", jsonText(t, resp))
	}
}

func TestInputRequiredPrompt(t *testing.T) {
	srv := testServer(t)
	const prompt = "test_input_required_result_prompt"
	reqs, state := inputRequired(t, "round 1", round(t, srv, "prompts/get", prompt, retry{}))
	equalJSON(t, "inputRequests", reqs, `{"user_context":{"method":"elicitation/create","params":{"message":"What context should the prompt use?",
		"requestedSchema":{"type":"object","properties":{"context":{"type":"string"}},"required":["context"]}}}}`)
	res := mustResult(t, "round 2", round(t, srv, "prompts/get", prompt, retry{
		responses: map[string]any{"user_context": accept(map[string]any{"context": "test context"})}, state: state}))
	if res["resultType"] != "complete" {
		t.Errorf("resultType %v", res["resultType"])
	}
	equalJSON(t, "messages", res["messages"], `[{"role":"user","content":{"type":"text","text":"Context: test context"}}]`)
}

// TestListsNeverInputRequired: input-required-result-unsupported-methods.
func TestListsNeverInputRequired(t *testing.T) {
	srv := testServer(t)
	for _, m := range []string{"tools/list", "prompts/list", "resources/list", "resources/templates/list"} {
		resp, _ := rawCall(t, srv, m, nil, nil)
		if res := mustResult(t, m, resp); res["resultType"] != "complete" {
			t.Errorf("%s: resultType %v", m, res["resultType"])
		}
	}
}
