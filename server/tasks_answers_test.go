package server

import (
	"testing"

	"github.com/mcpgen/mcpgen/jsonrpc"
)

// TestTaskUpdateElicitAnswerExtraMemberIgnored: as
// TestElicitAnswerExtraMemberIgnored, for the answers tasks/update gives a
// task parked input_required.
func TestTaskUpdateElicitAnswerExtraMemberIgnored(t *testing.T) {
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

// TestTaskMalformedAnswerFailsAsInline: tasks.go: "A tool that asks for input
// (Ask) inside a task works exactly as in a multi round-trip request"; in
// one, an inputResponses entry the tool asks for that is no input response
// at all is -32602 (mrtr.go prepareMRTR/Ask, TestMRTRBasic:
// `"inputResponses":{"user_name":12345}` is -32602). The same tools/call
// made as a task fails with that -32602 (it used to drop the malformed
// answer and silently ask again).
func TestTaskMalformedAnswerFailsAsInline(t *testing.T) {
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
