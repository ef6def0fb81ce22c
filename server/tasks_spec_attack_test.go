package server

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/generated/mcp"
)

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
func TestAttackTasksUpdateSkipsToolScopes(t *testing.T) {
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
}

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
