package server

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/jsonrpc"
)

func callTool(t *testing.T, s *Server, name, extra string) reply {
	t.Helper()
	params := `{"name":"` + name + `","arguments":{}` + extra + `}`
	r, _ := rpcMeta(t, s, "tools/call", params, fullCapsMeta, nil)
	return r
}

func inputRequests(t *testing.T, r reply) (map[string]any, string) {
	t.Helper()
	wantResult(t, r)
	if rt := r.field(t, "resultType"); rt != "input_required" {
		t.Fatalf("resultType %v: %s", rt, r.Result)
	}
	reqs, _ := r.field(t, "inputRequests").(map[string]any)
	state, _ := r.field(t, "requestState").(string)
	return reqs, state
}

func TestMRTRBasic(t *testing.T) {
	f := newFixture(t)
	reqs, state := inputRequests(t, callTool(t, f.s, "ask_name", ""))
	q := reqs["user_name"].(map[string]any)
	if q["method"] != "elicitation/create" || q["params"].(map[string]any)["message"] != "What is your name?" {
		t.Errorf("input request %v", q)
	}
	if _, has := q["id"]; has || state != "" {
		t.Errorf("request has an id or needless state: %v %q", q, state)
	}
	r := callTool(t, f.s, "ask_name", `,"inputResponses":{"user_name":{"action":"accept","content":{"name":"Alice"}},"unknown_extra_key":{"action":"cancel"}}`)
	if text, isErr := callText(t, r); text != "Hello, Alice!" || isErr {
		t.Errorf("answer: %q", text)
	}
	// An entry under a key the handler never asks for is ignored, even when
	// it is not a response at all (mrtr.mdx: ignore what is not recognised).
	r = callTool(t, f.s, "ask_name", `,"inputResponses":{"user_name":{"action":"accept","content":{"name":"Alice"}},"another_unexpected":{"foo":"bar"},"n":7}`)
	if text, isErr := callText(t, r); text != "Hello, Alice!" || isErr {
		t.Errorf("answer beside unrecognised entries: %q", text)
	}
	// A wrong key asks again; a malformed answer or one of the wrong kind is -32602.
	inputRequests(t, callTool(t, f.s, "ask_name", `,"inputResponses":{"wrong_key":{"action":"accept","content":{"data":"x"}}}`))
	inputRequests(t, callTool(t, f.s, "ask_name", `,"inputResponses":null`))
	wantError(t, callTool(t, f.s, "ask_name", `,"inputResponses":{"user_name":12345}`), jsonrpc.CodeInvalidParams)
	wantError(t, callTool(t, f.s, "ask_name", `,"inputResponses":{"user_name":{"roots":[]}}`), jsonrpc.CodeInvalidParams)
	// List requests never answer input_required.
	if rt := rpc(t, f.s, "tools/list", `{}`).field(t, "resultType"); rt != "complete" {
		t.Errorf("tools/list resultType %v", rt)
	}
}

func TestMRTRRespectsClientCapabilities(t *testing.T) {
	f := newFixture(t)
	// Without elicitation the request may not be sent: -32021 naming it.
	r, _ := rpcMeta(t, f.s, "tools/call", `{"name":"ask_name"}`, defaultMeta, nil)
	wantError(t, r, -32021)
	if !strings.Contains(string(r.Error.Data), `"requiredCapabilities":{"elicitation"`) {
		t.Errorf("data %s", r.Error.Data)
	}
}

func TestMRTRMultipleInputs(t *testing.T) {
	f := newFixture(t)
	reqs, _ := inputRequests(t, callTool(t, f.s, "multi_input", ""))
	methods := map[string]string{}
	for k, v := range reqs {
		methods[k] = v.(map[string]any)["method"].(string)
	}
	if methods["user_name"] != "elicitation/create" || methods["greeting"] != "sampling/createMessage" || methods["client_roots"] != "roots/list" {
		t.Fatalf("requests %v", methods)
	}
	r := callTool(t, f.s, "multi_input", `,"inputResponses":{`+
		`"user_name":{"action":"accept","content":{"name":"Alice"}},`+
		`"greeting":{"role":"assistant","content":{"type":"text","text":"Hello there!"},"model":"m","stopReason":"endTurn"},`+
		`"client_roots":{"roots":[{"uri":"file:///r","name":"R"}]}}`)
	if text, _ := callText(t, r); text != "Hello there! Alice — 1 root(s)" {
		t.Errorf("answer %q", text)
	}
}

