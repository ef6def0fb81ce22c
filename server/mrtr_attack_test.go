package server

import (
	"context"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/generated/mcp"
	"github.com/mcpgen/mcpgen/jsonrpc"
)

// Attack tests on multi round-trip requests (server.Ask, InputRequiredResult,
// inputResponses). Each fails on the current code.

// TestAttackInputResponsesRepeatedKey: README "How a request flows": "a
// repeated member is -32600 in the envelope and -32602 in params or
// _meta"; tasks/update already refuses the same inputResponses with
// -32602 `params.inputResponses: duplicate member "first"`, and a repeated
// member inside one answer is -32602 too. In tools/call a repeated key of
// inputResponses is accepted and the last one silently wins: a reader that
// keeps the first (a proxy, an audit log) sees "accept" where the tool saw
// "decline".
func TestAttackInputResponsesRepeatedKey(t *testing.T) {
	s := mrtrInputServer(t)
	r, _ := rpcMeta(t, s, "tools/call", `{"name":"elicit","inputResponses":{"e":{"action":"accept","content":{"name":"a"}},"e":{"action":"decline"}}}`, fullCapsMeta, nil)
	if r.Error == nil {
		text, _ := callText(t, r)
		t.Fatalf("repeated inputResponses key accepted, the tool saw %q; want -32602", text)
	}
	if r.Error.Code != jsonrpc.CodeInvalidParams {
		t.Errorf("error %d %q; want -32602", r.Error.Code, r.Error.Message)
	}
}

// TestAttackElicitResultContentValidated: mrtr.mdx "Servers SHOULD
// validate that the data provided by the client is a valid InputResponses
// object ... Protocol errors (malformed JSON, invalid schema ...) SHOULD
// return a JSON-RPC error"; schema.json ElicitResult.content: values are
// string, integer, boolean or an array of strings. Ask hands the tool a
// content whose values are objects or arrays of numbers, while every other
// malformed member of an answer (a role, a root's uri, a content block
// type) is -32602.
func TestAttackElicitResultContentValidated(t *testing.T) {
	s := mrtrInputServer(t)
	for _, answer := range []string{
		`{"action":"accept","content":{"name":{"nested":{"object":1}}}}`,
		`{"action":"accept","content":{"name":[1,2,3]}}`,
	} {
		r, _ := rpcMeta(t, s, "tools/call", `{"name":"elicit","inputResponses":{"e":`+answer+`}}`, fullCapsMeta, nil)
		if r.Error == nil {
			t.Errorf("ElicitResult %s (not valid for the schema) handed to the tool: %s; want -32602", answer, r.Result)
		} else if r.Error.Code != jsonrpc.CodeInvalidParams {
			t.Errorf("ElicitResult %s: %d %q; want -32602", answer, r.Error.Code, r.Error.Message)
		}
	}
}

// TestAttackElicitContentNotObjectError: content must be an object
// (schema.json ElicitResult.content "type": "object"); a content of [] is
// refused, but with "content: expected an integer, got array", which names
// neither what content must be nor the real problem (cosmetic: the code is
// right, the message is wrong).
func TestAttackElicitContentNotObjectError(t *testing.T) {
	s := mrtrInputServer(t)
	r, _ := rpcMeta(t, s, "tools/call", `{"name":"elicit","inputResponses":{"e":{"action":"accept","content":[]}}}`, fullCapsMeta, nil)
	if r.Error == nil || strings.Contains(r.Error.Message, "integer") || !strings.Contains(r.Error.Message, "object") {
		t.Errorf("content [] answered %v; want -32602 saying content must be an object", r.Error)
	}
}

// TestAttackElicitAnswerWithExtraMember: schema.json ElicitResult has no
// "additionalProperties": false, so {"action":"decline","roots":[]} is a
// valid ElicitResult (mrtr.mdx: servers SHOULD ignore information they do
// not recognize). DecodeInputResponse guesses the kind from the shape and
// takes it for a ListRootsResult, so Ask — which knows it asked an
// elicitation — refuses it with -32602 "does not answer a elicitation/create
// request"; tasks/update, which also knows the pending kind, does the same.
func TestAttackElicitAnswerWithExtraMember(t *testing.T) {
	s := mrtrInputServer(t)
	r, _ := rpcMeta(t, s, "tools/call", `{"name":"elicit","inputResponses":{"e":{"action":"decline","roots":[]}}}`, fullCapsMeta, nil)
	if r.Error != nil {
		t.Fatalf("valid ElicitResult with an extra member refused: %d %q", r.Error.Code, r.Error.Message)
	}
	if text, _ := callText(t, r); text != "decline" {
		t.Errorf("tool saw %q, want decline", text)
	}
}

