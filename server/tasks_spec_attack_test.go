package server

import (
	"context"
	"io"
	"log/slog"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/generated/mcp"
)

// ext-tasks specification/2026-07-28/tasks.md, "Polymorphic Results":
// "Servers MUST NOT set resultType to "task" on result types other than
// CreateTaskResult", and "A server MUST NOT return CreateTaskResult to a
// client that did not include the extension capability on its request".
// README: the runtime owns the result envelope (resultType). A tool that
// returns a *mcp.CallToolResult whose ResultType field holds "task" gets
// that discriminator passed through onto a plain CallToolResult — to a
// client that never declared the extension (which then reads a task handle
// without a taskId) and inside a task's inlined result.
func TestAttackTasksResultTypeTaskOnCallToolResult(t *testing.T) {
	s, err := New(Options{Name: "rt", Version: "1", Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
		Tools: []Tool{NewTool(ToolInfo{Name: "rt", TaskSupport: TaskSupportOptional}, func(ctx context.Context, _ struct{}) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{ResultType: "task", Content: []mcp.ContentBlock{&mcp.TextContent{Text: "hi"}}}, nil
		})}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Shutdown(context.Background()) })
	r := rpc(t, s, "tools/call", `{"name":"rt","arguments":{}}`) // no tasks extension declared
	if rt := r.field(t, "resultType"); rt != "complete" {
		t.Errorf("sync CallToolResult to a client without the extension has resultType %v (%s), want \"complete\"", rt, r.Result)
	}
	id := createTask(t, s, "rt", `{}`)
	m := waitStatus(t, s, id, TaskCompleted, TaskFailed)
	if res, _ := m["result"].(map[string]any); res["resultType"] != "complete" {
		t.Errorf("inlined CallToolResult of a task has resultType %v, want \"complete\"", res["resultType"])
	}
}

// ext-tasks specification/2026-07-28/tasks.md, "Task Update Requests":
// "Each request key in inputRequests MUST be unique over the lifetime of a
// single task. A server MUST NOT reuse a key for a subsequent
// server-to-client request after a response for that key has been
// delivered". A handler that prompts again (returns an InputRequiredError
// naming the key it already asked, as the MRTR page allows on the
// synchronous path: "return an InputRequiredResult on multiple attempts at
// the same request ... to repeatedly prompt") has its key surfaced again
// inside the task, after tasks/update delivered the answer for it. A client
// that deduplicates keys across polls and tracks answered keys (both
// SHOULDs of the same section) never answers it, and the task sits in
// input_required until its TTL.
func TestAttackTasksInputKeyReusedAfterAnswer(t *testing.T) {
	s, err := New(Options{Name: "reask", Version: "1", Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
		Tools: []Tool{NewTool(ToolInfo{Name: "reask", TaskSupport: TaskSupportOptional}, func(ctx context.Context, _ struct{}) (string, error) {
			resp, err := Ask(ctx, "name", nameRequest())
			if err != nil {
				return "", err
			}
			if resp.(*mcp.ElicitResult).Content["name"] != "ok" {
				return "", &InputRequiredError{Requests: map[string]mcp.InputRequest{"name": nameRequest()}}
			}
			return "fine", nil
		})}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
		defer cancel()
		_ = s.Shutdown(ctx)
	})
	id := createTask(t, s, "reask", `{}`)
	waitStatus(t, s, id, TaskInputRequired)
	wantAck(t, taskRPC(t, s, "tasks/update", id, `,"inputResponses":{"name":{"action":"accept","content":{"name":"bad"}}}`))
	// Wait for the round that follows the answer to finish.
	deadline := time.Now().Add(5 * time.Second)
	for {
		tk := s.tasks.get(id)
		tk.mu.Lock()
		st, pending := tk.status, len(tk.pending)
		tk.mu.Unlock()
		if st != TaskWorking && pending > 0 || st != TaskWorking && st != TaskInputRequired {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("task stuck in %s", st)
		}
		time.Sleep(2 * time.Millisecond)
	}
	m := resultMap(t, taskRPC(t, s, "tasks/get", id, ""))
	if reqs, _ := m["inputRequests"].(map[string]any); reqs["name"] != nil {
		t.Errorf("after the answer to key \"name\" was delivered, tasks/get surfaces key \"name\" again for a new request: %v", m)
	}
}