func TestMRTRMultiRoundAndTampering(t *testing.T) {
	f := newFixture(t)
	_, state1 := inputRequests(t, callTool(t, f.s, "multi_round", ""))
	if state1 == "" {
		t.Fatal("round 1 has no requestState")
	}
	reqs, state2 := inputRequests(t, callTool(t, f.s, "multi_round",
		`,"requestState":"`+state1+`","inputResponses":{"step1":{"action":"accept","content":{"name":"Alice"}}}`))
	if reqs["step2"] == nil || state2 == "" || state2 == state1 {
		t.Fatalf("round 2: %v state changed=%v", reqs, state2 != state1)
	}
	r := callTool(t, f.s, "multi_round", `,"requestState":"`+state2+`","inputResponses":{"step2":{"action":"accept","content":{"name":"blue"}}}`)
	if text, _ := callText(t, r); text != "Alice likes blue" {
		t.Errorf("round 3 %q", text)
	}
	// Tampered state: a JSON-RPC error.
	flipped := "A" + state2[1:]
	if state2[0] == 'A' {
		flipped = "B" + state2[1:]
	}
	for _, bad := range []string{state2 + "-TAMPERED", flipped, "garbage"} {
		wantError(t, callTool(t, f.s, "multi_round", `,"requestState":"`+bad+`","inputResponses":{"step2":{"action":"accept","content":{"name":"blue"}}}`), jsonrpc.CodeInvalidParams)
	}
	// State for another request (other tool or other arguments) is refused.
	wantError(t, callTool(t, f.s, "ask_name", `,"requestState":"`+state2+`"`), jsonrpc.CodeInvalidParams)
	r, _ = rpcMeta(t, f.s, "tools/call", `{"name":"multi_round","arguments":{"x":1},"requestState":"`+state2+`"}`, fullCapsMeta, nil)
	wantError(t, r, jsonrpc.CodeInvalidParams)
	wantError(t, callTool(t, f.s, "multi_round", `,"requestState":5`), jsonrpc.CodeInvalidParams)
}

// Two replicas sharing a StateKey continue each other's requests; a server
// with another key refuses the state.
func TestMRTRCrossInstance(t *testing.T) {
	a := newFixture(t)
	b := newFixture(t)
	other := newFixture(t, func(o *Options) { o.StateKey = []byte("another-key-another-key-another!") })
	_, state1 := inputRequests(t, callTool(t, a.s, "multi_round", ""))
	_, state2 := inputRequests(t, callTool(t, b.s, "multi_round",
		`,"requestState":"`+state1+`","inputResponses":{"step1":{"action":"accept","content":{"name":"Bob"}}}`))
	r := callTool(t, a.s, "multi_round", `,"requestState":"`+state2+`","inputResponses":{"step2":{"action":"accept","content":{"name":"green"}}}`)
	if text, _ := callText(t, r); text != "Bob likes green" {
		t.Errorf("cross-instance answer %q", text)
	}
	wantError(t, callTool(t, other.s, "multi_round", `,"requestState":"`+state1+`"`), jsonrpc.CodeInvalidParams)
}

func TestMRTRSealExpiry(t *testing.T) {
	f := newFixture(t)
	id := digestOf(identity("tools/call", "x", nil))
	tok := f.s.seal(json.RawMessage(`{"a":1}`), id)
	if st, err := f.s.unseal(tok, digestOf(identity("tools/call", "x", json.RawMessage(`{}`)))); err != nil || string(st) != `{"a":1}` {
		t.Fatalf("unseal: %s %v", st, err)
	}
	if identity("m", "n", []byte(`{"b":1,"a":2}`)) != identity("m", "n", []byte(`{ "a":2, "b":1 }`)) {
		t.Errorf("identity depends on member order")
	}
	f.s.stateTTL = -1e9 // already expired
	expired := f.s.seal(nil, id)
	if _, err := f.s.unseal(expired, id); err == nil || !strings.Contains(err.Error(), "expired") {
		t.Errorf("expired state accepted: %v", err)
	}
}

func TestMRTRPrompt(t *testing.T) {
	f := newFixture(t)
	r, _ := rpcMeta(t, f.s, "prompts/get", `{"name":"ask_context"}`, fullCapsMeta, nil)
	reqs, _ := inputRequests(t, r)
	if reqs["user_context"] == nil {
		t.Fatalf("prompt input requests %v", reqs)
	}
	r, _ = rpcMeta(t, f.s, "prompts/get", `{"name":"ask_context","inputResponses":{"user_context":{"action":"accept","content":{"name":"test context"}}}}`, fullCapsMeta, nil)
	if !strings.Contains(string(r.Result), "Context: test context") || r.field(t, "resultType") != "complete" {
		t.Errorf("prompt answer %s", r.Result)
	}
}
