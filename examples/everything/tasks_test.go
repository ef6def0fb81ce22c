package main

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/server"
)

// tasksMeta overrides clientCapabilities to declare the tasks extension.
var tasksMeta = map[string]any{"io.modelcontextprotocol/clientCapabilities": map[string]any{
	"elicitation": map[string]any{}, "extensions": map[string]any{server.TasksExtension: map[string]any{}},
}}

// taskRequest sends a request declaring the tasks extension.
func taskRequest(t *testing.T, srv *server.Server, method string, params map[string]any) rpcResponse {
	t.Helper()
	resp, _ := rawCall(t, srv, method, params, tasksMeta)
	return resp
}

// startTask calls a tool as a task and returns the task id.
func startTask(t *testing.T, srv *server.Server, name string, args map[string]any) string {
	t.Helper()
	params := map[string]any{"name": name}
	if args != nil { // "arguments": null is -32602
		params["arguments"] = args
	}
	res := mustResult(t, name, taskRequest(t, srv, "tools/call", params))
	id, _ := res["taskId"].(string)
	if res["resultType"] != "task" || id == "" {
		t.Fatalf("%s: %v, want a CreateTaskResult", name, res)
	}
	return id
}

// pollTask polls tasks/get until the task's status is one of want.
func pollTask(t *testing.T, srv *server.Server, id string, want ...string) map[string]any {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		res := mustResult(t, "tasks/get", taskRequest(t, srv, "tasks/get", map[string]any{"taskId": id}))
		for _, w := range want {
			if res["status"] == w {
				return res
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("task %s: %v, want status %v", id, res, want)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// resultText is content[0].text of a task's inlined result.
func resultText(res map[string]any) string {
	r, _ := res["result"].(map[string]any)
	c, _ := r["content"].([]any)
	if len(c) == 0 {
		return ""
	}
	s, _ := c[0].(map[string]any)["text"].(string)
	return s
}

func TestTaskFixtures(t *testing.T) {
	srv := testServer(t)
	caps := mustResult(t, "discover", taskRequest(t, srv, "server/discover", nil))["capabilities"].(map[string]any)
	if ext, _ := caps["extensions"].(map[string]any); ext[server.TasksExtension] == nil {
		t.Errorf("capabilities %v lack the tasks extension", caps)
	}

	// greet stays synchronous.
	res := mustResult(t, "greet", taskRequest(t, srv, "tools/call", map[string]any{"name": "greet", "arguments": map[string]any{"name": "World"}}))
	if res["resultType"] != "complete" || res["taskId"] != nil || fmt.Sprint(res["content"]) != "[map[text:Hello, World! type:text]]" {
		t.Errorf("greet %v", res)
	}

	// slow_compute completes, or is cancelled while it runs.
	if res := pollTask(t, srv, startTask(t, srv, "slow_compute", map[string]any{"seconds": 0.05, "label": "x"}), "completed"); !strings.Contains(resultText(res), `"x"`) {
		t.Errorf("slow_compute %v", res)
	}
	id := startTask(t, srv, "slow_compute", map[string]any{"seconds": 60})
	mustResult(t, "cancel", taskRequest(t, srv, "tasks/cancel", map[string]any{"taskId": id}))
	pollTask(t, srv, id, "cancelled")

	// failing_job: completed with isError; protocol_error_job: failed.
	res = pollTask(t, srv, startTask(t, srv, "failing_job", nil), "completed", "failed")
	if res["status"] != "completed" || res["result"].(map[string]any)["isError"] != true {
		t.Errorf("failing_job %v", res)
	}
	res = pollTask(t, srv, startTask(t, srv, "protocol_error_job", nil), "completed", "failed")
	if res["status"] != "failed" || res["error"] == nil || res["result"] != nil {
		t.Errorf("protocol_error_job %v", res)
	}

	// failing_job without the extension: -32021.
	if r := callTool(t, srv, "failing_job", nil); r.Error == nil || r.Error.Code != -32021 {
		t.Errorf("failing_job without the extension: %+v", r)
	}

	// confirm_delete parks for one elicitation, then completes.
	id = startTask(t, srv, "confirm_delete", map[string]any{"filename": "a.txt"})
	res = pollTask(t, srv, id, "input_required")
	reqs, _ := res["inputRequests"].(map[string]any)
	if len(reqs) != 1 || reqs["confirm"] == nil {
		t.Fatalf("confirm_delete inputRequests %v", res["inputRequests"])
	}
	mustResult(t, "update", taskRequest(t, srv, "tasks/update", map[string]any{"taskId": id,
		"inputResponses": map[string]any{"confirm": map[string]any{"action": "accept", "content": map[string]any{"confirm": true}}}}))
	if res := pollTask(t, srv, id, "completed"); resultText(res) != "Deleted a.txt" {
		t.Errorf("confirm_delete %v", res)
	}

	// multi_input asks two things at once.
	id = startTask(t, srv, "multi_input", nil)
	if reqs, _ := pollTask(t, srv, id, "input_required")["inputRequests"].(map[string]any); len(reqs) != 2 {
		t.Fatalf("multi_input inputRequests %v", reqs)
	}
	answer := map[string]any{"action": "accept", "content": map[string]any{"name": "Ann", "confirm": true}}
	mustResult(t, "update", taskRequest(t, srv, "tasks/update", map[string]any{"taskId": id, "inputResponses": map[string]any{"name": answer, "confirm": answer}}))
	if res := pollTask(t, srv, id, "completed"); resultText(res) != "name=Ann confirm=true" {
		t.Errorf("multi_input %v", res)
	}

	// test_tool_with_task: MRTR first, then a task that knows the name.
	res = mustResult(t, "round 1", taskRequest(t, srv, "tools/call", map[string]any{"name": "test_tool_with_task", "arguments": map[string]any{}}))
	if res["resultType"] != "input_required" || res["taskId"] != nil {
		t.Fatalf("round 1 %v", res)
	}
	res = mustResult(t, "round 2", taskRequest(t, srv, "tools/call", map[string]any{"name": "test_tool_with_task", "arguments": map[string]any{},
		"inputResponses": map[string]any{"user_name": map[string]any{"action": "accept", "content": map[string]any{"name": "Alice"}}}}))
	id, _ = res["taskId"].(string)
	if res := pollTask(t, srv, id, "completed"); !strings.Contains(resultText(res), "Alice") {
		t.Errorf("test_tool_with_task %v", res)
	}
}
