package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"regexp"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/generated/mcp"
	"github.com/mcpgen/mcpgen/jsonrpc"
)

// tasksMeta declares elicitation and the tasks extension.
const tasksMeta = `{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"elicitation":{},"extensions":{"io.modelcontextprotocol/tasks":{}}}}`

type sleepArgs struct {
	Ms int `json:"ms"`
}

type fileArgs struct {
	File string `json:"file"`
}

// taskTools are the task fixtures of these tests.
func taskTools() []Tool {
	askConfirm := func(ctx context.Context, key string) (bool, error) {
		resp, err := Ask(ctx, key, &mcp.ElicitRequest{Params: &mcp.ElicitRequestFormParams{
			Message: "Confirm " + key + "?",
			RequestedSchema: mcp.ElicitRequestFormParamsRequestedSchema{
				Properties: map[string]mcp.PrimitiveSchemaDefinition{"confirm": &mcp.BooleanSchema{}},
			},
		}})
		if err != nil {
			return false, err
		}
		ok, _ := resp.(*mcp.ElicitResult).Content["confirm"].(bool)
		return ok, nil
	}
	return []Tool{
		NewTool(ToolInfo{Name: "sync_echo"}, func(ctx context.Context, in fileArgs) (string, error) {
			return "echo " + in.File, nil
		}),
		NewTool(ToolInfo{Name: "sleeper", TaskSupport: TaskSupportOptional}, func(ctx context.Context, in sleepArgs) (string, error) {
			select {
			case <-time.After(time.Duration(in.Ms) * time.Millisecond):
				return fmt.Sprintf("slept %d ms", in.Ms), nil
			case <-ctx.Done():
				return "", ctx.Err()
			}
		}),
		NewTool(ToolInfo{Name: "tool_error", TaskSupport: TaskSupportRequired}, func(ctx context.Context, _ struct{}) (string, error) {
			return "", errors.New("it broke")
		}),
		NewTool(ToolInfo{Name: "protocol_error", TaskSupport: TaskSupportOptional}, func(ctx context.Context, _ struct{}) (string, error) {
			return "", &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "Internal error: boom"}
		}),
		NewTool(ToolInfo{Name: "panicker", TaskSupport: TaskSupportOptional}, func(ctx context.Context, _ struct{}) (string, error) {
			panic("task handler panic")
		}),
		NewTool(ToolInfo{Name: "confirm_two", TaskSupport: TaskSupportOptional}, func(ctx context.Context, in fileArgs) (string, error) {
			a, errA := askConfirm(ctx, "first")
			b, errB := askConfirm(ctx, "second")
			var need InputRequiredError
			for _, err := range []error{errA, errB} {
				var ire *InputRequiredError
				if errors.As(err, &ire) {
					if need.Requests == nil {
						need.Requests = map[string]mcp.InputRequest{}
					}
					for k, v := range ire.Requests {
						need.Requests[k] = v
					}
				} else if err != nil {
					return "", err
				}
			}
			if need.Requests != nil {
				return "", &need
			}
			return fmt.Sprintf("%s: first=%v second=%v", in.File, a, b), nil
		}),
		NewTool(ToolInfo{Name: "named_task", TaskSupport: TaskSupportRequired,
			BeforeTask: func(ctx context.Context) error {
				_, err := Ask(ctx, "user_name", nameRequest())
				return err
			},
		}, func(ctx context.Context, _ struct{}) (string, error) {
			resp, err := Ask(ctx, "user_name", nameRequest())
			if err != nil {
				return "", err
			}
			return fmt.Sprintf("Hello from a task, %v!", resp.(*mcp.ElicitResult).Content["name"]), nil
		}),
	}
}

func nameRequest() mcp.InputRequest {
	return &mcp.ElicitRequest{Params: &mcp.ElicitRequestFormParams{
		Message: "Name?",
		RequestedSchema: mcp.ElicitRequestFormParamsRequestedSchema{
			Properties: map[string]mcp.PrimitiveSchemaDefinition{"name": &mcp.StringSchema{}},
		},
	}}
}