func TestAttackTaskUpdateElicitAnswerWithExtraMember(t *testing.T) {
	s := newTaskServer(t)
	id := createTask(t, s, "confirm_two", `{"file":"f"}`)
	waitStatus(t, s, id, TaskInputRequired)
	r := taskRPC(t, s, "tasks/update", id, `,"inputResponses":{"first":{"action":"accept","content":{"confirm":true}},"second":{"action":"decline","roots":[]}}`)
	if r.Error != nil {
		t.Fatalf("tasks/update with a valid ElicitResult carrying an extra member: %d %q; want it accepted", r.Error.Code, r.Error.Message)
	}
	m := waitStatus(t, s, id, TaskCompleted, TaskFailed)
	if m["status"] != TaskCompleted {
		t.Errorf("task %v", m)
	}
}

// TestAttackTaskDropsMalformedAnswer: tasks.go: "A tool that asks for input
// (Ask) inside a task works exactly as in a multi round-trip request"; in
// one, an inputResponses entry the tool asks for that is no input response
// at all is -32602 (mrtr.go prepareMRTR/Ask, TestMRTRBasic:
// `"inputResponses":{"user_name":12345}` is -32602). The same tools/call
// made as a task drops the malformed answer (callTask copies the decoded
// answers but not badResponses) and the task silently asks again.
func TestAttackTaskDropsMalformedAnswer(t *testing.T) {
	s := newTaskServer(t)
	// Inline (no tasks extension): -32602.
	r, _ := rpcMeta(t, s, "tools/call", `{"name":"confirm_two","arguments":{"file":"f"},"inputResponses":{"first":12345}}`,
		`{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"elicitation":{}}}`, nil)
	wantError(t, r, jsonrpc.CodeInvalidParams)
	// As a task: the tools/call is refused, or the task fails with -32602.
	r = taskCall(t, s, "confirm_two", `{"file":"f"}`, `,"inputResponses":{"first":12345}`)
	if r.Error != nil {
		wantError(t, r, jsonrpc.CodeInvalidParams)
		return
	}
	id, _ := resultMap(t, r)["taskId"].(string)
	m := waitStatus(t, s, id, TaskInputRequired, TaskFailed, TaskCompleted)
	if m["status"] != TaskFailed {
		t.Fatalf("task with a malformed answer to \"first\": status %v, inputRequests %v; want failed with -32602 as inline", m["status"], m["inputRequests"])
	}
	if e, _ := m["error"].(map[string]any); e == nil || e["code"] != float64(jsonrpc.CodeInvalidParams) {
		t.Errorf("task error %v; want -32602", m["error"])
	}
}

// attackToolsHandler is a user tools/call handler (Options.Handlers) that
// asks for a name and answers with the action the client gave.
type attackToolsHandler struct{ mcp.UnimplementedToolsHandler }

func (attackToolsHandler) CallTool(ctx context.Context, _ *mcp.CallToolRequestParams) (mcp.CallToolOutcome, error) {
	r, err := Ask(ctx, "e", elicitName("Name?"))
	if err != nil {
		return nil, err
	}
	return &mcp.CallToolResult{Content: []mcp.ContentBlock{&mcp.TextContent{Text: string(r.(*mcp.ElicitResult).Action)}}}, nil
}

// TestAttackHandlerPathUnknownInputResponses: mrtr.mdx "If additional,
// unexpected parameters are provided in the InputResponses object, the
// server SHOULD ignore any information it does not recognize or need";
// the registry path does (TestMRTRBasic: `"another_unexpected":{"foo":"bar"},
// "n":7` beside the answer are ignored). The same request to a tools/call of
// Options.Handlers is refused whole with -32602 "params.inputResponses.n:
// matches no member of InputResponse": the two paths of one server
// disagree on one message.
func TestAttackHandlerPathUnknownInputResponses(t *testing.T) {
	s, err := New(Options{Name: "x", Version: "1", Handlers: []any{attackToolsHandler{}}})
	if err != nil {
		t.Fatal(err)
	}
	r, _ := rpcMeta(t, s, "tools/call", `{"name":"t","inputResponses":{"e":{"action":"accept"},"another_unexpected":{"foo":"bar"},"n":7}}`, fullCapsMeta, nil)
	if r.Error != nil {
		t.Fatalf("unrecognised inputResponses entries beside the answer: %d %q; want them ignored (as the registry path does)", r.Error.Code, r.Error.Message)
	}
	if text, _ := callText(t, r); text != "accept" {
		t.Errorf("handler saw %q", text)
	}
}

// TestAttackHandlerPathInputResponsesRepeatedKey: as
// TestAttackInputResponsesRepeatedKey, for a tools/call of Options.Handlers.
func TestAttackHandlerPathInputResponsesRepeatedKey(t *testing.T) {
	s, err := New(Options{Name: "x", Version: "1", Handlers: []any{attackToolsHandler{}}})
	if err != nil {
		t.Fatal(err)
	}
	r, _ := rpcMeta(t, s, "tools/call", `{"name":"t","inputResponses":{"e":{"action":"accept"},"e":{"action":"decline"}}}`, fullCapsMeta, nil)
	if r.Error == nil {
		text, _ := callText(t, r)
		t.Fatalf("repeated inputResponses key accepted, the handler saw %q; want -32602", text)
	}
	wantError(t, r, jsonrpc.CodeInvalidParams)
}
