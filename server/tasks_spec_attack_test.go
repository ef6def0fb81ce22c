package server

import (
	"context"
	"io"
	"log/slog"
	"testing"

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