func newTaskServer(t testing.TB) *Server {
	t.Helper()
	s, err := New(Options{Name: "tasks", Version: "1", Tools: taskTools(),
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
		defer cancel()
		_ = s.Shutdown(ctx)
	})
	return s
}

// taskCall calls a tool declaring the tasks extension.
func taskCall(t testing.TB, s *Server, name, args, extra string) reply {
	t.Helper()
	r, _ := rpcMeta(t, s, "tools/call", `{"name":"`+name+`","arguments":`+args+extra+`}`, tasksMeta, nil)
	return r
}

// taskRPC sends a tasks/* request declaring the extension.
func taskRPC(t testing.TB, s *Server, method, id, extra string) reply {
	t.Helper()
	r, _ := rpcMeta(t, s, method, `{"taskId":"`+id+`"`+extra+`}`, tasksMeta, nil)
	return r
}

// resultMap decodes a result object.
func resultMap(t testing.TB, r reply) map[string]any {
	t.Helper()
	wantResult(t, r)
	var m map[string]any
	if err := json.Unmarshal(r.Result, &m); err != nil {
		t.Fatalf("result %s: %v", r.Result, err)
	}
	return m
}

var isoTime = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}`)

// createTask calls a tool and checks the flat CreateTaskResult.
func createTask(t testing.TB, s *Server, name, args string) string {
	t.Helper()
	m := resultMap(t, taskCall(t, s, name, args, ""))
	if m["resultType"] != "task" || m["status"] != TaskWorking {
		t.Fatalf("CreateTaskResult %v", m)
	}
	for _, k := range []string{"task", "result", "error", "inputRequests", "requestState", "ttl", "pollInterval", "content"} {
		if _, has := m[k]; has {
			t.Errorf("CreateTaskResult carries %q: %v", k, m)
		}
	}
	for _, k := range []string{"createdAt", "lastUpdatedAt"} {
		if s, _ := m[k].(string); !isoTime.MatchString(s) {
			t.Errorf("%s = %v, want ISO-8601", k, m[k])
		}
	}
	for _, k := range []string{"ttlMs", "pollIntervalMs"} {
		if f, ok := m[k].(float64); !ok || f <= 0 || f != float64(int64(f)) {
			t.Errorf("%s = %v, want a positive integer", k, m[k])
		}
	}
	id, _ := m["taskId"].(string)
	if id == "" {
		t.Fatalf("no taskId: %v", m)
	}
	return id
}

// waitStatus polls tasks/get until the task has one of statuses.
func waitStatus(t testing.TB, s *Server, id string, statuses ...string) map[string]any {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		m := resultMap(t, taskRPC(t, s, "tasks/get", id, ""))
		for _, st := range statuses {
			if m["status"] == st {
				return m
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("task %s: status %v, want one of %v", id, m["status"], statuses)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func wantAck(t testing.TB, r reply) {
	t.Helper()
	m := resultMap(t, r)
	if m["resultType"] != "complete" || len(m) != 2 || m["_meta"] == nil {
		t.Errorf("ack %s, want only resultType complete and _meta", r.Result)
	}
}

func TestTasksDiscoverAdvertisesExtension(t *testing.T) {
	s := newTaskServer(t)
	caps := rpc(t, s, "server/discover", `{}`).field(t, "capabilities").(map[string]any)
	ext, _ := caps["extensions"].(map[string]any)
	if _, ok := ext[TasksExtension]; !ok || caps["tasks"] != nil {
		t.Errorf("capabilities %v: want extensions[%q] and no tasks", caps, TasksExtension)
	}
	// A server without task-supporting tools advertises nothing and does
	// not know the tasks methods.
	f := newFixture(t)
	if caps := rpc(t, f.s, "server/discover", `{}`).field(t, "capabilities").(map[string]any); caps["extensions"] != nil {
		t.Errorf("plain server advertises %v", caps["extensions"])
	}
	wantError(t, taskRPC(t, f.s, "tasks/get", "x", ""), jsonrpc.CodeMethodNotFound)
}

func TestTasksGatedWithoutExtension(t *testing.T) {
	s := newTaskServer(t)
	for _, m := range []string{"tasks/get", "tasks/update", "tasks/cancel"} {
		r := rpc(t, s, m, `{"taskId":"gate","inputResponses":{}}`)
		wantError(t, r, -32021)
		if !strings.Contains(string(r.Error.Data), `"extensions":{"io.modelcontextprotocol/tasks":{}}`) {
			t.Errorf("%s data %s", m, r.Error.Data)
		}
	}
	// An optional tool runs inline; a required one is -32021 naming the extension.
	r := rpc(t, s, "tools/call", `{"name":"sleeper","arguments":{"ms":0}}`)
	if text, _ := callText(t, r); text != "slept 0 ms" || r.field(t, "resultType") != "complete" || r.field(t, "taskId") != nil {
		t.Errorf("inline call %s", r.Result)
	}
	r = rpc(t, s, "tools/call", `{"name":"tool_error","arguments":{}}`)
	wantError(t, r, -32021)
	var data struct {
		RequiredCapabilities mcp.ClientCapabilities `json:"requiredCapabilities"`
	}
	if json.Unmarshal(r.Error.Data, &data) != nil || data.RequiredCapabilities.Extensions[TasksExtension] == nil {
		t.Errorf("required tool data %s", r.Error.Data)
	}
	if s.tasks.len() != 0 {
		t.Errorf("%d tasks created without the extension", s.tasks.len())
	}
}

func TestTasksLifecycle(t *testing.T) {
	s := newTaskServer(t)
	// A sync tool stays sync, even with the legacy task param.
	r := taskCall(t, s, "sync_echo", `{"file":"a"}`, `,"task":{"ttl":60000,"pollInterval":100}`)
	if text, _ := callText(t, r); text != "echo a" || r.field(t, "taskId") != nil || r.field(t, "resultType") != "complete" {
		t.Errorf("sync tool with the extension: %s", r.Result)
	}

	id := createTask(t, s, "sleeper", `{"ms":50}`)
	// The task exists as soon as CreateTaskResult is sent.
	m := resultMap(t, taskRPC(t, s, "tasks/get", id, ""))
	if m["taskId"] != id || m["resultType"] != "complete" || m["result"] != nil {
		t.Errorf("tasks/get while working: %v", m)
	}
	m = waitStatus(t, s, id, TaskCompleted)
	res, _ := m["result"].(map[string]any)
	content, _ := res["content"].([]any)
	if len(content) != 1 || content[0].(map[string]any)["text"] != "slept 50 ms" || res["resultType"] != "complete" {
		t.Errorf("completed task result %v", m["result"])
	}
	if meta, _ := res["_meta"].(map[string]any); meta["io.modelcontextprotocol/related-task"] != nil {
		t.Errorf("inlined result carries related-task _meta: %v", meta)
	}
	if _, has := m["requestState"]; has || m["error"] != nil {
		t.Errorf("completed task %v", m)
	}

	// Tool error: completed with isError; protocol error and panic: failed.
	m = waitStatus(t, s, createTask(t, s, "tool_error", `{}`), TaskCompleted, TaskFailed)
	if m["status"] != TaskCompleted || m["result"].(map[string]any)["isError"] != true {
		t.Errorf("tool error task %v", m)
	}
	for _, tool := range []string{"protocol_error", "panicker"} {
		m = waitStatus(t, s, createTask(t, s, tool, `{}`), TaskCompleted, TaskFailed)
		e, _ := m["error"].(map[string]any)
		if m["status"] != TaskFailed || e["code"] != float64(jsonrpc.CodeInternalError) || e["message"] == "" || m["result"] != nil {
			t.Errorf("%s task %v", tool, m)
		}
	}

	// Cancel a running task, then cancel it again (terminal): the same ack.
	id = createTask(t, s, "sleeper", `{"ms":60000}`)
	wantAck(t, taskRPC(t, s, "tasks/cancel", id, ""))
	if m := waitStatus(t, s, id, TaskCancelled, TaskCompleted, TaskFailed); m["status"] != TaskCancelled {
		t.Errorf("after cancel: %v", m)
	}
	wantAck(t, taskRPC(t, s, "tasks/cancel", id, ""))
	if m := resultMap(t, taskRPC(t, s, "tasks/get", id, "")); m["status"] != TaskCancelled {
		t.Errorf("second cancel changed the task: %v", m)
	}

	// Unknown ids and bad params are -32602; removed methods -32601.
	for _, m := range []string{"tasks/get", "tasks/cancel", "tasks/update"} {
		wantError(t, taskRPC(t, s, m, "nope", `,"inputResponses":{}`), jsonrpc.CodeInvalidParams)
	}
	r, _ = rpcMeta(t, s, "tasks/get", `{}`, tasksMeta, nil)
	wantError(t, r, jsonrpc.CodeInvalidParams)
	for _, m := range []string{"tasks/result", "tasks/list"} {
		r, _ := rpcMeta(t, s, m, `{"taskId":"x"}`, tasksMeta, nil)
		wantError(t, r, jsonrpc.CodeMethodNotFound)
	}
}

func TestTasksInputRequired(t *testing.T) {
	s := newTaskServer(t)
	id := createTask(t, s, "confirm_two", `{"file":"f.txt"}`)
	m := waitStatus(t, s, id, TaskInputRequired)
	reqs, _ := m["inputRequests"].(map[string]any)
	if len(reqs) != 2 || reqs["first"].(map[string]any)["method"] != "elicitation/create" {
		t.Fatalf("inputRequests %v", m["inputRequests"])
	}
	if _, has := m["requestState"]; has {
		t.Errorf("DetailedTask carries requestState: %v", m)
	}
	yes := `{"action":"accept","content":{"confirm":true}}`
	// A wrong kind of answer is -32602 and records nothing; unknown keys are ignored.
	wantError(t, taskRPC(t, s, "tasks/update", id, `,"inputResponses":{"first":{"roots":[]}}`), jsonrpc.CodeInvalidParams)
	wantError(t, taskRPC(t, s, "tasks/update", id, ``), jsonrpc.CodeInvalidParams)
	wantAck(t, taskRPC(t, s, "tasks/update", id, `,"inputResponses":{"unknown":{"ignored":true}}`))
	// A partial answer keeps the task input_required with the other key only.
	wantAck(t, taskRPC(t, s, "tasks/update", id, `,"inputResponses":{"first":`+yes+`}`))
	m = resultMap(t, taskRPC(t, s, "tasks/get", id, ""))
	reqs, _ = m["inputRequests"].(map[string]any)
	if m["status"] != TaskInputRequired || len(reqs) != 1 || reqs["second"] == nil {
		t.Fatalf("after a partial update: %v", m)
	}
	wantAck(t, taskRPC(t, s, "tasks/update", id, `,"inputResponses":{"second":{"action":"accept","content":{"confirm":false}}}`))
	m = waitStatus(t, s, id, TaskCompleted, TaskFailed)
	if text := m["result"].(map[string]any)["content"].([]any)[0].(map[string]any)["text"]; text != "f.txt: first=true second=false" {
		t.Errorf("result %v", m)
	}
	// Updating a finished task is acknowledged and changes nothing.
	wantAck(t, taskRPC(t, s, "tasks/update", id, `,"inputResponses":{"first":`+yes+`}`))

	// Cancelling a parked task ends it.
	id = createTask(t, s, "confirm_two", `{"file":"g"}`)
	waitStatus(t, s, id, TaskInputRequired)
	wantAck(t, taskRPC(t, s, "tasks/cancel", id, ""))
	if m := waitStatus(t, s, id, TaskCancelled, TaskCompleted); m["status"] != TaskCancelled || m["inputRequests"] != nil {
		t.Errorf("cancelled parked task %v", m)
	}
}

func TestTasksBeforeTaskMRTR(t *testing.T) {
	s := newTaskServer(t)
	// Round 1: an InputRequiredResult, no task.
	r := taskCall(t, s, "named_task", `{}`, "")
	if r.field(t, "resultType") != "input_required" || r.field(t, "taskId") != nil || r.field(t, "inputRequests", "user_name") == nil {
		t.Fatalf("round 1 %s", r.Result)
	}
	if s.tasks.len() != 0 {
		t.Errorf("round 1 created a task")
	}
	// Round 2: the task, which sees the answer.
	r = taskCall(t, s, "named_task", `{}`, `,"inputResponses":{"user_name":{"action":"accept","content":{"name":"Alice"}}}`)
	if r.field(t, "requestState") != nil || r.field(t, "inputRequests") != nil {
		t.Errorf("round 2 %s", r.Result)
	}
	id, _ := r.field(t, "taskId").(string)
	m := waitStatus(t, s, id, TaskCompleted, TaskFailed)
	if text := m["result"].(map[string]any)["content"].([]any)[0].(map[string]any)["text"]; text != "Hello from a task, Alice!" {
		t.Errorf("result %v", m)
	}
}

func TestTasksPerRequestOptIn(t *testing.T) {
	s := newTaskServer(t)
	// The same client gets a task only on the request that declares the extension.
	if r := rpc(t, s, "tools/call", `{"name":"sleeper","arguments":{"ms":1}}`); r.field(t, "taskId") != nil {
		t.Errorf("no opt-in: %s", r.Result)
	}
	id := createTask(t, s, "sleeper", `{"ms":1}`)
	waitStatus(t, s, id, TaskCompleted)
	// A task is visible only to requests that declare the extension.
	wantError(t, rpc(t, s, "tasks/get", `{"taskId":"`+id+`"}`), -32021)
}

func TestTasksTTLAndBound(t *testing.T) {
	s := newTaskServer(t)
	s.tasks.ttl = 150 * time.Millisecond
	s.tasks.max = 2
	id := createTask(t, s, "sleeper", `{"ms":60000}`)
	if ttl := resultMap(t, taskRPC(t, s, "tasks/get", id, ""))["ttlMs"]; ttl != 150.0 {
		t.Errorf("ttlMs %v, want 150", ttl)
	}
	other := createTask(t, s, "sleeper", `{"ms":60000}`)
	// Full of running tasks: the next creation fails.
	wantError(t, taskCall(t, s, "sleeper", `{"ms":1}`, ""), jsonrpc.CodeInternalError)
	// The TTL ends the running tasks, then they are gone.
	time.Sleep(200 * time.Millisecond)
	wantError(t, taskRPC(t, s, "tasks/get", id, ""), jsonrpc.CodeInvalidParams)
	wantError(t, taskRPC(t, s, "tasks/get", other, ""), jsonrpc.CodeInvalidParams)

	// A full store of finished tasks evicts the oldest.
	s.tasks.ttl = time.Minute
	first := createTask(t, s, "sleeper", `{"ms":0}`)
	waitStatus(t, s, first, TaskCompleted)
	second := createTask(t, s, "sleeper", `{"ms":0}`)
	waitStatus(t, s, second, TaskCompleted)
	third := createTask(t, s, "sleeper", `{"ms":0}`)
	wantError(t, taskRPC(t, s, "tasks/get", first, ""), jsonrpc.CodeInvalidParams)
	waitStatus(t, s, second, TaskCompleted)
	waitStatus(t, s, third, TaskCompleted)
}

func TestTasksNoGoroutineLeak(t *testing.T) {
	before := runtime.NumGoroutine()
	s, err := New(Options{Name: "tasks", Version: "1", Tools: taskTools(),
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	s.tasks.ttl = 300 * time.Millisecond
	var ids []string
	for i := 0; i < 20; i++ {
		ids = append(ids, createTask(t, s, "sleeper", `{"ms":5}`))         // completes
		ids = append(ids, createTask(t, s, "sleeper", `{"ms":60000}`))     // cancelled below
		ids = append(ids, createTask(t, s, "confirm_two", `{"file":"x"}`)) // parked until the TTL
	}
	for i := 1; i < len(ids); i += 3 {
		wantAck(t, taskRPC(t, s, "tasks/cancel", ids[i], ""))
	}
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > before {
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<16)
			t.Fatalf("%d goroutines, %d before:\n%s", runtime.NumGoroutine(), before, buf[:runtime.Stack(buf, true)])
		}
		time.Sleep(20 * time.Millisecond)
	}
	// Shutdown lets running tasks go on through its grace, then marks
	// what is left failed with a reason and waits for it; a task that
	// finishes within the grace keeps its result. These tasks get a TTL
	// far longer than the grace, so a slow machine cannot reap them
	// before they are looked at.
	s.tasks.ttl = time.Minute
	running := createTask(t, s, "sleeper", `{"ms":60000}`)
	parked := createTask(t, s, "confirm_two", `{"file":"y"}`)
	quick := createTask(t, s, "sleeper", `{"ms":20}`)
	waitStatus(t, s, parked, TaskInputRequired)
	// A grace of 1 s: ample for the 20 ms task on a loaded machine (100 ms
	// was not, under the race detector at load 15).
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	if err := s.Shutdown(ctx); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Shutdown with tasks left at the end of the grace = %v, want DeadlineExceeded", err)
	}
	// Requests now get -32603, so look at the store.
	for _, id := range []string{running, parked} {
		tk := s.tasks.get(id)
		if tk == nil {
			t.Fatalf("after Shutdown: task %s is gone from the store", id)
		}
		tk.mu.Lock()
		if tk.status != TaskFailed || tk.message == "" || tk.err == nil || !strings.Contains(string(tk.err.Data), reasonShutdown) {
			t.Errorf("after Shutdown: task %s is %s (%q, %v), want failed with the shutdown reason", id, tk.status, tk.message, tk.err)
		}
		tk.mu.Unlock()
	}
	tk := s.tasks.get(quick)
	if tk == nil {
		t.Fatalf("after Shutdown: task %s is gone from the store", quick)
	}
	tk.mu.Lock()
	if tk.status != TaskCompleted {
		t.Errorf("a task that finished within the grace is %s", tk.status)
	}
	tk.mu.Unlock()
	if _, _, err := s.tasks.add(nil, nil, requestMeta{}, ""); err == nil {
		t.Errorf("the store accepts tasks after Shutdown")
	}
	deadline = time.Now().Add(5 * time.Second) // the first wait may have used up the old one
	for runtime.NumGoroutine() > before {
		if time.Now().After(deadline) {
			t.Fatalf("after Shutdown: %d goroutines, %d before", runtime.NumGoroutine(), before)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func TestTasksBadToolInfo(t *testing.T) {
	fn := func(ctx context.Context, _ struct{}) (string, error) { return "", nil }
	for _, info := range []ToolInfo{
		{Name: "x", TaskSupport: "always"},
		{Name: "x", BeforeTask: func(context.Context) error { return nil }},
	} {
		if _, err := New(Options{Name: "t", Tools: []Tool{NewTool(info, fn)}}); err == nil {
			t.Errorf("%+v: no error", info)
		}
	}
}

func TestTasksHTTPMcpName(t *testing.T) {
	s := newTaskServer(t)
	id := createTask(t, s, "sleeper", `{"ms":60000}`)
	h := s.HTTPHandler(HTTPOptions{})
	post := func(name string) (int, reply) {
		body := `{"jsonrpc":"2.0","id":1,"method":"tasks/get","params":` + withMeta(`{"taskId":"`+id+`"}`, tasksMeta) + `}`
		req := httptest.NewRequest(http.MethodPost, "http://127.0.0.1/mcp", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("MCP-Protocol-Version", "2026-07-28")
		req.Header.Set("Mcp-Method", "tasks/get")
		if name != "" {
			req.Header.Set("Mcp-Name", name)
		}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		var r reply
		if err := json.Unmarshal(w.Body.Bytes(), &r); err != nil {
			t.Fatalf("body %s: %v", w.Body, err)
		}
		return w.Code, r
	}
	if code, r := post(id); code != 200 || r.field(t, "taskId") != id {
		t.Errorf("matching Mcp-Name: %d %s", code, r.Result)
	}
	for _, name := range []string{"wrong-task-id", ""} {
		code, r := post(name)
		if code != 400 {
			t.Errorf("Mcp-Name %q: status %d", name, code)
		}
		wantError(t, r, -32020)
	}
	wantAck(t, taskRPC(t, s, "tasks/cancel", id, ""))
}

// ext-tasks specification/2026-07-28/tasks.md, "Task Polling / Response":
// "Upon receiving a tasks/get request, the server MUST check the status of
// the task and respond accordingly ... If the status is completed, the
// server MUST return a Task object with status completed and a result".
// A task the server created and still holds (its ttlMs has not ended) must
// stay reachable after the tool that created it is removed.
func TestTasksOutliveTheirToolsRemoval(t *testing.T) {
	s := newTaskServer(t)
	id := createTask(t, s, "sleeper", `{"ms":0}`)
	waitStatus(t, s, id, TaskCompleted)
	running := createTask(t, s, "sleeper", `{"ms":60000}`)
	s.RemoveTools("sleeper", "tool_error", "protocol_error", "panicker", "confirm_two", "named_task")
	// The running task's tool goroutine goes on; the client must still be
	// able to stop it ("On success, the server MUST acknowledge the
	// request with an empty result").
	if r := taskRPC(t, s, "tasks/cancel", running, ""); r.Error != nil {
		t.Errorf("tasks/cancel of a running task after its tool was removed: error %d %q, want the empty ack", r.Error.Code, r.Error.Message)
	}
	r := taskRPC(t, s, "tasks/get", id, "")
	if r.Error != nil {
		t.Fatalf("tasks/get of a live completed task after its tool was removed: error %d %q, want the completed task", r.Error.Code, r.Error.Message)
	}
	if m := resultMap(t, r); m["status"] != TaskCompleted || m["result"] == nil {
		t.Fatalf("tasks/get %v", m)
	}
}

// ext-tasks specification/2026-07-28/tasks.md, Security Considerations:
// "Auth binding. Servers MUST perform authentication and authorization
// checks on each task-related request to ensure that the client has
// permission to access a task." README (Authorization): "scopes= (or
// ToolInfo.Scopes) the token lacks is 403 error="insufficient_scope" ...
// before its func runs". On the synchronous multi round-trip path the
// round that carries the answer is a tools/call and is refused 403 to a
// token without the tool's scope; on the task path the same answer comes
// as tasks/update and must not resume (re-run) the scope-guarded func for a
// token that lacks the scope, nor may tasks/get hand that token the
// guarded tool's result.
func TestTaskRequestsNeedTheirToolScopes(t *testing.T) {
	var runs atomic.Int32
	s, err := New(Options{Name: "scoped", Version: "1", Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
		Tools: []Tool{NewTool(ToolInfo{Name: "guarded", Scopes: []string{"files:write"}, TaskSupport: TaskSupportRequired},
			func(ctx context.Context, _ struct{}) (string, error) {
				runs.Add(1)
				resp, err := Ask(ctx, "name", nameRequest())
				if err != nil {
					return "", err
				}
				return "wrote for " + fmt.Sprint(resp.(*mcp.ElicitResult).Content["name"]), nil
			})}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
		defer cancel()
		_ = s.Shutdown(ctx)
	})
	mux := http.NewServeMux()
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	a, err := NewAuth(AuthOptions{Verifier: authTokens, Resource: srv.URL + "/mcp", AuthorizationServers: []string{"https://as.test"}})
	if err != nil {
		t.Fatal(err)
	}
	mux.Handle("/mcp", s.HTTPHandler(HTTPOptions{Auth: a}))
	post := func(method, name, body, tok string) (int, map[string]any) {
		t.Helper()
		resp, err := srv.Client().Do(newPost(t, srv.URL+"/mcp", body, stdHeaders(method, name, bearer(tok)...)))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		raw, _ := io.ReadAll(resp.Body)
		var out map[string]any
		_ = json.Unmarshal(raw, &out)
		return resp.StatusCode, out
	}
	meta := `"_meta":` + tasksMeta
	// alice with files:write starts the task; it parks for input.
	code, body := post("tools/call", "guarded", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"guarded","arguments":{},`+meta+`}}`, "alice-write")
	res, _ := body["result"].(map[string]any)
	id, _ := res["taskId"].(string)
	if code != 200 || id == "" {
		t.Fatalf("create: %d %v", code, body)
	}
	get := `{"jsonrpc":"2.0","id":9,"method":"tasks/get","params":{"taskId":"` + id + `",` + meta + `}}`
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		_, body = post("tasks/get", id, get, "alice-write")
		if r, _ := body["result"].(map[string]any); r["status"] == TaskInputRequired {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("task never parked: %v", body)
		}
	}
	// The same subject with a token lacking files:write: the synchronous
	// path refuses it before the func runs.
	code, _ = post("tools/call", "guarded", `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"guarded","arguments":{},`+meta+`}}`, "alice-read")
	if code != 403 {
		t.Fatalf("sync tools/call with alice-read: status %d, want 403", code)
	}
	before := runs.Load()
	code, body = post("tasks/update", id, `{"jsonrpc":"2.0","id":3,"method":"tasks/update","params":{"taskId":"`+id+`","inputResponses":{"name":{"action":"accept","content":{"name":"mallory"}}},`+meta+`}}`, "alice-read")
	time.Sleep(200 * time.Millisecond)
	if after := runs.Load(); after != before || body["error"] == nil {
		t.Errorf("tasks/update from a token without the tool's scope files:write: status %d %v, and the guarded func ran %d more time(s); want a refusal (403 insufficient_scope, as tools/call gets) and no run", code, body, after-before)
	}
	for _, method := range []string{"tasks/get", "tasks/cancel"} {
		if code, body = post(method, id, strings.Replace(get, "tasks/get", method, 1), "alice-read"); code != 403 {
			t.Errorf("%s from a token without the tool's scope files:write: status %d %v, want 403", method, code, body)
		}
	}
	if _, body = post("tasks/get", id, get, "alice-write"); body["result"].(map[string]any)["status"] != TaskInputRequired {
		t.Errorf("the task after the refused requests: %v, want it still input_required", body)
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
func TestTaskRequestAskedAgainGetsAFreshKey(t *testing.T) {
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
	// The request asked again comes under a fresh key; its answer reaches
	// the tool under its own key "name".
	reqs, _ := m["inputRequests"].(map[string]any)
	if len(reqs) != 1 || reqs["name#2"] == nil {
		t.Fatalf("inputRequests after the tool asked \"name\" again: %v, want it under \"name#2\"", m)
	}
	wantAck(t, taskRPC(t, s, "tasks/update", id, `,"inputResponses":{"name#2":{"action":"accept","content":{"name":"ok"}}}`))
	m = waitStatus(t, s, id, TaskCompleted, TaskFailed)
	if res, _ := m["result"].(map[string]any); m["status"] != TaskCompleted || fmt.Sprint(res["content"]) != "[map[text:fine type:text]]" {
		t.Errorf("task after answering \"name#2\": %v, want completed with \"fine\"", m)
	}
}
