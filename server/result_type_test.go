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
func TestCallToolResultTypeIsTheRuntimes(t *testing.T) {
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

// The runtime owns resultType on every result kind a handler may return
// whole: a prompt's *mcp.GetPromptResult and a resource's
// *mcp.ReadResourceResult go out "complete" whatever the handler set.
func TestPromptAndResourceResultTypeIsTheRuntimes(t *testing.T) {
	s, err := New(Options{Name: "rt", Version: "1", Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
		Prompts: []Prompt{NewPrompt(PromptInfo{Name: "p"}, func(ctx context.Context, _ struct{}) (*mcp.GetPromptResult, error) {
			return &mcp.GetPromptResult{ResultType: "task", Messages: []mcp.PromptMessage{{Role: "user", Content: &mcp.TextContent{Text: "hi"}}}}, nil
		})},
		Resources: []Resource{NewResource(ResourceInfo{URI: "test://r", Name: "r"}, func(ctx context.Context) (*mcp.ReadResourceResult, error) {
			return &mcp.ReadResourceResult{ResultType: "input_required", Contents: []mcp.ResourceContentsUnion{&mcp.TextResourceContents{URI: "test://r", Text: "hi"}}}, nil
		})}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Shutdown(context.Background()) })
	if rt := rpc(t, s, "prompts/get", `{"name":"p"}`).field(t, "resultType"); rt != "complete" {
		t.Errorf("prompts/get resultType %v, want \"complete\"", rt)
	}
	if rt := rpc(t, s, "resources/read", `{"uri":"test://r"}`).field(t, "resultType"); rt != "complete" {
		t.Errorf("resources/read resultType %v, want \"complete\"", rt)
	}
}
