package main

import (
	"context"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/server"
)

// listen opens a subscriptions/listen stream with filter and returns its
// recorder once the acknowledgement arrived; the stream ends with the test.
func listen(t *testing.T, srv *server.Server, filter map[string]any) *recorder {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	rec := newRecorder()
	done := make(chan struct{})
	go func() {
		defer close(done)
		handleRaw(t, ctx, srv, "subscriptions/listen", map[string]any{"notifications": filter}, nil, rec)
	}()
	t.Cleanup(func() {
		cancel()
		select {
		case <-done:
		case <-time.After(2 * time.Second):
			t.Error("listen stream did not end after cancellation")
		}
	})
	waitFor(t, rec, func(n []notification) bool { return len(n) >= 1 })
	if n := rec.list()[0]; n.Method != "notifications/subscriptions/acknowledged" {
		t.Fatalf("first frame %v, want the acknowledgement", n)
	}
	return rec
}

// waitFor waits (up to 2 s) until cond holds for the recorded notifications.
func waitFor(t *testing.T, rec *recorder, cond func([]notification) bool) {
	t.Helper()
	deadline := time.After(2 * time.Second)
	for !cond(rec.list()) {
		select {
		case <-rec.sent:
		case <-deadline:
			t.Fatalf("timed out; notifications so far: %v", rec.list())
		}
	}
}

func methods(notes []notification) []string {
	var out []string
	for _, n := range notes {
		out = append(out, n.Method)
	}
	return out
}

func TestTriggerToolChange(t *testing.T) {
	srv := testServer(t)
	tools := listen(t, srv, map[string]any{"toolsListChanged": true})
	prompts := listen(t, srv, map[string]any{"promptsListChanged": true})

	for range 2 { // re-registering works too
		res := mustResult(t, "test_trigger_tool_change", callTool(t, srv, "test_trigger_tool_change", map[string]any{}))
		equalJSON(t, "content", res["content"], `[{"type":"text","text":"tools_list_changed published"}]`)
	}
	waitFor(t, tools, func(n []notification) bool { return len(n) >= 2 })
	n := tools.list()[1]
	if n.Method != "notifications/tools/list_changed" {
		t.Errorf("tools stream got %v, want notifications/tools/list_changed", methods(tools.list()))
	}
	ack := tools.list()[0]
	subID := ack.Params["_meta"].(map[string]any)["io.modelcontextprotocol/subscriptionId"]
	if subID == nil || subID == 0.0 || subID == "" {
		t.Errorf("acknowledgement subscriptionId = %v, want a truthy id", subID)
	}
	if got := n.Params["_meta"].(map[string]any)["io.modelcontextprotocol/subscriptionId"]; got != subID {
		t.Errorf("list_changed subscriptionId %v, want %v", got, subID)
	}

	// The transient tool is listed, described and callable with {}.
	res := mustResult(t, "tools/list", func() rpcResponse { r, _ := rawCall(t, srv, "tools/list", nil, nil); return r }())
	var found bool
	for _, x := range res["tools"].([]any) {
		tool := x.(map[string]any)
		if tool["name"] == transientToolName {
			found = true
			if d, _ := tool["description"].(string); d == "" {
				t.Error("transient tool has no description")
			}
		}
	}
	if !found {
		t.Errorf("tools/list lacks %s after the trigger", transientToolName)
	}
	mustResult(t, transientToolName, callTool(t, srv, transientToolName, map[string]any{}))

	// The prompts-only stream got nothing but its acknowledgement.
	time.Sleep(50 * time.Millisecond)
	if got := methods(prompts.list()); len(got) != 1 {
		t.Errorf("prompts stream got %v, want only the acknowledgement", got)
	}
}

func TestTriggerPromptChange(t *testing.T) {
	srv := testServer(t)
	prompts := listen(t, srv, map[string]any{"promptsListChanged": true})
	tools := listen(t, srv, map[string]any{"toolsListChanged": true})

	res := mustResult(t, "test_trigger_prompt_change", callTool(t, srv, "test_trigger_prompt_change", nil))
	equalJSON(t, "content", res["content"], `[{"type":"text","text":"prompts_list_changed published"}]`)
	waitFor(t, prompts, func(n []notification) bool { return len(n) >= 2 })
	if got := prompts.list()[1].Method; got != "notifications/prompts/list_changed" {
		t.Errorf("prompts stream got %s", got)
	}
	time.Sleep(50 * time.Millisecond)
	if got := methods(tools.list()); len(got) != 1 {
		t.Errorf("tools stream got %v, want only the acknowledgement", got)
	}
	list, _ := rawCall(t, srv, "prompts/list", nil, nil)
	var found bool
	for _, x := range mustResult(t, "prompts/list", list)["prompts"].([]any) {
		if p := x.(map[string]any); p["name"] == transientPromptName {
			found = p["description"] != ""
		}
	}
	if !found {
		t.Errorf("prompts/list lacks a described %s", transientPromptName)
	}
}
